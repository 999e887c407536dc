"""The Codex ``apply_patch`` format, parsed into file operations.

::

    *** Begin Patch
    *** Add File: path          then lines prefixed with "+"
    *** Delete File: path
    *** Update File: path       then an optional "*** Move to: new/path", then hunks:
    @@ optional context header  lines prefixed " " (context), "-" (removed), "+" (added)
    *** End Patch

Codex matches a hunk's context and removed lines against whole lines of the
current file; replay matches strings. Each hunk therefore becomes one
replacement of those lines joined by newlines, which finds the same place
whenever the lines occur once in the file. The ``@@`` header (which Codex uses
to choose between repeated occurrences) is not expressible and is ignored, so a
repeated hunk fails replay as ambiguous rather than editing the wrong place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from benchwright.agents.transcripts._common import tool_step

BEGIN, END, END_OF_FILE = "*** Begin Patch", "*** End Patch", "*** End of File"
ADD, DELETE = "*** Add File: ", "*** Delete File: "
UPDATE, MOVE = "*** Update File: ", "*** Move to: "


class PatchError(ValueError):
    """A patch that does not follow the format; the message names the patch line."""


@dataclass(frozen=True, slots=True)
class PatchOp:
    """One file's part of a patch."""

    kind: Literal["add", "delete", "update"]
    path: str
    content: str = ""
    """The whole new file, for ``add``."""
    hunks: tuple[tuple[str, str], ...] = ()
    """(old, new) text per hunk, for ``update``."""
    move_to: str | None = None


def parse_patch(text: str) -> list[PatchOp]:
    """Every file operation of a patch, in order; `PatchError` on a malformed one."""
    lines = [line.removesuffix("\r") for line in text.strip().split("\n")]
    if lines[0].strip() != BEGIN:
        raise PatchError(f"patch line 1: expected {BEGIN!r}")
    if lines[-1].strip() != END:
        raise PatchError(f"patch line {len(lines)}: expected {END!r}")
    ops: list[PatchOp] = []
    n = 1
    while n < len(lines) - 1:
        header, end = lines[n], _next_header(lines, n + 1)
        body, path = lines[n + 1 : end], header.partition(": ")[2].strip()
        if header.startswith(ADD):
            if any(not line.startswith("+") for line in body):
                raise PatchError(f"patch line {n + 1}: every line of an added file starts with +")
            ops.append(PatchOp("add", path, "".join(f"{line[1:]}\n" for line in body)))
        elif header.startswith(DELETE):
            if body:
                raise PatchError(f"patch line {n + 2}: Delete File takes no lines")
            ops.append(PatchOp("delete", path))
        elif header.startswith(UPDATE):
            move_to = body[0][len(MOVE) :].strip() if body and body[0].startswith(MOVE) else None
            hunks = _hunks(body[1:] if move_to else body, n + (3 if move_to else 2))
            if not hunks and move_to is None:
                raise PatchError(f"patch line {n + 1}: Update File without any hunk")
            ops.append(PatchOp("update", path, hunks=hunks, move_to=move_to))
        else:
            raise PatchError(f"patch line {n + 1}: unexpected {header[:60]!r}")
        n = end
    return ops


def _next_header(lines: list[str], start: int) -> int:
    """Index of the next file header (or of the End marker) at or after ``start``."""
    headers = (n for n in range(start, len(lines) - 1) if _is_header(lines[n]))
    return next(headers, len(lines) - 1)


def _is_header(line: str) -> bool:
    return line.startswith("*** ") and not line.startswith(MOVE) and line.strip() != END_OF_FILE


def _hunks(body: list[str], first_line: int) -> tuple[tuple[str, str], ...]:
    hunks: list[tuple[str, str]] = []
    old: list[str] = []
    new: list[str] = []
    for offset, line in enumerate(body):
        if line.startswith("@@") or line.strip() == END_OF_FILE:
            if old or new:
                hunks.append(_replacement(old, new))
            old, new = [], []
        elif line == "" or line[0] == " ":
            old.append(line[1:])
            new.append(line[1:])
        elif line[0] in "-+":
            (old if line[0] == "-" else new).append(line[1:])
        else:
            raise PatchError(f"patch line {first_line + offset}: unexpected {line[:60]!r}")
    if old or new:
        hunks.append(_replacement(old, new))
    return tuple(hunks)


def _replacement(old: list[str], new: list[str]) -> tuple[str, str]:
    """Lines joined so that replacing old by new changes exactly those lines.

    Joined without a final newline (the last line may lack one), except when
    every line goes: then the removed block takes its newline with it. A hunk
    with no old line (Codex appends it) gives an empty old text, which replay
    reports on an existing file instead of guessing.
    """
    if not new:
        return "\n".join(old) + "\n", ""
    return "\n".join(old), "\n".join(new)


def patch_steps(text: str, tool: str, locate: Callable[[str], str]) -> list[dict[str, Any]]:
    """Trajectory steps for a patch: Write, Edit, MultiEdit or ``delete_file`` per file.

    ``locate`` turns a patch path into a workspace path. ``*** Move to`` is a
    `PatchError`: trajectories have no rename, and the content to write at the
    new path is not in the patch.
    """
    steps: list[dict[str, Any]] = []
    for op in parse_patch(text):
        path = locate(op.path)
        if op.move_to is not None:
            raise PatchError(f"cannot import '{MOVE}{op.move_to}' (from {op.path}): no rename step")
        if op.kind == "add":
            steps.append(tool_step("Write", tool, {"file_path": path, "content": op.content}))
        elif op.kind == "delete":
            steps.append(tool_step("delete_file", tool, {"path": path}))
        else:
            edits = [{"old_string": old, "new_string": new} for old, new in op.hunks]
            one = len(edits) == 1
            args = {"file_path": path, **edits[0]} if one else {"file_path": path, "edits": edits}
            steps.append(tool_step("Edit" if one else "MultiEdit", tool, args))
    return steps
