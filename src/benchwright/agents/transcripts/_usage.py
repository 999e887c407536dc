"""The token usage a Claude Code, Codex or goose transcript carries, as trajectory metadata.

The keys are the run metadata's (docs/transcripts.md, "Token usage"): ``usage``
(``input_tokens``, ``output_tokens``, ``cost_usd``, then the breakdown the transcript
gives) and ``model_calls``; the converters keep ``model`` themselves.

``input_tokens`` is every input token the model read, cached or not, so the two agents'
figures mean the same: Anthropic reports cache reads and writes beside its
``input_tokens``, which are added in; OpenAI's ``input_tokens`` already include the
cached ones. These are what the agent's CLI wrote down, not a measurement by
benchwright. A count that is not a non-negative 64-bit integer (or a cost that is not a
finite non-negative number) makes the usage unknown - absent, with ``usage_error``
naming the line - rather than wrong.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from benchwright.agents.transcripts._common import Line

MAX_COUNT = 2**63 - 1
SYNTHETIC = "<synthetic>"
"""Claude Code's model name for a message it wrote itself, without calling a model."""
CLAUDE_COUNTS = (
    "input_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
    "output_tokens",
)
CODEX_COUNTS = ("input_tokens", "cached_input_tokens", "output_tokens", "reasoning_output_tokens")
GOOSE_COUNTS = ("input_tokens", "output_tokens", "total_tokens")


