"""Convert real agent transcripts into benchwright trajectories.

``benchwright trajectory import --from <format>`` calls `import_transcript`. Each
format is one module turning transcript lines into steps in the vocabulary of
`benchwright.model.Trajectory` (Write, Edit, MultiEdit, delete_file, Bash, shell);
this module reads the file, validates every step against that normalization,
and writes the trajectory, so an import that succeeds is one ``run`` can replay.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchwright.agents.transcripts import claude_code, codex, jsonl
from benchwright.agents.transcripts._common import Converted, Line, LineError, read_jsonl
from benchwright.errors import SpecError
from benchwright.model import step_errors

FORMATS = ("claude-code", "codex", "jsonl")
_CONVERTERS: dict[str, Callable[[list[Line]], Converted]] = {
    "claude-code": claude_code.convert,
    "codex": codex.convert,
    "jsonl": jsonl.convert,
}


def import_transcript(fmt: str, source: Path, out: Path) -> dict[str, Any]:
    """Convert the transcript ``source`` and write the trajectory JSON to ``out``.

    Args:
        fmt: One of `FORMATS`.
        source: The transcript, one JSON object per line.
        out: Where to write the trajectory (a ``.json`` file; parents are created).

    Returns:
        The trajectory document as written: ``metadata`` (with ``source_format`` and
        ``imported_from``), ``steps`` and, when the agent gave one, ``answer``.

    Raises:
        SpecError: An unknown format, a ``out`` that is not ``.json``, or a transcript
            that is missing, unreadable, or has a line that cannot be converted
            (named as ``line N``).

    Examples:
        ``import_transcript("codex", Path("rollout.jsonl"), Path("trajectories/t1.json"))``
    """
    where = str(source)
    convert = _CONVERTERS.get(fmt)
    if convert is None:
        known = ", ".join(FORMATS)
        raise SpecError.single(
            where, f"unknown transcript format {fmt!r}. Known: {known}", "format"
        )
    if out.suffix.lower() != ".json":
        raise SpecError.single(str(out), "a trajectory is written as JSON: name it *.json")
    try:
        converted = convert(read_jsonl(source))
    except LineError as exc:
        raise SpecError(where, [(f"line {exc.line}" if exc.line else "", exc.message)]) from None
    if problems := _step_problems(converted):
        raise SpecError(where, problems)
    document: dict[str, Any] = {
        "metadata": {**converted.metadata, "source_format": fmt, "imported_from": where},
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


def _step_problems(converted: Converted) -> list[tuple[str, str]]:
    """Every step that does not normalize, named by the transcript line it came from."""
    lines = converted.lines
    return [
        (f"line {lines[e.index]}", f"{e.field_path}: {e.message}")
        for e in step_errors(converted.steps)
    ]


__all__ = ["FORMATS", "import_transcript"]
