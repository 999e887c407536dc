"""Grading for an audit: the golden (cached per phase set) and each control's tree."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from benchwright.errors import HarnessError, SpecError
from benchwright.model import Scorecard, Status
from benchwright.sandbox import Confinement
from benchwright.scoring.contention import HOST_CONTENDED
from benchwright.suites.audit.controls import GOLDEN_DIR, Control, control_tree
from benchwright.suites.audit.judge import ControlVerdict, judge


@dataclass(frozen=True)
class AuditResult:
    suite: str
    golden_score: float
    golden_seconds: float
    verdicts: tuple[ControlVerdict, ...]
    quick: bool
    order: tuple[str, ...] = ()
    """Severity inversions between controls (a full audit only: quick scores come from
    different phase sets, so they are not comparable)."""

    @property
    def passed(self) -> bool:
        return all(v.passed for v in self.verdicts) and not self.order


class Auditor:
    """Grades trees of one suite as scorecards; golden gradings are cached per phase set."""

    def __init__(self, suite: str, seed: int = 0, confinement: Confinement | None = None) -> None:
        from benchwright.scoring import load_scorer
        from benchwright.suites import grader_for
        from benchwright.suites.grade_run import scorer_path

        self.suite, self.seed, self.confinement = suite, seed, confinement
        self.suite_dir = Path(suite)
        self.golden_dir = self.suite_dir / GOLDEN_DIR
        if not self.golden_dir.is_dir():
            raise SpecError.single(suite, f"no golden reference at {self.golden_dir}")
        self.grader = grader_for(suite)
        self.scorer = load_scorer(scorer_path(suite, self.grader.SCORER))
        self._golden: dict[tuple[str, ...] | None, tuple[Scorecard, float]] = {}

    def validate(self, control: Control) -> None:
        """Refuse a control whose phases or targets this suite does not know, and one
        whose edits no longer apply to the golden, before anything is graded."""
        problems = []
        try:
            self.grader.select_phases(control.phases)
        except SpecError as exc:
            problems += [("phases", message) for _, message in exc.problems]
        unknown = sorted(set(control.targets) - set(self.scorer.wanted))
        if unknown:
            problems.append(("targets", f"unknown check(s) {', '.join(unknown)} for scorer "
                             f"{self.scorer.name} (see scorers/{self.grader.SCORER})"))  # fmt: skip
        if problems:
            raise SpecError(control.source, problems)
        with control_tree(control, self.golden_dir):
            pass

    def card(
        self, tree: Path, phases: tuple[str, ...] | None, *, retake: bool = True
    ) -> tuple[Scorecard, float]:
        """Grade ``tree`` (``phases`` None: all) and compose; (scorecard, seconds). The
        golden and every control are graded through the golden's build phase
        (`kit.build_phase.golden_build`): its builder read the docs, so only a control's
        defect costs it a row. ``retake`` False: contended browser scenarios are not
        taken again (`kit.context.AppSettings.retake_contended`; a suite whose settings
        have no such field has no retakes to skip).

        Raises:
            HarnessError: a phase raised (the harness broke, not the tree).
        """
        from benchwright.suites.kit.build_phase import golden_build
        from benchwright.suites.report import scorecard_for

        started = time.monotonic()
        settings = self.grader.CheckSettings.from_scorer(self.scorer)
        no_retakes = {} if retake else _without_retakes(self.grader)
        with golden_build(self.suite, self.grader.grade, self.seed) as build:
            grading = self.grader.grade(
                tree, seed=self.seed, phases=phases, check_settings=settings,
                confinement=self.confinement, **no_retakes, **build,
            )  # fmt: skip
        broken = [f"{p.name} ({p.outcome})" for p in grading.phases if p.outcome[:6] == "failed"]
        if broken:  # INFRA rows would read as a control that missed: say it is the harness
            raise HarnessError(f"grading {tree} failed in phase(s) {'; '.join(broken)}")
        card = scorecard_for(grading, self.scorer, self.suite_dir.name)
        return card, time.monotonic() - started

    def golden(self, phases: tuple[str, ...] | None) -> tuple[Scorecard, float]:
        if phases not in self._golden:
            self._golden[phases] = self.card(self.golden_dir, phases)
        return self._golden[phases]

    def grade_control(self, control: Control, phases: tuple[str, ...] | None) -> Graded:
        """Grade one control's tree (``phases`` None: all) without retaking contended
        browser scenarios: it is judged on its targets alone (`isolate`), and a retake
        (up to three runs of a scenario) serves only timing rows. When a target came
        back UNAVAILABLE on a contended host, the tree is graded once more (once only),
        retakes on."""
        with control_tree(control, self.golden_dir) as tree:
            card, seconds = self.card(tree, phases, retake=False)
            contended = contended_targets(control, card)
            if contended:
                card, again = self.card(tree, phases)
                seconds += again
        return Graded(card, seconds, contended)

    def verdict(self, control: Control, golden: Scorecard, graded: Graded) -> ControlVerdict:
        verdict = judge(control, golden, graded.card, self.scorer, graded.seconds)
        return replace(verdict, regraded=graded.regraded)

    def check(self, control: Control, *, quick: bool) -> ControlVerdict:
        """Grade one control (quick: through its own phases only) and judge it."""
        phases = control.phases if quick else None
        golden, _ = self.golden(phases)
        return self.verdict(control, golden, self.grade_control(control, phases))


def _without_retakes(grader: Any) -> dict[str, Any]:
    """The grade option that turns the browser's retakes off: the suite's default
    settings with ``retake_contended`` False; nothing for a suite with no browser retakes
    to skip (kitdemo's settings have no such field)."""
    defaults = grader.GradeSettings() if hasattr(grader, "GradeSettings") else None
    if not hasattr(defaults, "retake_contended"):
        return {}
    return {"settings": replace(defaults, retake_contended=False)}


@dataclass(frozen=True)
class Graded:
    """One tree's grading, as a job hands it back to the driver."""

    card: Scorecard
    seconds: float
    regraded: tuple[str, ...] = ()
    """Targets that came back UNAVAILABLE (host contended) in a first grading."""


def contended_targets(control: Control, card: Scorecard) -> tuple[str, ...]:
    """The control's targets the host kept from being measured (UNAVAILABLE, host contended)."""
    return tuple(
        check for check in control.targets
        if card.row(check).status is Status.UNAVAILABLE
        and card.row(check).detail.startswith(HOST_CONTENDED)
    )  # fmt: skip
