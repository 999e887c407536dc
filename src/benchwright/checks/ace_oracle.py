"""``ace``: one ACE oracle check in a task, its id the ACE id (``- {id: S1, type: ace}``).

The check runs the RunOracle (`benchwright.checks.ace.oracle`) for its id. Ids of
one family that a task lists with the same parameters are scored in one oracle
call and the rows kept on the trial's own `Workspace` object (weakly: they go with
it), so one trial builds once for B1-B3 and drives F1-F9 once, F6 last over every
exchange the others made, and no later trial can ever be handed them - not even one
whose temporary directory happens to reuse the same path. The engine is
probed once per process; P3 reads the trial's own phase snapshots.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, Literal
from weakref import WeakKeyDictionary

from benchwright.checks._context import CheckContext
from benchwright.checks._registry import CheckParams, check
from benchwright.checks.ace._env import AceEnv, Engine, detect_engine
from benchwright.checks.ace.oracle import ACE_IDS, owner, score
from benchwright.model import CheckResult
from benchwright.workspace import Workspace

Rows = dict[str, CheckResult]


class AceParams(CheckParams):
    base_url: str | None = None
    """A stack already running: F1-F9 and C2 run against it (Docker or not)."""
    gradle: Literal["docker", "local"] = "docker"
    """``local`` builds B1-B3 with this machine's JDK/Gradle instead of a container."""

    def id_errors(self, check_id: str) -> list[tuple[str, str]]:
        if check_id in ACE_IDS:
            return []
        return [("id", f"{check_id!r} is not an ACE check id (known: {', '.join(ACE_IDS)})")]


_ROWS: WeakKeyDictionary[Workspace, dict[tuple[AceParams, tuple[str, ...]], Rows]] = (
    WeakKeyDictionary()
)


@cache
def _engine() -> Engine:
    """The container engine, probed once per process (a probe can take seconds)."""
    return detect_engine()


def _phase_changes(metadata: Mapping[str, Any]) -> dict[str, list[str]] | None:
    """The harness's own per-phase change lists (set last, so no agent can supply them)."""
    facts = metadata.get("benchwright")
    changes = facts.get("phase_changes") if isinstance(facts, dict) else None
    if not isinstance(changes, dict) or not changes:
        return None
    return {str(k): list(map(str, v)) for k, v in changes.items() if isinstance(v, list)}


def _family_rows(ctx: CheckContext, params: AceParams, wanted: tuple[str, ...]) -> Rows:
    """The oracle's rows for one family's wanted ids, computed once per trial."""
    memo = _ROWS.setdefault(ctx.workspace, {})
    if (params, wanted) not in memo:
        changes = _phase_changes(ctx.trajectory.metadata)
        env = AceEnv(ctx.directory().resolve(), _engine(), params.base_url, params.gradle, changes)
        memo[params, wanted] = {r.check_id: r for r in score(env, wanted)}
    return memo[params, wanted]


@check("ace", params=AceParams)
def ace(p: AceParams, ctx: CheckContext) -> CheckResult:
    """Runs the ACE oracle for the check's id (its family once per trial); FAIL when silent."""
    family = owner(ctx.check_id)
    wanted = tuple(
        spec.id for spec in ctx.task.checks
        if spec.type == "ace" and spec.params == p and owner(spec.id) == family
    )  # fmt: skip
    return _family_rows(ctx, p, wanted)[ctx.check_id]
