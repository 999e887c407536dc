"""What every transcript converter shares: reading JSONL, shaping steps, rebasing paths.

Converters raise `LineError` with the transcript line at fault; `import_transcript`
turns it into a `SpecError` naming the file, so converters never need the file name.
"""

from __future__ import annotations

import json
import posixpath
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Line = tuple[int, dict[str, Any]]
"""A transcript line: its 1-based number and its JSON object."""

ERROR_CHARS = 200


class LineError(Exception):
    """A transcript line that cannot be converted; ``line`` is None for the whole file."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


class UnreadableArguments(LineError):
    """A tool call whose arguments cannot be decoded (a redacted or truncated JSON string).

    Fatal by default; under ``--lenient`` the converter keeps the call as an opaque step
    (`Converted.opaque`) instead.
    """


@dataclass
class Converted:
    """Steps in order, each with the transcript line it came from."""

    steps: list[dict[str, Any]] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    answer: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    dropped: dict[str, int] = field(default_factory=dict)
    """Tool calls left out on purpose (read-only or bookkeeping), counted by tool name."""
    warnings: list[str] = field(default_factory=list)
    """What a lenient conversion kept without understanding, one line each."""

    def add(self, line: int, step: dict[str, Any]) -> None:
        self.steps.append(step)
        self.lines.append(line)

    def opaque(self, error: UnreadableArguments, agent_tool: str, raw: object) -> None:
        """Keep a call whose arguments are unreadable: never replayed, still scanned.

        The raw arguments stay in the step, so ``no_network`` still sees a URL in them.
        """
        line = error.line or 0
        step = {"type": "opaque_tool_call", "tool": f"opaque:{agent_tool}",
                "agent_tool": agent_tool, "args": {"raw": raw}, "error": error.message}  # fmt: skip
        self.add(line, step)
        self.warnings.append(f"line {line}: {error.message}: kept as an opaque step")

    def drop(self, tool: str) -> None:
        self.dropped[tool] = self.dropped.get(tool, 0) + 1


def read_text(source: Path) -> str:
    """The transcript's text; a missing or undecodable file is a `LineError`."""
    try:
        return source.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LineError(None, "file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LineError(None, f"cannot read: {exc}") from None


def parse_jsonl(text: str) -> list[Line]:
    """Every non-blank line of ``text`` as a JSON object.

    Splits on ``\\n`` only: JSON strings may hold raw U+2028 and similar
    separators, which `str.splitlines` would wrongly break on.
    """
    lines: list[Line] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip():
            continue
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise LineError(number, f"invalid JSON at column {exc.colno}: {exc.msg}") from None
        if not isinstance(value, dict):
            raise LineError(number, f"a transcript line holds an object, not {_kind(value)}")
        lines.append((number, value))
    if not lines:
        raise LineError(None, "empty transcript: no JSON lines")
    return lines


def tool_step(tool: str, agent_tool: str, args: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A step in the shape the trajectory normalization reads."""
    return {"type": "tool_call", "tool": tool, "agent_tool": agent_tool, "args": args, **extra}


def failed_step(agent_tool: str, args: dict[str, Any], error: str) -> dict[str, Any]:
    """A file operation the agent's tool refused: kept for audit and network scans, never replayed.

    Its ``tool`` is deliberately outside the normalization's vocabulary, so replay
    does not apply a change that never happened (a retried edit would otherwise
    fail replay, or a refused write would land).
    """
    first = error.strip().split("\n", 1)[0][:ERROR_CHARS]
    return {
        "type": "failed_tool_call",
        "tool": f"failed:{agent_tool}",
        "agent_tool": agent_tool,
        "args": args,
        "error": first,
    }


def rebase(raw: str, root: str | None, base: str | None = None) -> str:
    """``raw`` relative to the workspace ``root`` when inside it; absolute otherwise.

    A relative ``raw`` is first resolved against ``base`` (the directory the
    tool ran in). A path outside ``root`` stays absolute so that replay refuses
    it instead of writing somewhere the agent did not.
    """
    path = posixpath.join(base, raw) if base else raw
    if not root or not posixpath.isabs(path):
        return path
    rel = posixpath.relpath(posixpath.normpath(path), posixpath.normpath(root))
    if rel == ".." or rel.startswith("../"):
        return posixpath.normpath(path)
    return rel


def decode_args(line: int, raw: object, what: str) -> dict[str, Any]:
    """Tool arguments as an object; a JSON string (OpenAI style) is decoded first."""
    if raw is None:
        return {}
    if isinstance(raw, str):
        try:
            raw = json.loads(raw) if raw.strip() else {}
        except json.JSONDecodeError as exc:
            raise UnreadableArguments(line, f"{what}: invalid JSON string: {exc.msg}") from None
    if not isinstance(raw, dict):
        raise LineError(line, f"{what}: must be an object, not {_kind(raw)}")
    return raw


def text_of(content: object) -> str:
    """The text of a string or of a list of ``{"type": ..., "text": ...}`` blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [b.get("text") for b in content if isinstance(b, dict)]
        return "\n".join(p for p in parts if isinstance(p, str))
    return ""


def _kind(value: object) -> str:
    return {list: "an array", str: "a string", type(None): "null"}.get(
        type(value), type(value).__name__
    )
