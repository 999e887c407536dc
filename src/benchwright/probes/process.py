"""Run a command under a wall-clock budget in its own process group, and observe it.

One runner for check commands (``test_must_pass``) and agent processes. Output
goes to files, not pipes: a background child that inherits the output cannot
hold the grader until a timeout, and a chatty command cannot fill memory: only
the last `OUTPUT_LIMIT` bytes of each file are read back (`tail_text` seeks past
the rest), whatever the command printed. When
the budget runs out the group gets SIGTERM, then SIGKILL after ``grace_s``;
after any exit the group is killed again, so nothing the command started
outlives it. A process found still alive after the command exited is reported
as a straggler (and killed).

Given a `Sandbox`, the command runs inside it (bubblewrap), as root under a uid leased
for this run alone: its own PID namespace ends every process it started when it exits,
so a straggler cannot exist (and none of its uid is left when this returns), and a
resource limit it hit is recorded as ``limit``.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchwright.errors import HarnessError
from benchwright.sandbox import (
    MOUNT_FAILED,
    WRAPPER_LEVELS,
    Sandbox,
    command_line,
    leased,
    limit_reason,
    prepare,
    unavailable_reason,
)
from benchwright.services._process_group import Family
from benchwright.workspace import tail_text

OUTPUT_LIMIT = 2_000_000
"""Bytes of each stream read back and kept in memory (the tail); the files on disk keep
everything, bounded by the sandbox's file-size limit."""


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
    limit: str | None = None
    """The sandbox limit the command hit (``limit: memory … exhausted``), when it shows one."""


def run_command(
    command: str | Sequence[str],
    cwd: Path,
    *,
    timeout_s: float,
    env: Mapping[str, str] | None = None,
    grace_s: float = 0.0,
    logs: Path | None = None,
    sandbox: Sandbox | None = None,
) -> CommandObservation:
    """Run ``command`` (a shell line, or an argv run without a shell) in ``cwd``.

    Args:
        timeout_s: wall-clock budget; past it the whole process group is ended.
        grace_s: seconds between SIGTERM and SIGKILL at the budget (0: SIGKILL at once).
        logs: directory for ``stdout.txt``/``stderr.txt``; a temporary one when None.
        sandbox: confine the command (and all it starts) to this sandbox.
    """
    shown = command if isinstance(command, str) else shlex.join(command)
    name = shown if isinstance(command, str) else command[0]
    with contextlib.ExitStack() as stack:
        if sandbox is not None:
            if reason := unavailable_reason():
                return CommandObservation(
                    shown, None, "", "", 0.0, False, error=f"sandbox: {reason}"
                )
            argv = ["/bin/sh", "-c", command] if isinstance(command, str) else list(command)
            try:  # the uid is released once nothing of the command is left
                sandbox = stack.enter_context(leased(sandbox))
                prepare(sandbox)
            except (HarnessError, OSError) as exc:
                why = (
                    str(exc) if isinstance(exc, HarnessError) else f"sandbox: cannot prepare: {exc}"
                )
                return CommandObservation(shown, None, "", "", 0.0, False, error=why)
            command = command_line(sandbox, argv, cwd)
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
                why = "not found" if isinstance(exc, FileNotFoundError) else exc.strerror
                return CommandObservation(
                    shown, None, "", "", 0.0, False, error=f"cannot start {name!r}: {why}"
                )
            try:
                timed_out = _wait(proc, timeout_s, grace_s, sandbox is not None)
            except BaseException:  # Ctrl-C, SIGTERM: the command must not outlive us
                _signal_group(proc.pid, signal.SIGKILL)
                proc.wait()
                raise
            straggler = not timed_out and _group_alive(proc.pid)
            _signal_group(proc.pid, signal.SIGKILL)
        stdout, stderr = tail_text(out_path, OUTPUT_LIMIT), tail_text(err_path, OUTPUT_LIMIT)
        exit_code = None if timed_out else proc.returncode
        limit = error = None
        if sandbox is not None:
            tail = stdout[-4000:] + stderr[-4000:]
            limit = limit_reason(sandbox.limits, exit_code, tail, writable=sandbox.writable)
            error = _not_started(name, exit_code, stderr)
        return CommandObservation(
            command=shown,
            exit_code=exit_code,
            stdout=stdout,
            stderr=stderr,
            duration_s=time.perf_counter() - started,
            timed_out=timed_out,
            straggler=straggler,
            error=error,
            limit=limit,
        )


def _wait(proc: subprocess.Popen[bytes], timeout_s: float, grace_s: float, sandboxed: bool) -> bool:
    """Wait for the leader; past the budget end its group (SIGTERM, grace, SIGKILL).

    Returns True when the budget ran out.
    """
    try:
        proc.wait(timeout=timeout_s)
        return False
    except subprocess.TimeoutExpired:
        if grace_s > 0:
            if sandboxed:  # past bubblewrap, which would die of it and SIGKILL the rest
                Family(proc.pid, WRAPPER_LEVELS).signal(signal.SIGTERM)
            else:
                _signal_group(proc.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=grace_s)
        _signal_group(proc.pid, signal.SIGKILL)
        proc.wait()
        return True


_EXEC_FAILED = re.compile(
    r"^(?:(?:prlimit|setpriv): failed to execute|bwrap: execvp) (.+?): (.+)$", re.M
)


def _not_started(name: str, exit_code: int | None, stderr: str) -> str | None:
    """The sandbox's own report that the command could not be executed, as a start error."""
    if exit_code == 125 and MOUNT_FAILED in stderr[-4000:]:
        return f"sandbox: {MOUNT_FAILED}: {stderr.strip().splitlines()[0][:300]}"
    found = _EXEC_FAILED.search(stderr[-2000:]) if exit_code in (1, 126, 127) else None
    if found is None:
        return None
    why = "not found" if "No such file" in found.group(2) else found.group(2)
    return f"cannot start {name!r}: {why}"


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _signal_group(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)