class BadUsage(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def claude_code_usage(lines: list[Line]) -> dict[str, Any]:
    """Per API message (its ``message.id``: Claude Code writes one line per content block,
    each repeating the message's usage) counted once; the ``result`` line's session
    totals and ``total_cost_usd`` when there is one."""
    return _guarded(_claude_code, lines)


def codex_rollout_usage(lines: list[Line]) -> dict[str, Any]:
    """From the rollout's ``token_count`` events: ``total_token_usage`` is cumulative, so
    each change of it is one model call and the last value is the total (a total that
    falls starts a new session segment, as a resumed rollout does; segments add up)."""
    return _guarded(_codex_rollout, lines)


def codex_exec_usage(lines: list[Line]) -> dict[str, Any]:
    """From ``codex exec --json``: each ``turn.completed`` carries the thread's total so far,
    so the last one is the total; the stream does not say how many calls made it."""
    return _guarded(_codex_exec, lines)


def goose_session_usage(header: Line) -> dict[str, Any]:
    """From a goose session file's metadata line: the ``accumulated_*`` counts (the whole
    session) when it has them, else the plain ones (older goose: the last call's usage);
    only the counts it gives (an old session may give ``total_tokens`` alone)."""
    return _guarded(_goose_session, [header])


def _guarded(read: Callable[[list[Line]], dict[str, Any]], lines: list[Line]) -> dict[str, Any]:
    try:
        return read(lines)
    except BadUsage as exc:
        return {"usage_error": f"line {exc.line}: {exc.message}"}


def _claude_code(lines: list[Line]) -> dict[str, Any]:
    messages: dict[str, dict[str, int]] = {}
    result: tuple[int, Mapping[str, Any]] | None = None
    for number, line in lines:
        if line.get("type") == "result" and isinstance(line.get("usage"), dict):
            result = number, line
        message = line.get("message") if line.get("type") == "assistant" else None
        if not isinstance(message, dict) or message.get("model") == SYNTHETIC:
            continue
        if isinstance(raw := message.get("usage"), dict):
            counts = _counts(number, raw, CLAUDE_COUNTS)
            key = message["id"] if isinstance(message.get("id"), str) else f"line {number}"
            before = messages.get(key, counts)  # a later block may carry the final output count
            messages[key] = {k: max(before[k], counts[k]) for k in CLAUDE_COUNTS}
    if result is not None:
        number, line = result
        totals = _counts(number, line["usage"], CLAUDE_COUNTS)
        cost = _cost(number, line, "total_cost_usd", "cost_usd")
    elif messages:
        totals = {k: sum(m[k] for m in messages.values()) for k in CLAUDE_COUNTS}
        cost = None
    else:
        return {}
    usage = {
        "input_tokens": totals["input_tokens"] + totals["cache_creation_input_tokens"]
        + totals["cache_read_input_tokens"],
        "output_tokens": totals["output_tokens"],
        "cost_usd": cost,
        "cache_creation_input_tokens": totals["cache_creation_input_tokens"],
        "cache_read_input_tokens": totals["cache_read_input_tokens"],
    }  # fmt: skip
    return {"usage": usage, **({"model_calls": len(messages)} if messages else {})}


def _codex_rollout(lines: list[Line]) -> dict[str, Any]:
    segments: list[dict[str, int]] = []  # each segment's latest total
    calls = 0
    for number, line in lines:
        payload = line.get("payload")
        if line.get("type") != "event_msg" or not isinstance(payload, dict):
            continue
        info = payload.get("info") if payload.get("type") == "token_count" else None
        total = info.get("total_token_usage") if isinstance(info, dict) else None
        if not isinstance(total, dict):
            continue
        counts = _counts(number, total, CODEX_COUNTS)
        if segments and counts == segments[-1]:
            continue  # the same total again (a rate-limit update): no new call
        if not segments or any(counts[k] < segments[-1][k] for k in CODEX_COUNTS):
            segments.append(counts)
        else:
            segments[-1] = counts
        calls += 1
    if not segments:
        return {}
    totals = {k: sum(s[k] for s in segments) for k in CODEX_COUNTS}
    return {"usage": _codex_block(totals), "model_calls": calls}


def _codex_exec(lines: list[Line]) -> dict[str, Any]:
    done = [(n, line.get("usage")) for n, line in lines if line.get("type") == "turn.completed"]
    last = [(n, usage) for n, usage in done if isinstance(usage, dict)]
    if not last:
        return {}
    number, raw = last[-1]
    return {"usage": _codex_block(_counts(number, raw, CODEX_COUNTS))}


def _goose_session(lines: list[Line]) -> dict[str, Any]:
    [(number, header)] = lines
    accumulated = tuple(f"accumulated_{k}" for k in GOOSE_COUNTS)
    names = accumulated if any(header.get(k) is not None for k in accumulated) else GOOSE_COUNTS
    given = tuple(name for name in names if header.get(name) is not None)
    if not given:
        return {}
    counts = _counts(number, header, given)
    usage = {key: counts[name] for key, name in zip(GOOSE_COUNTS, names, strict=True)
             if name in counts}  # fmt: skip
    return {"usage": {**usage, "cost_usd": None}}


def _codex_block(totals: Mapping[str, int]) -> dict[str, Any]:
    return {"input_tokens": totals["input_tokens"], "output_tokens": totals["output_tokens"],
            "cost_usd": None, "cached_input_tokens": totals["cached_input_tokens"],
            "reasoning_output_tokens": totals["reasoning_output_tokens"]}  # fmt: skip


def _counts(line: int, raw: Mapping[str, Any], keys: tuple[str, ...]) -> dict[str, int]:
    """The token counts named ``keys`` (absent or null: 0); `BadUsage` for any other value
    that is not a non-negative 64-bit integer."""
    counts = {}
    for key in keys:
        value = raw.get(key)
        if value is None:
            value = 0
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
            raise BadUsage(line, f"usage.{key}: not a token count: {value!r:.40}")
        counts[key] = value
    return counts


def _cost(line: int, raw: Mapping[str, Any], *keys: str) -> float | None:
    """The first of ``keys`` present, in US dollars; None when none is."""
    for key in keys:
        value = raw.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise BadUsage(line, f"{key}: not a cost: {value!r:.40}")
        if not math.isfinite(value) or value < 0:
            raise BadUsage(line, f"{key}: not a cost: {value!r:.40}")
        return float(value)
    return None
