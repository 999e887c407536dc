"""Telling a limit hit from an ordinary failure, so it is recorded as the reason.

``setrlimit`` ceilings do not kill quietly: an allocation past the address-space
limit fails (Python raises ``MemoryError``, C reports ``Cannot allocate memory``),
a ``fork`` or a new thread past the process limit fails with EAGAIN, a write past the
file-size limit ends the writer with SIGXFSZ (Python ignores it and sees ``File too
large``). A write past the size of ``/tmp`` or ``/dev/shm`` fails with ENOSPC (``No
space left on device``; SIGBUS when the page was mapped) — unless a host filesystem
the sandbox writes is itself full, which is the host's failure, not the sandbox's
limit. These are the traces read here. A program that swallows the error and exits 0
leaves none; that is its own verdict.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Sequence
from pathlib import Path

from benchwright.sandbox._policy import Limits

_MEMORY = ("MemoryError", "Cannot allocate memory", "std::bad_alloc", "out of memory")
_PROCESSES = (
    "Resource temporarily unavailable",
    "BlockingIOError: [Errno 11]",
    "fork: retry",
    "Cannot fork",
    "can't fork",
    "can't start new thread",
)
_NO_SPACE = ("No space left on device", "[Errno 28]", "ENOSPC")
_ROOM = 1024 * 1024
"""Free bytes below which a host filesystem counts as full."""


def limit_reason(
    limits: Limits, exit_code: int | None, output: str, *, writable: Sequence[Path] = ()
) -> str | None:
    """``limit: …`` when a failed sandboxed command shows it hit one of ``limits``.

    Args:
        writable: the host paths the sandbox could write; an ENOSPC is the in-memory
            filesystems' only while each of them still has room.
    """
    if exit_code in (None, 0):
        return None
    killed = exit_code in (-signal.SIGXFSZ, 128 + signal.SIGXFSZ)
    if limits.file_size_mb and (killed or "File too large" in output):
        return f"limit: a file grew past {limits.file_size_mb} MiB"
    if limits.memory_mb and any(trace in output for trace in _MEMORY):
        return f"limit: memory ({limits.memory_mb} MiB address space per process) exhausted"
    if limits.processes and any(trace in output for trace in _PROCESSES):
        return f"limit: process count ({limits.processes}) reached"
    bus = exit_code in (-signal.SIGBUS, 128 + signal.SIGBUS)
    no_space = bus or any(trace in output for trace in _NO_SPACE)
    if limits.tmp_mb and no_space and not any(_full(path) for path in writable):
        return f"limit: in-memory /tmp and /dev/shm ({limits.tmp_mb} MiB each) full"
    return None


def _full(path: Path) -> bool:
    try:
        found = os.statvfs(path)
    except OSError:
        return False
    return found.f_bavail * found.f_frsize < _ROOM
