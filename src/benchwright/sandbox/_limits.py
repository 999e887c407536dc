"""Telling a limit hit from an ordinary failure, so it is recorded as the reason.

``setrlimit`` ceilings do not kill quietly: an allocation past the address-space
limit fails (Python raises ``MemoryError``, C reports ``Cannot allocate memory``),
a ``fork`` past the process limit fails with EAGAIN, a write past the file-size
limit ends the writer with SIGXFSZ (Python ignores it and sees ``File too large``).
These are the traces read here. A program that swallows the error and exits 0
leaves none; that is its own verdict.
"""

from __future__ import annotations

import signal

from benchwright.sandbox._policy import Limits

_MEMORY = ("MemoryError", "Cannot allocate memory", "std::bad_alloc", "out of memory")
_PROCESSES = (
    "Resource temporarily unavailable",
    "BlockingIOError: [Errno 11]",
    "fork: retry",
    "Cannot fork",
    "can't fork",
)


def limit_reason(limits: Limits, exit_code: int | None, output: str) -> str | None:
    """``limit: …`` when a failed sandboxed command shows it hit one of ``limits``."""
    if exit_code in (None, 0):
        return None
    killed = exit_code in (-signal.SIGXFSZ, 128 + signal.SIGXFSZ)
    if limits.file_size_mb and (killed or "File too large" in output):
        return f"limit: a file grew past {limits.file_size_mb} MiB"
    if limits.memory_mb and any(trace in output for trace in _MEMORY):
        return f"limit: memory ({limits.memory_mb} MiB address space per process) exhausted"
    if limits.processes and any(trace in output for trace in _PROCESSES):
        return f"limit: process count ({limits.processes}) reached"
    return None
