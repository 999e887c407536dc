"""Run an agent process under a wall-clock budget, in its own process group.

Output goes to files, not pipes, so a chatty agent can neither block on a full
pipe nor fill the grader's memory. When the budget runs out the whole group is
sent SIGTERM, then SIGKILL after a short grace; after any exit the group is
killed again, so background children the agent left behind do not outlive it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

GRACE_S = 1.0
"""Seconds between SIGTERM and SIGKILL: enough to flush a log, not to keep working."""
OUTPUT_LIMIT = 2_000_000
"""Characters of each stream kept in memory (the agent log on disk keeps the tail too)."""


@dataclass(frozen=True, slots=True)
class ProcessResult:
    exit_code: int | None
    wall_s: float
    stdout: str
    stderr: str
    timed_out: bool = False
    error: str | None = None


def run_process(
    argv: Sequence[str], cwd: Path, env: Mapping[str, str], budget_s: float, logs: Path
) -> ProcessResult:
    """Run ``argv`` in ``cwd``; ``logs`` is a private directory for its stdout/stderr files."""
    out_path, err_path = logs / "stdout.txt", logs / "stderr.txt"
    started = time.perf_counter()
    with out_path.open("wb") as out, err_path.open("wb") as err:
        try:
            proc = subprocess.Popen(
                list(argv),
                cwd=cwd,
                env=dict(env),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                start_new_session=True,
            )
        except OSError as exc:
            reason = "not found" if isinstance(exc, FileNotFoundError) else exc.strerror
            return ProcessResult(
                None, 0.0, "", "", error=f"agent: cannot start {argv[0]!r}: {reason}"
            )
        timed_out = False
        try:
            proc.wait(timeout=budget_s)
        except subprocess.TimeoutExpired:
            timed_out = True
            _signal_group(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=GRACE_S)
            except subprocess.TimeoutExpired:
                _signal_group(proc.pid, signal.SIGKILL)
                proc.wait(timeout=GRACE_S)
        finally:
            _signal_group(proc.pid, signal.SIGKILL)
    wall = time.perf_counter() - started
    return ProcessResult(
        None if timed_out else proc.returncode,
        wall,
        _read(out_path),
        _read(err_path),
        timed_out=timed_out,
    )


def _read(path: Path) -> str:
    text = path.read_text(encoding="utf-8", errors="replace")
    return text if len(text) <= OUTPUT_LIMIT else text[-OUTPUT_LIMIT:]


def _signal_group(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)
