"""What one shell command changed in the workspace, as replayable file steps.

`replay` applies file edits and never re-runs a command, so a trajectory that only
said ``shell: python fix.py`` would replay to an untouched workspace. After each shell
call the loop therefore compares a stat snapshot of the tree (taken before the command)
with one taken after, reads only the files whose size, mtime or inode moved, and
records each as a ``write_file`` (its new content) or ``delete_file`` step.

The tree is read as the checks read it (`read_tree`): caches and harness directories
are left out, a directory link is never followed, a file link counts as its target's
content when that is a regular file inside the workspace. A file that cannot be
recorded faithfully (not UTF-8 text, or over `RECORD_BYTES`) becomes a
``file_unrecorded`` step, which replay reports as an error instead of silently
producing a different tree. Every process of the command has ended when the after
snapshot is taken (the sandbox ends them with the command), so nothing races it.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchwright.workspace import HARNESS_DIRS, UNCOPIED_DIRS, read_inside

RECORD_BYTES = 2 * 1024 * 1024
"""Largest file content one step records; past it the step says it was not recorded."""
RECORD_FILES = 2_000
"""Files one command's changes record; past it one step says how many were left out."""
RECORD_PHASE_BYTES = 256 * 1024 * 1024
"""File content one phase records in all (a model rewriting a large file in a loop must
not grow the trajectory without bound); past it, changed files are unrecorded steps."""


class TooManyEntries(Exception):
    """The tree holds more entries than the workspace may (`WorkspaceCaps.files`)."""


Stamp = tuple[int, int, int, int]
"""(kind, size, mtime_ns, inode) as ``lstat`` gives them. Not ``ctime``: the sandbox hands
the whole tree to its uid before each command, which moves every file's ctime. A command
that writes a file and then restores its size and mtime hides that write from the replay
(never from the grade, which judges the disk)."""


def snapshot(root: Path, max_entries: int) -> dict[str, Stamp]:
    """Every entry under ``root`` but caches and harness dirs, by relative path.

    Raises:
        TooManyEntries: past ``max_entries`` (the walk stops there: its cost is bounded).
    """
    found: dict[str, Stamp] = {}
    for path, stamp in _walk(root):
        found[path] = stamp
        if len(found) > max_entries:
            raise TooManyEntries(path)
    return found


def _walk(root: Path) -> Iterator[tuple[str, Stamp]]:
    skip = UNCOPIED_DIRS | HARNESS_DIRS
    pending = [""]
    while pending:
        rel = pending.pop()
        try:
            entries = list(os.scandir(root / rel if rel else root))
        except OSError:  # a directory the agent made unreadable holds nothing the checks read
            continue
        for entry in entries:
            path = f"{rel}/{entry.name}" if rel else entry.name
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISDIR(info.st_mode):
                if entry.name not in skip:
                    pending.append(path)
                continue
            kind = stat.S_IFMT(info.st_mode)
            yield path, (kind, info.st_size, info.st_mtime_ns, info.st_ino)


def changed_steps(
    root: Path, before: dict[str, Stamp], after: dict[str, Stamp], allowance: int
) -> tuple[list[dict[str, Any]], int]:
    """File steps that turn the ``before`` tree into the ``after`` one, paths in order, and
    the content bytes they hold (at most ``allowance``: past it, files are unrecorded)."""
    steps: list[dict[str, Any]] = []
    used = 0
    changed = sorted(p for p, s in after.items() if before.get(p) != s)
    for path in changed[:RECORD_FILES]:
        written = _written(root, path, after[path][0], allowance - used)
        used += sum(len(s["args"].get("content", "").encode()) for s in written)
        steps.extend(written)
    if len(changed) > RECORD_FILES:
        left = len(changed) - RECORD_FILES
        steps.append(_unrecorded(changed[RECORD_FILES], f"{left} more changed files not recorded"))
    steps += [{"type": "file_delete", "tool": "delete_file", "args": {"path": p}, "by": "shell"}
              for p in sorted(before.keys() - after.keys())]  # fmt: skip
    return steps, used


def _written(root: Path, path: str, kind: int, allowance: int) -> list[dict[str, Any]]:
    if kind == stat.S_IFLNK:
        target = _link_target(root, path)
        if target is None:  # leads outside, dangles, or to a non-file: the checks skip it too
            return []
        path_read = target
    elif kind == stat.S_IFREG:
        path_read = path
    else:  # a FIFO, socket or device: nothing the checks read
        return []
    limit = min(RECORD_BYTES, allowance)
    data = read_inside(root, path_read, limit + 1)
    if data is None:
        return []
    if len(data) > limit:
        full = limit == RECORD_BYTES
        return [_unrecorded(path, f"over {RECORD_BYTES} bytes" if full else "phase quota spent")]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return [_unrecorded(path, f"not UTF-8 text ({len(data)} bytes)")]
    return [{"type": "file_edit", "tool": "write_file", "args": {"path": path, "content": text},
             "by": "shell"}]  # fmt: skip


def _link_target(root: Path, path: str) -> str | None:
    """The workspace-relative regular file a link resolves to, if it stays inside."""
    real_root = root.resolve()
    target = (root / path).resolve()
    if not target.is_relative_to(real_root) or not target.is_file():
        return None
    return target.relative_to(real_root).as_posix()


def _unrecorded(path: str, why: str) -> dict[str, Any]:
    return {"type": "file_unrecorded", "tool": "unrecorded_write", "args": {"path": path},
            "reason": why, "by": "shell"}  # fmt: skip
