"""Run a task's checks over a replayed workspace, each independently.

A check that raises is INFRA with its traceback as evidence, never a pass; a
check that returns nothing is FAIL; a check needing a capability this machine
lacks is SKIPPED. One check's fate never stops the others.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Iterable, Mapping
from pathlib import Path

from benchwright.checks import CheckContext, CheckRegistry, default_registry
from benchwright.model import CheckResult, CheckSpec, Status, Task, Trajectory
from benchwright.sandbox import CONFINED, Confinement
from benchwright.workspace import Workspace


def evaluate(
    task: Task,
    workspace: Workspace,
    trajectory: Trajectory,
    *,
    registry: CheckRegistry | None = None,
    capabilities: Iterable[str] = (),
    confinement: Confinement | None = None,
    canaries: Mapping[str, tuple[str, ...]] | None = None,
    evidence_dirs: Mapping[str, Path] | None = None,
    seed: int = 0,
    build_trace: Path | None = None,
) -> tuple[CheckResult, ...]:
    """One result per check of ``task``, in declaration order.

    ``confinement`` is how checks that run the agent's code sandbox it (confined by default);
    ``canaries`` are the canary tests stamping planted (`benchwright.execution.stamp`);
    ``evidence_dirs`` each check's directory for evidence files, by check id
    (`benchwright.execution.evidence`); ``seed`` the run's; ``build_trace`` the build
    vendor's trace the trial recorded (`CheckContext.build_trace`).
    """
    registry = registry or default_registry()
    available = frozenset(capabilities)
    confinement = confinement or CONFINED
    planted = canaries or {}
    dirs = evidence_dirs or {}
    shared = (task, workspace, trajectory, confinement, planted)
    contexts = [CheckContext(s.id, *shared, dirs.get(s.id), seed, build_trace) for s in task.checks]
    return tuple(
        _run_one(spec, registry, ctx, available)
        for spec, ctx in zip(task.checks, contexts, strict=True)
    )


def _run_one(
    spec: CheckSpec, registry: CheckRegistry, ctx: CheckContext, available: frozenset[str]
) -> CheckResult:
    missing = [need for need in spec.requires if need not in available]
    if missing:
        return CheckResult(
            spec.id,
            Status.SKIPPED,
            0.0,
            f"needs {', '.join(missing)}, not available on this machine",
        )
    started = time.perf_counter()
    try:
        result = registry.get(spec.type).run(spec.params, ctx)
    except (Exception, SystemExit) as exc:  # a check calling sys.exit() must not end the run
        return CheckResult(
            spec.id,
            Status.INFRA,
            0.0,
            f"check crashed: {type(exc).__name__}: {exc}"[:500],
            {"traceback": traceback.format_exc()},
            time.perf_counter() - started,
        )
    elapsed = time.perf_counter() - started
    if not isinstance(result, CheckResult):
        return CheckResult(
            spec.id,
            Status.FAIL,
            0.0,
            f"check produced no result (returned {type(result).__name__})",
        ).timed(elapsed)
    if result.check_id != spec.id:
        return CheckResult(
            spec.id, Status.INFRA, 0.0, f"check returned a result for {result.check_id!r}"
        ).timed(elapsed)
    return result.timed(elapsed)
