"""Run a command under a wall-clock budget in its own process group, and observe it.

One runner for check commands (``test_must_pass``) and agent processes. Output
goes to files, not pipes: a background child that inherits the output cannot
hold the grader until a timeout, and a chatty command cannot fill memory. When
the budget runs out the group gets SIGTERM, then SIGKILL after ``grace_s``;
after any exit the group is killed again, so nothing the command started
outlives it. A process found still alive after the command exited is reported
as a straggler (and killed).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

OUTPUT_LIMIT = 2_000_000
"""Characters of each stream kept in memory; the files on disk keep everything."""


@dataclass(frozen=True, slots=True)
class CommandObservation:
    """What one command run produced. Observes only; checks and agents decide."""

    command: str
    exit_code: int | None
    """None when the command was killed for its budget or could not start."""
    stdout: str
    stderr: str
    duration_s: float
    timed_out: bool
    straggler: bool = False
    """The command exited, but a process it started was still running (it was killed)."""
    error: str | None = None
    """Why the command could not start (``cannot start 'x': not found``)."""


def run_command(
    command: str | Sequence[str],
    cwd: Path,
    *,
    timeout_s: float,
    env: Mapping[str, str] | None = None,
    grace_s: float = 0.0,
    logs: Path | None = None,
) -> CommandObservation:
    """Run ``command`` (a shell line, or an argv run without a shell) in ``cwd``.

    Args:
        timeout_s: wall-clock budget; past it the whole process group is ended.
        grace_s: seconds between SIGTERM and SIGKILL at the budget (0: SIGKILL at once).
        logs: directory for ``stdout.txt``/``stderr.txt``; a temporary one when None.
    """
    shown = command if isinstance(command, str) else shlex.join(command)
    with contextlib.ExitStack() as stack:
        if logs is None:
            logs = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bw-out-")))
        out_path, err_path = logs / "stdout.txt", logs / "stderr.txt"
        started = time.perf_counter()
        with out_path.open("wb") as out, err_path.open("wb") as err:
            try:
                proc = subprocess.Popen(
                    command if isinstance(command, str) else list(command),
                    shell=isinstance(command, str),
                    cwd=cwd,
                    env=None if env is None else dict(env),
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=err,
                    start_new_session=True,
                )
            except OSError as exc:
                name = shown if isinstance(command, str) else command[0]
                why = "not found" if isinstance(exc, FileNotFoundError) else exc.strerror
                return CommandObservation(
                    shown, None, "", "", 0.0, False, error=f"cannot start {name!r}: {why}"
                )
            timed_out = _wait(proc, timeout_s, grace_s)
            straggler = not timed_out and _group_alive(proc.pid)
            _signal_group(proc.pid, signal.SIGKILL)
        return CommandObservation(
            command=shown,
            exit_code=None if timed_out else proc.returncode,
            stdout=_read(out_path),
            stderr=_read(err_path),
            duration_s=time.perf_counter() - started,
            timed_out=timed_out,
            straggler=straggler,
        )


def _wait(proc: subprocess.Popen[bytes], timeout_s: float, grace_s: float) -> bool:
    """Wait for the leader; past the budget end its group (SIGTERM, grace, SIGKILL).

    Returns True when the budget ran out.
    """
    try:
        proc.wait(timeout=timeout_s)
        return False
    except subprocess.TimeoutExpired:
        if grace_s > 0:
            _signal_group(proc.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=grace_s)
        _signal_group(proc.pid, signal.SIGKILL)
        proc.wait()
        return True


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _read(path: Path) -> str:
    text = path.read_text(encoding="utf-8", errors="replace")
    return text if len(text) <= OUTPUT_LIMIT else text[-OUTPUT_LIMIT:]


def _signal_group(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)
