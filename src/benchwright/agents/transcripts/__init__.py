"""Convert real agent transcripts into benchwright trajectories.

``benchwright trajectory import --from <format>`` calls `import_transcript`. Each
format is one module turning transcript lines into steps in the vocabulary of
`benchwright.model.Trajectory` (Write, Edit, MultiEdit, delete_file, Bash, shell);
this module reads the file, validates every step against that normalization,
and writes the trajectory, so an import that succeeds is one ``run`` can replay.
aider and goose reuse the parsers of their agent presets. ``auto`` (the default)
reads the format off the content (`detect`); a format that does not fit the file
is told which one does.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any

from benchwright.agents.transcripts import aider, claude_code, codex, goose, jsonl
from benchwright.agents.transcripts._common import (
    Converted,
    LineError,
    UnreadableArguments,
    parse_jsonl,
    read_text,
)
from benchwright.agents.transcripts.detect import detect_format, hint
from benchwright.errors import SpecError
from benchwright.model import step_errors

FORMATS = ("auto", "claude-code", "codex", "goose", "aider", "jsonl")
LENIENT_FORMATS = frozenset({"codex", "jsonl"})
"""Formats whose tool arguments arrive as JSON strings that may be unreadable."""
Warn = Callable[[str], None]


def _converter(fmt: str, lenient: bool) -> Callable[[str], Converted]:
    """Transcript text -> steps for ``fmt`` (aider's history is markdown, the rest JSONL)."""
    if fmt == "aider":
        return aider.convert_text
    by_lines: dict[str, Callable[..., Converted]] = {
        "claude-code": claude_code.convert,
        "codex": partial(codex.convert, lenient=lenient),
        "goose": goose.convert,
        "jsonl": partial(jsonl.convert, lenient=lenient),
    }
    return lambda text: by_lines[fmt](parse_jsonl(text))


def import_transcript(
    fmt: str,
    source: Path,
    out: Path,
    *,
    lenient: bool = False,
    warn: Warn | None = None,
    labels: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Convert the transcript ``source`` and write the trajectory JSON to ``out``.

    Args:
        fmt: One of `FORMATS`; ``auto`` detects it from the content.
        source: The transcript (JSON lines; aider: its chat-history markdown).
        out: Where to write the trajectory (a ``.json`` file; parents are created).
        lenient: Keep a call with unreadable arguments as an opaque step (codex, jsonl).
        warn: Called with each warning: opaque steps, an import without a tool step.
        labels: ``agent``/``model``/``source`` given by the user (AgentBench's
            ``record_trajectory`` flags); they win over what the transcript says.

    Returns:
        The trajectory document as written: ``metadata`` (with ``source_format`` and
        ``imported_from``), ``steps`` and, when the agent gave one, ``answer``.

    Raises:
        SpecError: An unknown format, a ``out`` that is not ``.json``, or a transcript
            that is missing, unreadable, or has a line that cannot be converted
            (named as ``line N``, with the format the content looks like).

    Examples:
        ``import_transcript("codex", Path("rollout.jsonl"), Path("trajectories/t1.json"))``
    """
    where = str(source)
    if fmt not in FORMATS:
        known = ", ".join(FORMATS)
        raise SpecError.single(
            where, f"unknown transcript format {fmt!r}. Known: {known}", "format"
        )
    if out.suffix.lower() != ".json":
        raise SpecError.single(str(out), "a trajectory is written as JSON: name it *.json")
    text = _read(where, source)
    if fmt == "auto":
        fmt = detect_format(text) or "jsonl"
    try:
        converted = _converter(fmt, lenient)(text)
    except LineError as exc:
        at = f"line {exc.line}" if exc.line else ""
        unreadable = isinstance(exc, UnreadableArguments) and fmt in LENIENT_FORMATS
        more = " (--lenient keeps it as an opaque step)" if unreadable else hint(fmt, text)
        raise SpecError(where, [(at, exc.message + more)]) from None
    if problems := _step_problems(converted):
        raise SpecError(where, problems)
    _warn(warn, where, fmt, text, converted)
    document: dict[str, Any] = {
        "metadata": {
            **converted.metadata,
            "source_format": fmt,
            "imported_from": where,
            **(labels or {}),
        },
        "steps": converted.steps,
    }
    if converted.answer is not None:
        document["answer"] = converted.answer
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as exc:
        raise SpecError.single(str(out), f"cannot write the trajectory: {exc}") from None
    return document


def _read(where: str, source: Path) -> str:
    try:
        return read_text(source)
    except LineError as exc:
        raise SpecError.single(where, exc.message) from None


def _warn(warn: Warn | None, where: str, fmt: str, text: str, converted: Converted) -> None:
    """Opaque steps, and an import with no tool step (the wrong ``--from`` looks like this)."""
    if warn is None:
        return
    for warning in converted.warnings:
        warn(f"{where}: {warning}")
    if not any(step.get("tool") for step in converted.steps):
        n = len(converted.steps)
        warn(f"{where}: no tool step among {n} step(s) read as {fmt}{hint(fmt, text)}")


def _step_problems(converted: Converted) -> list[tuple[str, str]]:
    """Every step that does not normalize, named by the transcript line it came from."""
    lines = converted.lines
    return [
        (f"line {lines[e.index]}", f"{e.field_path}: {e.message}")
        for e in step_errors(converted.steps)
    ]


__all__ = ["FORMATS", "detect_format", "import_transcript"]
