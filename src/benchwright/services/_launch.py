"""Turning a command template into a running leader process with a log file.

The template is split like a shell line first and each word is filled in after,
so a database path with spaces stays one argument and nothing is ever run
through a shell.

Every app is started from one long-lived thread, whichever thread asks. A
sandboxed app's bubblewrap holds ``PR_SET_PDEATHSIG`` (``--die-with-parent``),
and the kernel fires it when the *thread* that forked it exits, not the process:
an app booted from a browser lane (a pool thread) would be SIGKILLed the moment
that lane's thread ended. The spawner thread lives as long as the grader does.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import BinaryIO

from benchwright.errors import HarnessError
from benchwright.workspace import tail_bytes

PLACEHOLDERS = ("db", "port", "tree", "python", "db_dir")


def fill(command: str, **values: object) -> list[str]:
    """The argv for ``command`` with `PLACEHOLDERS` set (those of ``values`` and
    ``{python}``)."""
    known = {**values, "python": sys.executable}
    try:
        argv = [word.format(**known) for word in shlex.split(command)]
    except (KeyError, IndexError, ValueError) as exc:
        raise HarnessError(
            f"bad app command template {command!r}: {exc!r}; "
            f"placeholders are {', '.join('{' + p + '}' for p in PLACEHOLDERS)}"
        ) from exc
    if not argv:
        raise HarnessError("the app command template is empty")
    return argv


def spawn(
    argv: list[str], *, cwd: Path, env: dict[str, str], log_path: Path, shown: str | None = None
) -> tuple[subprocess.Popen[bytes], int]:
    """Start ``argv`` as a new session leader, stdout and stderr appended to ``log_path``.

    ``shown`` is what the log's starting line names (the app's own command, not the
    sandbox's wrapper around it); ``argv`` by default.

    Returns the process and the log offset where its output starts, so a restart's
    observation quotes only its own output.
    """
    try:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        with log_path.open("ab") as log:
            log.write(f"--- benchwright: starting {shown or shlex.join(argv)}\n".encode())
            log.flush()
            offset = log.tell()
            proc = _spawner().submit(_popen, argv, cwd, env, log).result()
    except OSError as exc:
        raise HarnessError(f"cannot start {argv[0]!r} in {cwd}: {exc}") from exc
    return proc, offset


def _popen(
    argv: list[str], cwd: Path, env: dict[str, str], log: BinaryIO
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


@cache
def _spawner() -> ThreadPoolExecutor:
    """The one thread every app is forked from; it idles until the interpreter exits."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="benchwright-app-spawner")


def tail(path: Path, offset: int, size: int) -> bytes:
    """The last ``size`` bytes written to ``path`` after ``offset`` (the rest is never read)."""
    return tail_bytes(path, size, start=offset)
