"""How a signal stops ``benchwright``: as Ctrl-C does, once, and with its cleanup finished.

SIGINT, SIGTERM and SIGHUP raise `KeyboardInterrupt` in the main thread. Every command
unwinds from it: ``finally`` blocks and ``TemporaryDirectory`` end the running agents,
checks and apps (each in a process group of its own, killed whole) and remove their temp
dirs, finished work stays, and the exit code is 130.

A stop often arrives as more than one signal: one sent to the process and one to its
process group (``timeout``, CI runners cancelling a job, supervisors), or a sender that
repeats itself. Ending the process at the second one cut that cleanup short and left
``/tmp/benchwright-vspro-*`` and the like behind. So signals in the first
`REPEAT_GRACE_S` seconds after the first are the same stop and are ignored; one after
that ends the process at once (a cleanup that hangs can still be cut short).

Once the command has unwound, a stopped process exits without waiting for threads
(`leave`): a signal that lands between starting a server thread and the ``try`` that
stops it leaves that thread running, and the interpreter would wait for it forever.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
import time
from types import FrameType
from typing import NoReturn

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
REPEAT_GRACE_S = 10.0

_first: list[float] = []
"""When the first stop signal arrived (empty until then)."""


def install_stop_signals() -> None:
    """Make `STOP_SIGNALS` interrupt this process as described above (main thread only)."""
    for sig in STOP_SIGNALS:
        signal.signal(sig, _stop)


def stopped() -> bool:
    """Whether a stop signal has arrived."""
    return bool(_first)


def leave(code: object) -> NoReturn:
    """End a stopped process with ``code`` (a `SystemExit` code): exit handlers run (temp
    dirs registered for removal at exit go), output is flushed, threads are not waited for."""
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(0 if code is None else code if isinstance(code, int) else 1)


def _stop(signum: int, frame: FrameType | None) -> None:
    name = signal.Signals(signum).name
    now = time.monotonic()
    if not _first:
        _first.append(now)
        raise KeyboardInterrupt(name)
    if now - _first[0] < REPEAT_GRACE_S:
        print(
            f"benchwright: {name}: still cleaning up; a signal after "
            f"{REPEAT_GRACE_S:g}s ends it at once",
            file=sys.stderr,
        )
        return
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)
