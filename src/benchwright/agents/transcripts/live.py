"""Parse what a live agent printed into steps and a final answer.

The presets' CLIs stream JSON lines on stdout (Claude Code ``stream-json``,
``codex exec --json``, goose ``stream-json``); aider writes a chat-history
markdown file. Unlike `import_transcript`, a live run must never crash the
grader over a stray banner line: non-JSON lines are skipped and counted, and a
transcript that cannot be converted yields no steps and a ``parse_error``.
The files on disk, not these steps, are what the checks judge; the steps feed
``no_network`` and the audit trail.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchwright.agents.transcripts import _common as c
from benchwright.model import StepError, normalize_step


@dataclass(frozen=True)
class Parsed:
    steps: list[dict[str, Any]] = field(default_factory=list)
    answer: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


def json_lines(text: str) -> tuple[list[c.Line], int]:
    """The JSON-object lines of ``text`` (numbered from 1) and how many lines were not."""
    lines: list[c.Line] = []
    skipped = 0
    for number, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip():
            continue
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            skipped += 1
            continue
        if isinstance(value, dict):
            lines.append((number, value))
        else:
            skipped += 1
    return lines, skipped


def parse_json_stream(
    text: str, convert: Callable[[list[c.Line]], c.Converted], workspace: Path
) -> Parsed:
    """Convert a JSON-lines stream with one of the transcript converters."""
    lines, skipped = json_lines(text)
    meta: dict[str, Any] = {"skipped_lines": skipped} if skipped else {}
    if not lines:
        return Parsed(metadata={**meta, "parse_error": "no JSON lines on stdout"})
    try:
        converted = convert(lines)
    except c.LineError as exc:
        where = f"line {exc.line}: " if exc.line else ""
        return Parsed(metadata={**meta, "parse_error": f"{where}{exc.message}"})
    steps = [_rebased(step, str(workspace)) for step in converted.steps]
    return Parsed(safe_steps(steps), converted.answer, {**converted.metadata, **meta})


def _rebased(step: dict[str, Any], root: str) -> dict[str, Any]:
    """Absolute paths inside the workspace made relative, as replay and audits expect."""
    args = step.get("args")
    if not isinstance(args, dict):
        return step
    fixed = {
        k: c.rebase(v, root) if k in ("path", "file_path") and isinstance(v, str) else v
        for k, v in args.items()
    }
    return {**step, "args": fixed}


def safe_steps(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Steps whose normalization fails are kept, renamed out of the replay vocabulary."""
    safe = []
    for index, step in enumerate(steps):
        try:
            normalize_step(index, step)
            safe.append(step)
        except StepError as exc:
            tool = step.get("tool") or step.get("type")
            safe.append({**step, "tool": f"unreplayable:{tool}", "error": exc.message})
    return safe
