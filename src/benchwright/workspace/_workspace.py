"""A task's workspace: the initial files, the agent's changes, and a directory on demand.

The state lives in memory so that static checks (regexes, protected files)
never touch the disk; the first check that needs a real directory (a test
command) materializes it. Reads always return the state the agent produced,
so a test command that writes caches cannot change what a later static check
sees.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from benchwright.errors import HarnessError

WORKSPACE_DIRNAME = "workspace"
INITIAL_DIRNAME = "initial"


class Workspace:
    """The files of one trial, before and after the agent."""

    def __init__(self, initial: Mapping[str, bytes], *, keep: bool = False) -> None:
        self.initial: Mapping[str, bytes] = initial
        self.files: dict[str, bytes] = dict(initial)
        self.keep = keep
        self._parent: Path | None = None

    # -- reading the agent's result -------------------------------------------------

    def read_bytes(self, path: str) -> bytes | None:
        return self.files.get(path)

    def read_text(self, path: str) -> str | None:
        """The file decoded as UTF-8 (undecodable bytes replaced), or None if absent."""
        data = self.files.get(path)
        return None if data is None else data.decode("utf-8", errors="replace")

    def exists(self, path: str) -> bool:
        return path in self.files

    def glob(self, pattern: str, *, initial: bool = False) -> list[str]:
        """Paths matching a glob, where ``**`` spans directories and ``*`` does not."""
        source = self.initial if initial else self.files
        return sorted(p for p in source if match_glob(p, pattern))

    def changed(self, path: str) -> bool:
        """True if ``path`` differs from the initial workspace (added, edited or deleted)."""
        return self.initial.get(path) != self.files.get(path)

    # -- the directory --------------------------------------------------------------

    @property
    def materialized(self) -> bool:
        return self._parent is not None

    def directory(self) -> Path:
        """The workspace as a real directory, written on first use.

        It sits one level below a private (0700) temporary parent, because some
        toolchains ignore project files directly under the temp root.
        """
        if self._parent is None:
            try:
                parent = Path(tempfile.mkdtemp(prefix="benchwright-"))
            except OSError as exc:
                raise HarnessError(f"cannot materialize workspace: {exc}") from exc
            try:
                _write_tree(parent / WORKSPACE_DIRNAME, self.files)
                if self.keep:
                    _write_tree(parent / INITIAL_DIRNAME, self.initial)
            except BaseException as exc:  # an interrupt too: no half-written tree left behind
                shutil.rmtree(parent, ignore_errors=True)
                if isinstance(exc, OSError):
                    raise HarnessError(f"cannot materialize workspace: {exc}") from exc
                raise
            self._parent = parent
        return self._parent / WORKSPACE_DIRNAME

    def refresh(self, preserve: Iterable[str] = ()) -> None:
        """Make the in-memory view what is now on disk, after a real agent worked there.

        ``preserve`` names paths whose current view is kept whatever the disk holds now
        (the stamped oracle paths, after stamping: the view keeps the agent's version).

        `.git/` (an agent's own repository metadata) and `.benchwright/` (the harness's
        answer file) are left out, as are caches (`UNCOPIED_DIRS`): checks judge the
        agent's files. Stamped oracles stay on disk only (``preserve``), so static
        checks never mistake them for the agent's work.
        """
        if self._parent is None:
            raise HarnessError("refresh() needs a materialized workspace")
        root = self._parent / WORKSPACE_DIRNAME
        kept = {path: self.files.get(path) for path in preserve}
        try:
            files = dict(read_tree(root, skip=HARNESS_DIRS, lenient=True))
        except OSError as exc:
            raise HarnessError(f"cannot read the workspace back: {exc}") from exc
        for path, data in kept.items():
            if data is None:
                files.pop(path, None)
            else:
                files[path] = data
        self.files = files

    def cleanup(self) -> None:
        """Remove the directory unless the user asked to keep it."""
        if self._parent is not None and not self.keep:
            shutil.rmtree(self._parent, ignore_errors=True)
            self._parent = None

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cleanup()


def _write_tree(root: Path, files: Mapping[str, bytes]) -> None:
    root.mkdir(parents=True)
    made: set[Path] = {root}
    for rel, data in files.items():
        target = root / rel
        if target.parent not in made:
            target.parent.mkdir(parents=True, exist_ok=True)
            made.add(target.parent)
        target.write_bytes(data)


def match_glob(path: str, pattern: str) -> bool:
    """Glob match on POSIX paths: ``**`` matches any depth, ``*``/``?`` stay in one segment."""
    return _match_parts(path.split("/"), pattern.split("/"))


def _match_parts(parts: list[str], pats: list[str]) -> bool:
    if not pats:
        return not parts
    head, rest = pats[0], pats[1:]
    if head == "**":
        return any(_match_parts(parts[i:], rest) for i in range(len(parts) + 1))
    return bool(parts) and fnmatch.fnmatchcase(parts[0], head) and _match_parts(parts[1:], rest)


UNCOPIED_DIRS = frozenset(
    {".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis"}
)
"""Version-control metadata and caches: left behind by running a fixture in place, never content."""


HARNESS_DIRS = frozenset({".benchwright"})
"""Directories the harness writes into a trial's workspace (besides `.git`)."""


def read_tree(
    root: Path, *, skip: frozenset[str] = frozenset(), lenient: bool = False
) -> Iterator[tuple[str, bytes]]:
    """Every file under ``root`` as (relative POSIX path, bytes), skipping `UNCOPIED_DIRS`.

    Only regular files are read. A symbolic link is read as its target when that is a
    regular file inside ``root``; one that leads outside, dangles, or reaches a device,
    FIFO or socket (``-> /dev/zero`` would fill memory, a FIFO would block forever) is
    refused with an `OSError` naming it, or passed over when ``lenient`` (an agent may
    leave one: it holds no content to judge). Directory links are never followed.
    """
    real_root = root.resolve()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in UNCOPIED_DIRS and d not in skip)
        for name in sorted(filenames):
            full = Path(dirpath, name)
            try:
                data = _regular_file(full, real_root)
            except OSError:
                if lenient:
                    continue
                raise
            yield full.relative_to(root).as_posix(), data


def _regular_file(path: Path, root: Path) -> bytes:
    """The bytes of ``path`` (or of its link target inside ``root``), if a regular file."""
    target = path
    if path.is_symlink():  # os.walk follows no directory link: only the last step can leave
        target = path.resolve()
        if not target.is_relative_to(root):
            raise OSError(errno.EXDEV, f"symbolic link leads outside to {target}", str(path))
    fd = os.open(target, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file (a device, FIFO or socket)", str(path))
        return handle.read()
