"""Agents run through the one process runner, `benchwright.probes.run_command`.

An agent gets a short grace between SIGTERM and SIGKILL at its budget, enough
to flush a log but not to keep working, and its start failures read ``agent: …``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path

from benchwright.probes import CommandObservation, run_command
from benchwright.sandbox import Sandbox

GRACE_S = 1.0


def run_process(
    argv: Sequence[str],
    cwd: Path,
    env: Mapping[str, str],
    budget_s: float,
    logs: Path,
    sandbox: Sandbox | None,
) -> CommandObservation:
    """Run ``argv`` (no shell) in ``cwd`` inside ``sandbox`` (None: unconfined, by request);
    ``logs`` receives ``stdout.txt``/``stderr.txt``."""
    done = run_command(
        argv, cwd, timeout_s=budget_s, env=env, grace_s=GRACE_S, logs=logs, sandbox=sandbox
    )
    return done if done.error is None else dataclasses.replace(done, error=f"agent: {done.error}")
