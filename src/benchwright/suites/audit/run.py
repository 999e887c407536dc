"""Running an audit: grade the golden (cached per phase set) and each control's tree."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from benchwright.errors import HarnessError, SpecError
from benchwright.model import Scorecard, Status
from benchwright.sandbox import Confinement
from benchwright.scoring.contention import HOST_CONTENDED
from benchwright.suites.audit.controls import GOLDEN_DIR, Control, control_tree, load_controls
from benchwright.suites.audit.judge import ControlVerdict, judge, order_problems


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

    def card(self, tree: Path, phases: tuple[str, ...] | None) -> tuple[Scorecard, float]:
        """Grade ``tree`` (``phases`` None: all) and compose; (scorecard, seconds).

        Raises:
            HarnessError: a phase raised (the harness broke, not the tree).
        """
        from benchwright.suites.report import scorecard_for

        started = time.monotonic()
        settings = self.grader.CheckSettings.from_scorer(self.scorer)
        grading = self.grader.grade(
            tree, seed=self.seed, phases=phases, check_settings=settings,
            confinement=self.confinement,
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

    def check(self, control: Control, *, quick: bool) -> ControlVerdict:
        """Grade one control (quick: through its own phases only) and judge it; graded
        once more (once only) when a target came back UNAVAILABLE on a contended host."""
        phases = control.phases if quick else None
        golden, _ = self.golden(phases)
        with control_tree(control, self.golden_dir) as tree:
            card, seconds = self.card(tree, phases)
            contended = contended_targets(control, card)
            if contended:
                card, again = self.card(tree, phases)
                seconds += again
        verdict = judge(control, golden, card, self.scorer, seconds)
        return replace(verdict, regraded=contended)


def contended_targets(control: Control, card: Scorecard) -> tuple[str, ...]:
    """The control's targets the host kept from being measured (UNAVAILABLE, host contended)."""
    return tuple(
        check for check in control.targets
        if card.row(check).status is Status.UNAVAILABLE
        and card.row(check).detail.startswith(HOST_CONTENDED)
    )  # fmt: skip


def audit(
    suite: str,
    *,
    only: list[str] | None = None,
    quick: bool = False,
    seed: int = 0,
    progress: Callable[[str], Any] | None = None,
    confinement: Confinement | None = None,
) -> AuditResult:
    """Grade the golden and every control (``quick``: each through its own phases only).

    Raises:
        SpecError: unknown suite or control, an invalid control file (unknown phase or
            target check), or an edit that no longer applies to the golden reference (all
            checked before anything is graded).
    """
    auditor = Auditor(suite, seed, confinement)
    controls = load_controls(auditor.suite_dir, only)
    for control in controls:  # every control must be valid before minutes are spent grading
        auditor.validate(control)
    say = progress or (lambda _line: None)
    golden_seconds = 0.0
    if not quick:
        say("grading the golden reference (all phases)")
        golden_seconds = auditor.golden(None)[1]
    verdicts = []
    for n, control in enumerate(controls, 1):
        through = f" through {', '.join(control.phases)}" if quick else ""
        say(f"grading control {n}/{len(controls)} {control.name}{through}")
        verdicts.append(auditor.check(control, quick=quick))
    golden_score = auditor.golden(None)[0].score if not quick else float("nan")
    order = () if quick else order_problems(verdicts)
    return AuditResult(suite, golden_score, golden_seconds, tuple(verdicts), quick, order)
