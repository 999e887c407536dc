"""``executed_app``: grade what the agent built with its suite's grader, as ``grade`` would.

The build task of an executed-app suite (vspro) has this one check. It runs the suite's
grader (boot, sync, reads, restart, faults, browser: `benchwright.suites.grader_for`) on
a copy of the workspace under the trial's confinement, with a fresh vendor mock of its own
(nothing the agent did to the build's mock carries over) seeded afresh for this grading
(`grading_seed`: seed 0 is the public one, and a suite's fixture values, fault positions
and secrets follow the seed, so a build could have them memorised), composes the
scorecard with the suite's scorer, and writes ``scorecard.json`` plus the grader's
evidence into the check's evidence directory exactly as ``grade --json scorecard.json``
would: the trial seals them with its result. A grader that judges the build too (sb-5.2's
``vendor_read_docs``) is given the trace the trial recorded of the build vendor while the
agent worked (`CheckContext.build_trace`), never anything from the graded tree. The seed
drawn is on the scorecard (``provenance.fixture_seed``) and in the check's evidence
(``seed``): ``grade --tree T --seed N`` reproduces the grading.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path

from pydantic import Field

from benchwright.checks._context import CheckContext
from benchwright.checks._registry import CheckParams, check
from benchwright.errors import SpecError
from benchwright.model import CheckResult, Status

CARD = "scorecard.json"
SEED_SPACE = 2**31 - 1
"""Fresh grading seeds are drawn from 1 to this (0, the published seed, never)."""


class ExecutedAppParams(CheckParams):
    suite: str = Field(min_length=1)
    """The suite whose grader and scorer judge the build (``vspro``)."""
    pass_score: float | None = Field(default=None, ge=0.0, le=1.0)
    """PASS when the composed score is at least this; default the scorer's excellence
    threshold (``excellent_at``: 0.90 for vspro's sb-6)."""
    phases: tuple[str, ...] | None = None
    """Only these grader phases (the rest of the checks NOT_ATTEMPTED): for tests and quick
    looks; a benchmark run grades every phase (the default)."""
    seed: int | None = Field(default=None, ge=0)
    """The grading's fixture seed; None (a benchmark run) draws a fresh one per grading
    (`grading_seed`). A fixed seed is for reproducing a trial's grading."""

    def task_errors(self, files: Mapping[str, bytes]) -> list[tuple[str, str]]:
        from benchwright.suites import GRADERS, grader_for

        if self.suite not in GRADERS:
            return [("suite", f"no grader for suite {self.suite!r} (known: "
                              f"{', '.join(sorted(GRADERS))})")]  # fmt: skip
        if self.phases is not None:
            try:
                grader_for(self.suite).select_phases(self.phases)
            except SpecError as exc:
                return [("phases", exc.problems[0][1] if exc.problems else str(exc))]
        return []


@check("executed_app", params=ExecutedAppParams)
def executed_app(p: ExecutedAppParams, ctx: CheckContext) -> CheckResult:
    """Boots and grades the built app with its suite's grader; PASS at score >= pass_score.

    The score is the scorecard's; FAIL below ``pass_score`` or when nothing was built (an
    app that is absent fails to boot: its rows say so); INFRA when a grading phase failed
    in the harness (the number is then not a verdict) or the grader could not start.
    """
    from benchwright.reports.scorecard import verdict_lines
    from benchwright.services.vendors import vendor_profile
    from benchwright.suites.grade_run import SuiteGrader

    if not ctx.workspace.files:
        return ctx.failed("nothing was built: the workspace is empty")
    tree = ctx.directory()
    grader = SuiteGrader.load(_suite_ref(p.suite, ctx))
    vendor = vendor_profile(ctx.task.vendor).base_url if ctx.task.vendor else None
    card = ctx.evidence_dir / CARD if ctx.evidence_dir is not None else None
    seed = grading_seed(p.seed)
    graded = grader.grade(tree, seed=seed, phases=p.phases, confinement=ctx.confinement,
                          vendor_url=vendor, card=card, build_trace=ctx.build_trace)  # fmt: skip
    if card is not None:
        card.write_text(graded.json(), encoding="utf-8")
    scorecard = graded.card
    threshold = grader.scorer.config.excellent_at if p.pass_score is None else p.pass_score
    summary = {
        "score": scorecard.score, "scorer_version": scorecard.scorer_version,
        "tiers": {t.name: t.mean for t in scorecard.tiers},
        "flags": asdict(scorecard.flags),
        "pass_score": threshold, "scorecard": CARD if card else None, "seed": seed,
    }  # fmt: skip
    line = f"{verdict_lines(scorecard)[0]} (pass at >= {threshold:g})"
    if graded.broken:
        why = f"{line}: not a verdict, the harness failed during {'; '.join(graded.broken)}"
        return CheckResult(ctx.check_id, Status.INFRA, 0.0, why, summary)
    status = Status.PASS if scorecard.score >= threshold else Status.FAIL
    return CheckResult(ctx.check_id, status, scorecard.score, line, summary)


def grading_seed(pinned: int | None) -> int:
    """``pinned``, else a fresh seed from the OS's randomness: every grading of a run has
    its own, unpredictable to the build (the run's ``--seed`` is the agents' and the build
    vendor's, and its default 0 is the published fixture)."""
    return pinned if pinned is not None else 1 + secrets.randbelow(SEED_SPACE)


def _suite_ref(suite: str, ctx: CheckContext) -> str:
    """The suite's folder when the task lives in it (its ``scorers/`` is found beside the
    repository holding it), else the suite's name."""
    folder = Path(ctx.task.source).resolve().parent
    return str(folder) if folder.name == suite else suite
