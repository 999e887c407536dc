"""Run a shell command under a wall-clock budget and observe what it did.

The command runs in its own session (process group); on timeout the whole
group is killed, so a test runner's children cannot outlive the check.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

_DRAIN_TIMEOUT_S = 5.0


@dataclass(frozen=True, slots=True)
class CommandObservation:
    """What one command run produced. Observes only; checks decide."""

    command: str
    exit_code: int | None
    """None when the command was killed for running past its timeout."""
    stdout: str
    stderr: str
    duration_s: float
    timed_out: bool
    straggler: bool = False
    """The command exited but a process it left behind still held its output at the
    timeout; that process was killed and ``exit_code`` is the command's own."""


def run_command(
    command: str, cwd: Path, *, timeout_s: float, env: dict[str, str] | None = None
) -> CommandObservation:
    """Run ``command`` through the shell in ``cwd``; kill its process group on timeout."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        command,
        shell=True,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout_s)
        timed_out = straggler = False
    except subprocess.TimeoutExpired:
        # The shell may have exited while a background child still holds the pipes:
        # that is a finished command with a straggler, not a timeout.
        timed_out = proc.poll() is None
        straggler = not timed_out
        _kill_group(proc.pid)
        out, err = _drain(proc)
    finally:
        # Children that daemonized inside the group must not outlive the check either.
        _kill_group(proc.pid)
    return CommandObservation(
        command=command,
        exit_code=None if timed_out else proc.wait(),
        stdout=out.decode("utf-8", errors="replace"),
        stderr=err.decode("utf-8", errors="replace"),
        duration_s=time.perf_counter() - started,
        timed_out=timed_out,
        straggler=straggler,
    )


def _drain(proc: subprocess.Popen[bytes]) -> tuple[bytes, bytes]:
    """Collect what is left after a kill; give up on pipes held by escaped processes."""
    try:
        return proc.communicate(timeout=_DRAIN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        return b"", b"(output lost: a process outside the group kept the pipes open)"


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
