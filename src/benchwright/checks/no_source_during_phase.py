"""``no_source_during_phase``: a planning phase wrote documents, not source.

ACE's plan-first rung asks for a plan before any implementation. A trial
(``benchwright run``) snapshots the workspace when each phase ends and records,
in the harness's own git dir, which files each phase added, modified or
deleted (trajectory metadata ``benchwright.phase_changes``, which the harness
sets last so an agent cannot supply it). This check judges that list and runs
nothing: any file outside the ``docs`` globs fails. It is a guard — an agent
that wrote nothing passes it — so a phased task needs a positive check too.
"""

from __future__ import annotations

from collections.abc import Collection

from pydantic import Field

from benchwright.checks._context import CheckContext
from benchwright.checks._registry import CheckParams, check
from benchwright.model import CheckResult, Status
from benchwright.workspace import match_glob

DEFAULT_DOCS = ("docs/**", "**/*.md", "**/*.rst", "**/*.txt")


class NoSourceDuringPhaseParams(CheckParams):
    phase: str = Field(min_length=1)
    """The phase (a name from the task's ``phases``) that must not touch source files."""
    docs: tuple[str, ...] = DEFAULT_DOCS
    """Globs of the files that phase may change (``**`` spans directories)."""

    def phase_errors(self, phases: Collection[str]) -> list[tuple[str, str]]:
        if self.phase in phases:
            return []
        return [("phase", f"the task has no phase {self.phase!r} (phases: {', '.join(phases)})")]


def _changes(ctx: CheckContext, phase: str) -> list[str] | None:
    meta = ctx.trajectory.metadata.get("benchwright")
    changes = meta.get("phase_changes") if isinstance(meta, dict) else None
    found = changes.get(phase) if isinstance(changes, dict) else None
    return [str(f) for f in found] if isinstance(found, list) else None


@check("no_source_during_phase", params=NoSourceDuringPhaseParams)
def no_source_during_phase(p: NoSourceDuringPhaseParams, ctx: CheckContext) -> CheckResult:
    """Passes when the phase changed only doc files; fails naming the first source file."""
    changed = _changes(ctx, p.phase)
    if changed is None:
        return ctx.result(
            Status.INFRA, 0.0,
            f"no snapshot for phase {p.phase!r}: run the task with 'benchwright run SUITE'",
        )  # fmt: skip
    source = [f for f in changed if not any(match_glob(f, g) for g in p.docs)]
    evidence = {"changed": changed, "source": source, "docs": list(p.docs)}
    if source:
        more = f" (+{len(source) - 1} more)" if len(source) > 1 else ""
        return ctx.failed(f"phase {p.phase} changed source file {source[0]}{more}", **evidence)
    return ctx.passed(
        f"phase {p.phase} changed {len(changed)} doc file(s) and no source", **evidence
    )
