"""Writing into a directory an agent has had the run of: fresh files, and bounded reads.

Every path there is hostile: a symlink (to a file or a directory outside), a
symlinked or non-directory parent, a hard link to an outside file, a FIFO (an
``open`` would block), a device, a directory. `write_fresh` therefore writes a
*fresh* file: whatever sits at the path is removed, and the new file is created
with ``O_CREAT | O_EXCL | O_NOFOLLOW`` relative to parent directories opened one
by one with ``O_DIRECTORY | O_NOFOLLOW``. Nothing is followed out of the
directory, nothing outside is written through, nothing blocks, and no handle the
agent opened before refers to the new file. `read_regular` reads only a regular
file at the path itself, never through a link, and at most a bounded size;
`read_inside` reads one under a directory the same way, no link followed on the way there;
`tail_bytes` reads the end of one the same way, seeking past everything before it,
so a process that printed gigabytes costs the grader only the tail it keeps.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
from collections.abc import Mapping
from pathlib import Path

from benchwright.errors import HarnessError

_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_ATTEMPTS = 3
"""A live process could re-create the path between removal and creation; then try again."""


def write_fresh(directory: Path, files: Mapping[str, bytes], what: str = "stamp") -> None:
    """Write each relative path of ``files`` under ``directory`` as a fresh file.

    Raises:
        HarnessError: ``what: …`` naming the path that could not be written.
    """
    try:
        root = os.open(directory, _DIR)
    except OSError as exc:
        raise HarnessError(f"{what}: cannot open {directory}: {exc.strerror}") from exc
    try:
        for rel, data in files.items():
            _write_one(root, rel, data, what)
    finally:
        os.close(root)


def read_regular(path: Path, limit: int) -> bytes | None:
    """The first ``limit`` bytes of the regular file at ``path``; None for anything else
    (absent, a symlink, a FIFO, a device, a directory)."""
    try:
        fd = os.open(path, _READ)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return file.read(limit)


def read_inside(directory: Path, rel: str, limit: int) -> bytes | None:
    """The first ``limit`` bytes of the regular file ``rel`` under ``directory``, reached
    without following any link: each parent is opened with ``O_NOFOLLOW``, so a directory
    link the agent planted (``docs -> /etc``) never leads the grader's read outside.
    None for anything but a regular file there (absent, a link, a FIFO, a directory)."""
    *parents, name = rel.split("/")
    if any(part in ("", ".", "..") for part in (*parents, name)):
        return None
    try:
        fd = os.open(directory, _DIR)
    except OSError:
        return None
    try:
        for part in parents:
            child = os.open(part, _DIR, dir_fd=fd)
            os.close(fd)
            fd = child
        file_fd = os.open(name, _READ, dir_fd=fd)
    except OSError:
        return None
    finally:
        os.close(fd)
    with os.fdopen(file_fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(file_fd).st_mode):
            return None
        return file.read(limit)


def tail_bytes(path: Path, limit: int, start: int = 0) -> bytes:
    """The last ``limit`` bytes of the regular file at ``path`` (none before ``start``).

    Only the tail is read: the file is never read whole, however large it is or grows
    while it is read. Anything but a regular file at the path itself gives ``b""``.
    """
    try:
        fd = os.open(path, _READ)
    except OSError:
        return b""
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return b""
    with os.fdopen(fd, "rb") as file:
        end = file.seek(0, os.SEEK_END)
        file.seek(max(start, end - limit))
        return file.read(limit)


def tail_text(path: Path, limit: int) -> str:
    """`tail_bytes` decoded as UTF-8, undecodable bytes (a character cut in two) replaced."""
    return tail_bytes(path, limit).decode("utf-8", errors="replace")


def _write_one(root: int, rel: str, data: bytes, what: str) -> None:
    *parents, name = rel.split("/")
    if any(part in ("", ".", "..") for part in (*parents, name)):
        raise HarnessError(f"{what}: {rel!r} is not a plain relative path")
    fd = os.dup(root)
    try:
        for part in parents:
            child = _open_dir(fd, part, f"{what}: {rel}")
            os.close(fd)
            fd = child
        _write_fresh(fd, name, data, f"{what}: {rel}")
    except OSError as exc:
        raise HarnessError(f"{what}: cannot write {rel}: {exc.strerror}") from exc
    finally:
        os.close(fd)


def _open_dir(parent: int, name: str, where: str) -> int:
    """The directory ``name`` under ``parent``; whatever else is there is replaced by one."""
    for _ in range(_ATTEMPTS):
        try:
            return os.open(name, _DIR, dir_fd=parent)
        except FileNotFoundError:
            pass
        except OSError as exc:
            if exc.errno not in (errno.ENOTDIR, errno.ELOOP):
                raise
            _remove(parent, name)  # a file, FIFO, device or symlink where a directory belongs
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, 0o755, dir_fd=parent)
    raise HarnessError(f"{where}: {name} keeps being replaced")


def _write_fresh(parent: int, name: str, data: bytes, where: str) -> None:
    for _ in range(_ATTEMPTS):
        _remove(parent, name)
        try:
            fd = os.open(name, _NEW, 0o644, dir_fd=parent)
        except FileExistsError:
            continue
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        return
    raise HarnessError(f"{where} keeps being re-created")


def _remove(parent: int, name: str) -> None:
    """Remove the entry itself — a link, never its target — or a whole directory tree."""
    try:
        info = os.stat(name, dir_fd=parent, follow_symlinks=False)
    except FileNotFoundError:
        return
    if stat.S_ISDIR(info.st_mode):
        shutil.rmtree(name, dir_fd=parent)
    else:
        os.unlink(name, dir_fd=parent)
