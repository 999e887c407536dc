"""Stamp hidden oracle files and the captured answer into a workspace, after the agent.

Stamped files go to disk only: the in-memory view static checks read stays the
agent's own files (see `Workspace.refresh`), and the ``agent`` snapshot was
taken before, so negative greps over it never see them.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path

from benchwright.errors import HarnessError

ANSWER_PATH = ".benchwright/answer.txt"


def stamp(directory: Path, files: Mapping[str, bytes], answer: str) -> None:
    """Write ``files`` (replacing what the agent left there) and the answer file."""
    root = directory.resolve()
    try:
        for rel, data in {**files, ANSWER_PATH: answer.encode("utf-8")}.items():
            target = directory / rel
            if target.is_symlink() or target.is_dir():
                _remove(target)
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.parent.resolve().is_relative_to(root):
                raise HarnessError(f"stamp: {rel} would leave the workspace through a symlink")
            target.write_bytes(data)
    except OSError as exc:
        raise HarnessError(f"stamp: cannot write {exc.filename}: {exc.strerror}") from exc


def _remove(target: Path) -> None:
    """An agent's symlink or directory at a stamp path must not redirect the write."""
    if target.is_symlink() or target.is_file():
        target.unlink()
    else:
        shutil.rmtree(target)
