"""The files of a workspace the offline ACE checks (S*, P*, M*) may look at.

The oracle judges what an agent wrote, not what a build produced or a package
manager vendored, so build outputs and vendored trees are never walked. Only
regular files count: an empty directory named ``Broken.java`` is not a Java file,
and a symbolic link is passed over (it could point outside the workspace, and it
holds no content the agent wrote).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Collection
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path, PurePosixPath

SKIPPED_DIRS = frozenset({"build", "target", "dist", "out", ".gradle", "node_modules", ".git"})
"""Build outputs (Gradle, Maven, bundlers), Gradle's cache, vendored packages, git metadata."""

READ_LIMIT = 2 * 1024 * 1024
"""Bytes read from one file: a source or doc file the checks judge is far smaller."""

COMPOSE_NAMES = ("docker-compose.yml", "docker-compose.yaml", "compose.yml", "compose.yaml")

_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


@dataclass(frozen=True)
class Tree:
    """The regular files under ``root`` (relative POSIX paths), walked once on first use."""

    root: Path

    @cached_property
    def files(self) -> tuple[str, ...]:
        """Every regular file outside `SKIPPED_DIRS`, sorted."""
        return self._walk[0]

    @cached_property
    def irregular(self) -> tuple[tuple[str, str], ...]:
        """Every other entry outside `SKIPPED_DIRS` (directories, links, FIFOs), with what
        it is: a check that judges files of a name (``*.java``) must not pass over one
        silently (a directory named ``Ledger.java`` hides nothing from a human)."""
        return self._walk[1]

    @cached_property
    def _walk(self) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
        regular: list[str] = []
        other: list[tuple[str, str]] = []
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = [d for d in dirnames if d not in SKIPPED_DIRS]
            for name in (*dirnames, *filenames):
                full = Path(dirpath, name)
                rel = full.relative_to(self.root).as_posix()
                kind = _kind(full.lstat().st_mode)
                if kind is None:
                    regular.append(rel)
                else:
                    other.append((rel, kind))
        return tuple(sorted(regular)), tuple(sorted(other))

    def size(self, rel: str) -> int | None:
        """Bytes of the regular file ``rel``; None when it is absent or anything else."""
        try:
            mode = (self.root / rel).lstat()
        except OSError:
            return None
        return mode.st_size if stat.S_ISREG(mode.st_mode) else None

    def text(self, rel: str) -> str:
        """The file decoded as UTF-8 (undecodable bytes replaced); "" when unreadable."""
        try:
            fd = os.open(self.root / rel, _READ)
        except OSError:
            return ""
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return ""
            return handle.read(READ_LIMIT).decode("utf-8", errors="replace")

    def source(self, rel: str) -> tuple[str, str | None]:
        """The file's text, and why it cannot be judged whole (None when it can): it cannot
        be opened, is not a regular file, exceeds `READ_LIMIT` or is not UTF-8. The text is
        what could be read, undecodable bytes replaced, so a caller may still report on it."""
        try:
            fd = os.open(self.root / rel, _READ)
        except OSError as exc:
            return "", f"cannot be opened ({exc.strerror})"
        with os.fdopen(fd, "rb") as handle:
            kind = _kind(os.fstat(fd).st_mode)
            if kind is not None:
                return "", f"is {kind}"
            data = handle.read(READ_LIMIT + 1)
        if len(data) > READ_LIMIT:
            return data[:READ_LIMIT].decode("utf-8", errors="replace"), (
                f"is larger than the {READ_LIMIT // (1024 * 1024)} MiB read limit"
            )
        try:
            return data.decode("utf-8"), None
        except UnicodeDecodeError as exc:
            bad = f"byte 0x{data[exc.start]:02x} at offset {exc.start}"
            return data.decode("utf-8", errors="replace"), f"is not UTF-8 ({bad})"

    def main_sources(self, suffixes: tuple[str, ...]) -> list[str]:
        """Files under some ``src/main`` directory whose name ends with one of ``suffixes``.

        Every file below ``src/main`` is main source, a package named ``test`` included
        (``src/main/java/app/test/Ledger.java`` ships in the jar); only ``src/test`` and
        other source sets are left out.
        """
        return [f for f in self.files if f.endswith(suffixes) and _under_src_main(f)]

    def irregular_main_sources(self, suffixes: tuple[str, ...]) -> list[tuple[str, str]]:
        """Entries under ``src/main`` named like a source (``suffixes``) that are no
        regular file, with what each is."""
        return [(f, k) for f, k in self.irregular if f.endswith(suffixes) and _under_src_main(f)]


def _kind(mode: int) -> str | None:
    """What a non-regular entry is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "a FIFO" if stat.S_ISFIFO(mode) else "a special file"


def _under_src_main(rel: str) -> bool:
    return "/src/main/" in f"/{rel}"


def root_most(files: Collection[str]) -> list[str]:
    """``files`` ordered fewest directories first, then by name: where one file of a kind
    must stand for the workspace, a per-service copy never shadows the root's."""
    return sorted(files, key=lambda f: (f.count("/"), f))


def compose_files(files: Collection[str]) -> list[str]:
    """The compose files among ``files``, root-most first; the first is the stack's (S4, C1)."""
    return root_most([f for f in files if PurePosixPath(f).name in COMPOSE_NAMES])
