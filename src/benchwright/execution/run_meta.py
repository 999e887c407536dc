"""Run metadata measured, not typed: a trial's ``run`` block, and its totals over a run.

A trial's ``result.json`` carries a ``run`` block (docs/runs.md, "Run metadata") derived
from two sources: what the agent reported about itself (its trajectory metadata keys
`AGENT_KEYS`: the model id, token usage, model calls, tool steps, repair rounds, the
endpoints it used) and what the harness measured (``metadata["benchwright"]``: when the
agent started and finished, and its wall seconds). The block is sealed with the result,
``benchwright publish RUN_DIR/TRIAL`` posts it, and the run summary adds it up
(`usage_totals`).

The agent's part is agent-controlled (a command agent's transcript parser feeds it, and
the agent writes that transcript), so every value is checked for type and bounds before
it is kept: counts are non-negative integers up to the board's `COUNT_MAX`, a cost is a
finite number up to `COST_MAX`, a model id is a name the board accepts. A value that is
not is dropped, with a line in the block's ``dropped`` list saying which and why; it
never fails the trial or the summary. Endpoints are never stored as URLs (one could
carry a key): the block keeps their count (``nodes``) and a short digest of each
(``endpoint_ids``), so a run's totals count the endpoints that served it across trials.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from pydantic_core import PydanticCustomError

from benchwright.board import names
from benchwright.board.payload import COUNT_MAX

HARNESS_KEY = "benchwright"
"""The trajectory metadata key the harness owns (an agent's own is replaced)."""
AGENT_KEYS = ("model", "usage", "model_calls", "tool_steps", "repair_rounds", "endpoints")
COST_MAX = 1e9
"""The largest cost in USD kept (a billion dollars: anything above is not a real bill)."""
ENDPOINTS_MAX = 1024
"""Endpoints counted at most (a fleet of more is not a hobbyist's LAN)."""
URL_MAX = 2048
NOTE_MAX = 60
"""Characters of an offending value quoted in a ``dropped`` line."""
BLOCK_KEYS = (
    "model", "started_at", "finished_at", "wall_s", "engine_events", "model_calls",
    "tool_steps", "repair_rounds", "input_tokens", "output_tokens", "cost_usd", "nodes",
)  # fmt: skip
ENDPOINT_ID_CHARS = 16
"""Hex characters of an endpoint's sha256 kept to tell endpoints apart (never the URL)."""


class _Dropped(ValueError):
    """A value that is not kept, and why."""


def iso_utc(moment: datetime) -> str:
    """``2026-12-03T22:55:01.123456Z``: UTC, ISO 8601 with ``Z``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def harness_facts(started: datetime, finished: datetime, wall_s: float) -> dict[str, Any]:
    """What the harness measured of the agent: ``started_at``, ``finished_at``, ``wall_s``."""
    return {"started_at": iso_utc(started), "finished_at": iso_utc(finished),
            "wall_s": round(wall_s, 6)}  # fmt: skip


def run_block(metadata: Mapping[str, Any], steps: int) -> dict[str, Any]:
    """A trial's ``run`` block from its trajectory metadata and its number of steps.

    ``engine_events`` is ``model_calls + tool_steps`` (those of the two the agent reported),
    else ``steps``; ``nodes`` is the number of distinct endpoints when more than one served
    the trial, else 0. Unknown values are None; bogus ones are dropped with a note.
    """
    dropped: list[str] = []
    usage = _field(metadata, "usage", _mapping, dropped) or {}
    counts = {k: _field(metadata, k, _count, dropped)
              for k in ("model_calls", "tool_steps", "repair_rounds")}  # fmt: skip
    reported = [v for k, v in counts.items() if k != "repair_rounds" and v is not None]
    endpoints = _field(metadata, "endpoints", _endpoints, dropped) or set()
    facts = metadata.get(HARNESS_KEY)
    facts = facts if isinstance(facts, Mapping) else {}
    block = {
        "model": _field(metadata, "model", _model, dropped),
        "started_at": _field(facts, "started_at", _timestamp, dropped),
        "finished_at": _field(facts, "finished_at", _timestamp, dropped),
        "wall_s": _field(facts, "wall_s", _seconds, dropped),
        "engine_events": min(sum(reported), COUNT_MAX) if reported else steps,
        **counts,
        "input_tokens": _field(usage, "input_tokens", _count, dropped, "usage."),
        "output_tokens": _field(usage, "output_tokens", _count, dropped, "usage."),
        "cost_usd": _field(usage, "cost_usd", _cost, dropped, "usage."),
        "nodes": len(endpoints) if len(endpoints) > 1 else 0,
        "endpoint_ids": sorted(_endpoint_id(url) for url in endpoints),
    }
    return {**block, "dropped": dropped} if dropped else block


def _endpoint_id(url: str) -> str:
    return hashlib.sha256(url.encode()).hexdigest()[:ENDPOINT_ID_CHARS]


def read_block(raw: Any) -> dict[str, Any] | None:
    """A ``run`` block read back from ``result.json``, each value checked again (an unverified
    run's file is whatever someone wrote); None when there is none (a result from before)."""
    if not isinstance(raw, Mapping):
        return None
    dropped: list[str] = []
    checks = {"model": _model, "started_at": _timestamp, "finished_at": _timestamp,
              "wall_s": _seconds, "cost_usd": _cost}  # fmt: skip
    block = {k: _field(raw, k, checks.get(k, _count), dropped) for k in BLOCK_KEYS}
    block["endpoint_ids"] = _field(raw, "endpoint_ids", _endpoint_ids, dropped) or []
    notes = raw.get("dropped")
    kept = [str(n)[:200] for n in notes[:50]] if isinstance(notes, list) else []
    return {**block, "dropped": kept + dropped} if kept or dropped else block


def _field(
    source: Mapping[str, Any], key: str, check: Any, dropped: list[str], prefix: str = ""
) -> Any:
    value = source.get(key)
    if value is None:
        return None
    try:
        return check(value)
    except _Dropped as why:
        dropped.append(f"{prefix}{key}: {_quoted(value)} dropped ({why})")
        return None


def _quoted(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= NOTE_MAX else text[: NOTE_MAX - 3] + "..."


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Dropped(f"not an integer but {type(value).__name__}")
    if not 0 <= value <= COUNT_MAX:
        raise _Dropped(f"outside [0, {COUNT_MAX}]")
    return value


def _number(value: Any, top: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Dropped(f"not a number but {type(value).__name__}")
    if not math.isfinite(value) or not 0 <= value <= top:
        raise _Dropped(f"outside [0, {top:g}]")
    return float(value)


def _cost(value: Any) -> float:
    return round(_number(value, COST_MAX), 6)


def _seconds(value: Any) -> float:
    return _number(value, float(COUNT_MAX))


def _model(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _Dropped("not a model id")
    try:
        return names.model_name(value)
    except PydanticCustomError as exc:
        raise _Dropped(exc.message()) from None


def _timestamp(value: Any) -> str:
    if not isinstance(value, str) or not value.endswith("Z") or len(value) > 40:
        raise _Dropped("not a UTC ISO 8601 time ending in Z")
    try:
        return iso_utc(datetime.fromisoformat(value))
    except ValueError:
        raise _Dropped("not a UTC ISO 8601 time ending in Z") from None


def _mapping(value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _Dropped(f"not an object but {type(value).__name__}")
    return value


def _endpoints(value: Any) -> set[str]:
    if not isinstance(value, list) or len(value) > ENDPOINTS_MAX:
        raise _Dropped(f"not a list of at most {ENDPOINTS_MAX} URLs")
    if not all(isinstance(v, str) and 0 < len(v) <= URL_MAX and v.isprintable() for v in value):
        raise _Dropped(f"not a list of printable URLs of at most {URL_MAX} characters")
    return {v.rstrip("/") for v in value}


def _endpoint_ids(value: Any) -> list[str]:
    digits = set("0123456789abcdef")
    if (
        not isinstance(value, list)
        or len(value) > ENDPOINTS_MAX
        or not all(
            isinstance(v, str) and len(v) == ENDPOINT_ID_CHARS and set(v) <= digits for v in value
        )
    ):
        raise _Dropped(f"not a list of at most {ENDPOINTS_MAX} endpoint digests")
    return sorted(set(value))


def usage_totals(blocks: Iterable[Mapping[str, Any] | None]) -> dict[str, Any]:
    """The sums over trials' ``run`` blocks (a run's, a class's): ``trials`` with a block,
    ``models`` (distinct), token and model-call sums (None when no trial reported any),
    ``cost_usd`` (None unless every trial that reported tokens also had a price: a partial
    sum would read as the whole bill), ``engine_events``, ``wall_s``, and ``nodes``: the
    distinct endpoints that served any of them when more than one (a fleet), else the
    most any trial used (a block from before ``endpoint_ids``)."""
    found = [b for b in blocks if b]
    with_tokens = [b for b in found if b.get("input_tokens") is not None]
    costs = [b.get("cost_usd") for b in with_tokens]
    priced = bool(with_tokens) and all(c is not None for c in costs)
    return {
        "trials": len(found),
        "models": sorted({str(b["model"]) for b in found if b.get("model")}),
        "input_tokens": _sum(found, "input_tokens"),
        "output_tokens": _sum(found, "output_tokens"),
        "cost_usd": round(sum(c for c in costs if c is not None), 6) if priced else None,
        "model_calls": _sum(found, "model_calls"),
        "engine_events": _sum(found, "engine_events"),
        "wall_s": round(sum(b.get("wall_s") or 0.0 for b in found), 6),
        "nodes": _nodes(found),
    }


def _nodes(blocks: list[Mapping[str, Any]]) -> int:
    served = {i for b in blocks if isinstance(b.get("endpoint_ids"), list)
              for i in b["endpoint_ids"]}  # fmt: skip
    most = max((b.get("nodes") or 0 for b in blocks), default=0)
    return max(len(served) if len(served) > 1 else 0, most)


def _sum(blocks: list[Mapping[str, Any]], key: str) -> int | None:
    known = [b[key] for b in blocks if isinstance(b.get(key), int)]
    return sum(known) if known else None


DELTA_KEYS = ("input_tokens", "output_tokens", "cost_usd", "model_calls", "engine_events",
              "wall_s")  # fmt: skip


def usage_deltas(a: Mapping[str, Any] | None, b: Mapping[str, Any] | None) -> dict[str, Any]:
    """``{key: {"a", "b", "delta"}}`` of two runs' totals (None where either is unknown: a
    summary written before runs carried totals has none)."""
    out = {}
    a, b = _as_mapping(a), _as_mapping(b)
    for key in DELTA_KEYS:
        x, y = a.get(key), b.get(key)
        delta = None if not _is_number(x) or not _is_number(y) else round(y - x, 6)
        out[key] = {"a": x, "b": y, "delta": delta}
    return out


def _as_mapping(value: Any) -> Mapping[str, Any]:
    """``value`` when it is a mapping, else empty (an unverified summary holds anything)."""
    return value if isinstance(value, Mapping) else {}


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def usage_fields(usage: Mapping[str, Any] | None) -> dict[str, str]:
    """Totals or one trial's block as labelled, formatted figures (every display uses
    these): model, tokens, cost (``tokens only`` when no price is known), model calls,
    engine events, wall, nodes; ``-`` for what was not recorded."""
    usage = _as_mapping(usage)
    models = usage.get("models")
    model = ", ".join(map(str, models)) if isinstance(models, list) else usage.get("model")
    tokens_in, tokens_out = usage.get("input_tokens"), usage.get("output_tokens")
    tokens = "-"
    if _is_number(tokens_in) or _is_number(tokens_out):
        tokens = f"{_n(tokens_in)} in / {_n(tokens_out)} out"
    cost = usage.get("cost_usd")
    wall = usage.get("wall_s")
    nodes = usage.get("nodes") or 0
    return {
        "model": str(model or "-"),
        "tokens": tokens,
        "cost": f"${cost:.4f}" if _is_number(cost) else ("tokens only" if tokens != "-" else "-"),
        "model calls": _n(usage.get("model_calls")),
        "engine events": _n(usage.get("engine_events")),
        "wall": f"{wall:.1f} s" if _is_number(wall) else "-",
        "nodes": str(nodes) if nodes else "0 (single endpoint)",
    }


def usage_line(usage: Mapping[str, Any] | None) -> str:
    """`usage_fields` on one line: ``model gpt-4o; tokens 10 in / 5 out; cost tokens only; …``."""
    return "; ".join(f"{k} {v}" for k, v in usage_fields(usage).items())


def _n(value: Any) -> str:
    return "-" if value is None else f"{value:,}" if _is_number(value) else "-"
