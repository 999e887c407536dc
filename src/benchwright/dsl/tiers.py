"""Which tier a task is in: oracle presence first, then the suite's build-only classes.

The rule is the turn benchmark's: a task without an oracle is latency-only even
when its class is listed as build-only, so a missing oracle can never pass on
exit 0; and a graded task must carry a check a no-op agent cannot satisfy.
"""

from __future__ import annotations

from collections.abc import Collection

from benchwright.model import Task

GUARD_CHECKS = frozenset(
    {"no_network", "file_not_modified", "no_source_during_phase", "pattern_absent"}
)
"""Check types that pass when the agent does nothing: they guard, they never prove work."""


def tier_of(task: Task, build_only_classes: Collection[str]) -> str:
    """``latency`` without checks, ``build`` for a build-only class, else ``correctness``."""
    if not task.checks:
        return "latency"
    if task.task_class in build_only_classes:
        return "build"
    return "correctness"


def guard_only_problem(types: Collection[str]) -> str | None:
    """Why a graded task's checks cannot prove anything, when they are all guards."""
    if types and all(t in GUARD_CHECKS for t in types):
        guards = ", ".join(sorted(GUARD_CHECKS))
        return (
            f"every check is a guard ({guards}), which a no-op agent passes; add a positive "
            "oracle, or give 'checks: []' for a latency-only task"
        )
    return None
