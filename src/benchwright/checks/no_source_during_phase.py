"""``no_source_during_phase``: a planning phase wrote documents, not source.

ACE's plan-first rung asks for a plan before any implementation. A trial
commits a snapshot when each phase ends (``benchwright run``), and this check
diffs the snapshot before ``phase`` with the one that closes it: any added,
modified or deleted file outside the ``docs`` globs fails. It is a guard — an
agent that wrote nothing passes it — so a phased task needs a positive check too.
"""

from __future__ import annotations

import subprocess

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


def _snapshots(ctx: CheckContext) -> dict[str, str]:
    meta = ctx.trajectory.metadata.get("benchwright")
    snapshots = meta.get("snapshots") if isinstance(meta, dict) else None
    return dict(snapshots) if isinstance(snapshots, dict) else {}


@check("no_source_during_phase", params=NoSourceDuringPhaseParams)
def no_source_during_phase(p: NoSourceDuringPhaseParams, ctx: CheckContext) -> CheckResult:
    """Passes when the phase changed only doc files; fails naming the first source file."""
    commits = list(_snapshots(ctx).items())
    names = [tag for tag, _ in commits]
    tag = f"phase/{p.phase}"
    if tag not in names or names.index(tag) == 0:
        return ctx.result(
            Status.INFRA, 0.0,
            f"no snapshot for phase {p.phase!r}: run the task with 'benchwright run SUITE'",
        )  # fmt: skip
    before, after = commits[names.index(tag) - 1][1], commits[names.index(tag)][1]
    try:
        diff = subprocess.run(
            ["git", "diff", "--name-only", "--no-renames", "-z", before, after],
            cwd=ctx.directory(), capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as exc:
        return ctx.result(Status.INFRA, 0.0, f"git diff failed: {exc}")
    if diff.returncode != 0:
        return ctx.result(Status.INFRA, 0.0, f"git diff failed: {diff.stderr.strip()[:200]}")
    changed = [f for f in diff.stdout.split("\0") if f]
    source = [f for f in changed if not any(match_glob(f, g) for g in p.docs)]
    evidence = {"changed": changed, "source": source, "docs": list(p.docs)}
    if source:
        more = f" (+{len(source) - 1} more)" if len(source) > 1 else ""
        return ctx.failed(f"phase {p.phase} changed source file {source[0]}{more}", **evidence)
    return ctx.passed(
        f"phase {p.phase} changed {len(changed)} doc file(s) and no source", **evidence
    )
