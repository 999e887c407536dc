"""The graded tree: where its suite's package is, a fresh copy of it, and its digest."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from benchwright.errors import SpecError

_NOISE = ("__pycache__", "*.pyc", "*.db", "*.db-wal", "*.db-shm", ".git", "node_modules")
GRADER_OUTPUT = "-reference-pass.json"
"""The freeze marker ``--reference`` writes into the tree's root: the grader's output, so
never part of the tree's digest (re-grading a frozen reference gives the same sha256)."""


def locate_root(tree: Path, package: str) -> Path:
    """The directory holding ``<package>/`` (the app's package, as the spec names it): the
    tree itself, or one child level down.

    Raises:
        SpecError: the tree does not exist.
    """
    tree = Path(tree)
    if not tree.is_dir():
        raise SpecError.single(str(tree), "is not a directory (--tree must be the built tree)")
    if (tree / package).is_dir():
        return tree
    nested = sorted(p for p in tree.iterdir() if p.is_dir() and (p / package).is_dir())
    return nested[0] if len(nested) == 1 else tree


def tree_sha256(root: Path) -> str:
    """sha256 over every file (sorted relative path, NUL, bytes, NUL), noise and the
    freeze marker excluded."""
    digest = hashlib.sha256()
    for path in sorted(_files(root)):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def fresh_copy(root: Path, into: Path) -> Path:
    """Copy ``root`` (without caches and databases) to ``into/tree``; the app runs there."""
    target = into / "tree"
    shutil.copytree(root, target, ignore=shutil.ignore_patterns(*_NOISE), symlinks=True)
    return target


def _files(root: Path) -> list[Path]:
    found = []
    for path in root.rglob("*"):
        parts = path.relative_to(root).parts
        if any(part in ("__pycache__", ".git", "node_modules") for part in parts):
            continue
        if not path.is_file() or path.name.endswith((".pyc", ".db", ".db-wal", ".db-shm")):
            continue
        if not (path.parent == root and path.name.endswith(GRADER_OUTPUT)):
            found.append(path)
    return found
