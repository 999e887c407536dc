"""A fresh copy of the workspace for one check command, beside harness-only directories.

Each command gets its own copy, so its side effects (or an agent module's writes at
import) never reach another check or the agent's tree. The copy leaves out bytecode
(``__pycache__/``, ``*.pyc``: a planted ``.pyc`` can stand in for an unchanged ``.py``)
and anything that is not a file, directory or symlink (a FIFO would hang the copy).
The harness directories sit beside the copy, never inside it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

BYTECODE_DIRS = frozenset({"__pycache__"})
BYTECODE_SUFFIXES = (".pyc", ".pyo")


@dataclass(frozen=True, slots=True)
class Workdir:
    """Where one check command runs (``copy``) and what the harness keeps beside it."""

    root: Path
    left_out: list[str] = field(default_factory=list)
    """Workspace paths not copied (bytecode, special files), relative, sorted."""

    @property
    def copy(self) -> Path:
        """The command's working directory: the agent's tree with stamps, writable."""
        return self.root / "work"

    @property
    def site(self) -> Path:
        """Holds only the harness ``sitecustomize`` (read-only to the command)."""
        return self.root / "harness" / "site"

    @property
    def config(self) -> Path:
        """The checker's own pytest config, from the initial fixture (read-only)."""
        return self.root / "harness" / "config"

    @property
    def report(self) -> Path:
        """Where pytest writes its JUnit report: the only other writable place."""
        return self.root / "report"

    @property
    def home(self) -> Path:
        """HOME and TMPDIR when unconfined (the sandbox brings private ones)."""
        return self.root / "home"


@contextmanager
def workdir(source: Path) -> Iterator[Workdir]:
    """A private temp dir holding a copy of ``source``; removed on exit, whatever is in it."""
    root = Path(tempfile.mkdtemp(prefix="bw-check-"))
    try:
        made = Workdir(root)
        shutil.copytree(source, made.copy, symlinks=True, ignore=_leave_out(source, made))
        for path in (made.site, made.config, made.report, made.home):
            path.mkdir(parents=True)
        for path in (made.root / "harness", made.site, made.config):
            path.chmod(0o755)  # readable by the sandbox's unprivileged user, never writable
        made.left_out.sort()
        yield made
    finally:
        shutil.rmtree(root, onerror=_force)


def _leave_out(source: Path, made: Workdir) -> Callable[[str, list[str]], set[str]]:
    def ignore(directory: str, names: list[str]) -> set[str]:
        skipped = {name for name in names if _not_copied(os.path.join(directory, name))}
        rel = os.path.relpath(directory, source)
        made.left_out.extend(os.path.normpath(os.path.join(rel, n)) for n in skipped)
        return skipped

    return ignore


def _not_copied(path: str) -> bool:
    name = os.path.basename(path)
    if name in BYTECODE_DIRS or name.endswith(BYTECODE_SUFFIXES):
        return True
    mode = os.lstat(path).st_mode
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode))


def remove_conftests(copy: Path, owned: Collection[str]) -> list[str]:
    """Delete every ``conftest.py`` in ``copy`` whose path the task does not own.

    Returns the removed paths, relative and sorted, for the evidence.
    """
    removed = []
    for dirpath, _dirs, files in os.walk(copy):
        if "conftest.py" in files:
            path = Path(dirpath) / "conftest.py"
            rel = path.relative_to(copy).as_posix()
            if rel not in owned:
                path.unlink()
                removed.append(rel)
    return sorted(removed)


def _force(function: Callable[[str], object], path: str, _exc_info: object) -> None:
    """A command may leave read-only directories behind: open them up and retry."""
    with contextlib.suppress(OSError):
        os.chmod(os.path.dirname(path), stat.S_IRWXU)
        if os.path.isdir(path) and not os.path.islink(path):
            os.chmod(path, stat.S_IRWXU)
        function(path)
