"""Judging a suite's controls in tests: against one full grading of its golden (the
session's), as a full audit judges them, and the one assertion that a control costs what
its expectation table says. Shared by the vspro and vendorsync control tests."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from pathlib import Path

import pytest

from benchwright.errors import HarnessError
from benchwright.execution.executor import Job, LocalPool
from benchwright.model import CheckResult, Scorecard
from benchwright.scoring import compose
from benchwright.suites import browser_slots, grading_resources
from benchwright.suites.audit import Auditor, load_controls
from benchwright.suites.audit.controls import REPORT_ONLY, Control
from benchwright.suites.audit.drive import GradingJob, grade_job
from benchwright.suites.audit.isolate import isolated_score
from benchwright.suites.audit.run import Graded

Expected = list[tuple[str, float, str]]
"""(check, the control's score, a phrase of its detail naming the evidence)."""


class SessionGoldenAuditor(Auditor):
    """Judges every control of ``suite`` against ``rows``, one full grading of the golden
    made once for the test session, as a full audit does: the isolated scores are the
    audit's, and no golden is graded again through each control's phases (a dozen
    gradings per suite run). Each control is graded once (a test of the severity order
    reads the gradings its per-control tests made).

    ``timed`` names the controls a target of which is a timed row: one is never graded in
    the prefetch beside other gradings, and is graded inside ``alone()`` (the host to the
    test's worker: `host_lease.host_to_itself`), whichever test asks for it first."""

    def __init__(
        self,
        suite: Path,
        rows: Iterable[CheckResult],
        *,
        timed: Collection[str] = (),
        alone: Callable[[], AbstractContextManager[None]] = nullcontext,
    ) -> None:
        super().__init__(str(suite))
        self._card = compose(rows, self.scorer)
        self._graded: dict[tuple[str, tuple[str, ...] | None], Graded] = {}
        self._timed, self._alone = frozenset(timed), alone

    def golden(self, phases: tuple[str, ...] | None) -> tuple[Scorecard, float]:
        return self._card, 0.0

    def prefetch(self, names: Iterable[str], workers: int, browsers: int | None = None) -> None:
        """Grade the named controls, each through its own phases and from names in a
        worker process, exactly as a test's own ``grade_control`` would grade it,
        ``workers`` at a time in a process pool, as ``benchwright audit --workers`` does
        (`audit.drive`), at most ``browsers`` browser gradings at once (None: the suite's
        cap, sb-7's one). The browser ones start first (the long chain); the others fill
        the remaining workers beside them: a grading of the services spends most of its
        wall time in the schedule's fixed waits (vendor down, Retry-After, kill windows).
        A control grading retakes no contended scenario (`Auditor.grade_control`), so a
        browser grading beside another costs no retakes unless a target needs them. A
        ``timed`` control is left to its own test."""
        wanted = [n for n in names if n not in self._timed]
        if not wanted:  # load_controls reads an empty list as "every control"
            return
        controls = load_controls(self.suite_dir, wanted)
        jobs = [Job(c.name, GradingJob(self.suite, self.seed, self.confinement, c.name, c.phases),
                    grading_resources(self.suite, c.phases)) for c in controls]  # fmt: skip
        phases = {c.name: c.phases for c in controls}
        # the long chain (the browser's) starts first, and the longer gradings (more
        # phases; None: all of them) before the shorter ones, so none starts last alone
        jobs.sort(key=lambda job: (not job.resources.browser, -_span(phases[job.key])))
        for done in LocalPool(workers, browsers or browser_slots(self.suite)).run(grade_job, jobs):
            if done.error is not None or done.result is None:
                raise HarnessError(f"control {done.key}: {done.error}")
            self._graded[(done.key, phases[done.key])] = done.result

    def grade_control(self, control: Control, phases: tuple[str, ...] | None) -> Graded:
        key = (control.name, phases)
        if key not in self._graded:
            with self._alone() if control.name in self._timed else nullcontext():
                self._graded[key] = super().grade_control(control, phases)
        return self._graded[key]


def timed_controls(suite: Path, timing_rows: Collection[str]) -> set[str]:
    """The controls of ``suite`` a target of which is one of ``timing_rows`` (the suite's
    rows judged against the host): those a `SessionGoldenAuditor` grades ``timed``."""
    return {c.name for c in load_controls(suite) if set(c.targets) & set(timing_rows)}


def _span(phases: tuple[str, ...] | None) -> float:
    """How many phases a control grades through (None: every one)."""
    return float("inf") if phases is None else len(phases)


def assert_control_costs(
    auditor: Auditor, name: str, expected: Expected, unmoved: tuple[str, ...] = ()
) -> None:
    """Grade control ``name`` through its own phases and judge it against ``auditor``'s
    golden: it passes its expectations, the golden keeps every target at 1.0, each target
    lands exactly where ``expected`` says with a detail naming why, a critical control
    multiplies through a target, and each ``unmoved`` row (one the defect must not reach)
    scores the golden's, so the golden's rows with the targets and those in their place
    still compose to the golden's score."""
    (control,) = load_controls(auditor.suite_dir, [name])
    golden, _ = auditor.golden(control.phases)
    graded = auditor.grade_control(control, control.phases)
    verdict = auditor.verdict(control, golden, graded)
    assert verdict.passed, verdict.problems
    for check in control.targets:
        assert golden.row(check).score == 1.0, golden.row(check).detail
    card_rows = {t.check_id: t for t in verdict.targets}
    for check, score, phrase in expected:
        assert card_rows[check].control == pytest.approx(score, abs=1e-4), card_rows[check].detail
        assert phrase in card_rows[check].detail  # the row says why, not only how much
    if control.severity == REPORT_ONLY:  # reported by a weight-zero row, never scored
        assert verdict.isolated == verdict.golden_score
    else:
        assert verdict.isolated < verdict.golden_score
    if control.critical:
        assert any(f.split(" x")[0] in control.targets for f in verdict.factors)
    for check in unmoved:
        row = graded.card.row(check)
        assert (row.status.name, row.score) == ("PASS", golden.row(check).score), row.detail
    if control.severity == REPORT_ONLY:  # its weight-zero targets and the unmoved rows
        kept = replace(control, targets=control.targets + unmoved)
        assert isolated_score(kept, golden, graded.card, auditor.scorer) == verdict.golden_score
