"""Grade recorded trajectories: one task, or a gate over many."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace as with_fields

from benchwright.checks import CheckRegistry
from benchwright.execution.evaluate import evaluate
from benchwright.execution.spool import SpooledRuns
from benchwright.model import GateResult, RunResult, Task, Trajectory
from benchwright.sandbox import CONFINED, Confinement
from benchwright.workspace import Workspace, replay


def run_task(
    task: Task,
    trajectory: Trajectory,
    *,
    keep: bool = False,
    registry: CheckRegistry | None = None,
    confinement: Confinement | None = None,
) -> RunResult:
    """Replay ``trajectory`` onto a fresh copy of the task's workspace and run every check."""
    started = time.perf_counter()
    # Only a trial's harness states ``benchwright`` facts (phase changes); a file cannot.
    facts_free = {k: v for k, v in trajectory.metadata.items() if k != "benchwright"}
    trajectory = with_fields(trajectory, metadata=facts_free)
    workspace = Workspace(task.files, keep=keep)
    try:
        replay_errors = replay(workspace, trajectory)
        results = evaluate(task, workspace, trajectory, registry=registry, confinement=confinement)
        kept = str(workspace.directory()) if keep else None
    finally:
        workspace.cleanup()
    return RunResult(
        task_id=task.id,
        results=results,
        replay_errors=replay_errors,
        trajectory=trajectory.source,
        duration_s=time.perf_counter() - started,
        workspace=kept,
    )


def run_gate(
    pairs: Sequence[tuple[Task, Trajectory]],
    *,
    keep: bool = False,
    registry: CheckRegistry | None = None,
    on_result: Callable[[RunResult], None] | None = None,
    confinement: Confinement | None = None,
) -> GateResult:
    """Run every (task, trajectory) pair in order.

    An interruption (Ctrl-C) or a harness crash still returns what was computed,
    marked incomplete, so no finished result is lost.
    """

    def runs() -> Iterator[tuple[int, RunResult]]:
        for index, (task, trajectory) in enumerate(pairs):
            run = run_task(task, trajectory, keep=keep, registry=registry, confinement=confinement)
            yield index, run  # kept before the listener hears of it: a crash there loses nothing
            if on_result is not None:
                on_result(run)

    return collect_gate(runs(), len(pairs), confinement)


def collect_gate(
    runs: Iterator[tuple[int, RunResult]], total: int, confinement: Confinement | None
) -> GateResult:
    """Gather ``(position, run)`` outcomes, in any order, into a gate in position order.

    An interruption (Ctrl-C) or a harness crash keeps what was computed, marked incomplete.
    """
    started = time.perf_counter()
    done = SpooledRuns()
    error = None
    try:
        for position, run in runs:
            done.append(position, run)
    except KeyboardInterrupt:
        error = f"interrupted after {len(done)} of {total} task(s)"
    except Exception as exc:  # a harness bug: keep what was computed, say what broke
        error = f"harness crashed after {len(done)} of {total} task(s): {type(exc).__name__}: {exc}"
    return GateResult(
        done,
        complete=error is None,
        duration_s=time.perf_counter() - started,
        error=error,
        isolation=(confinement or CONFINED).isolation,
    )
