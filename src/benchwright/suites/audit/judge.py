"""Judging controls: each against the golden, and all of them against each other."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from benchwright.model import Scorecard, Status
from benchwright.scoring import Scorer
from benchwright.scoring.config import DEFECT_ORDER
from benchwright.scoring.selftest import selftest
from benchwright.suites.audit.controls import REPORT_ONLY, Control
from benchwright.suites.audit.isolate import isolated_score

MEASURED = (Status.PASS, Status.FAIL)


@dataclass(frozen=True)
class TargetFigure:
    check_id: str
    golden: float
    control: float
    status: str
    detail: str
    """The control's row detail: the rung earned and what was seen."""


@dataclass(frozen=True)
class ControlVerdict:
    """What one control scored against the golden and which expectations failed."""

    control: Control
    score: float
    """The control's full score, every row as graded."""
    isolated: float
    """The golden's rows with the control's targets in their place (see `isolate`): what
    the defect alone costs. Expectation 2 and the severity order are judged on it."""
    golden_score: float
    targets: tuple[TargetFigure, ...]
    factors: tuple[str, ...]
    """Critical factors below the golden's, as ``check xF``."""
    problems: tuple[str, ...]
    seconds: float = 0.0
    regraded: tuple[str, ...] = ()
    """Targets that first came back UNAVAILABLE on a contended host (the control was
    graded once more; these figures are from the second grading)."""

    @property
    def passed(self) -> bool:
        return not self.problems


def judge(
    control: Control, golden: Scorecard, card: Scorecard, scorer: Scorer, seconds: float = 0.0
) -> ControlVerdict:
    """Check a control's scorecard against its expectations and the golden's scorecard."""
    problems, figures = [], []
    for check in control.targets:
        base, row = golden.row(check), card.row(check)
        figures.append(TargetFigure(check, base.score, row.score, row.status.name, row.detail))
        if row.status not in MEASURED:
            problems.append(f"{check} was not measured ({row.status.name}: {row.detail})")
        elif row.score >= base.score:
            problems.append(f"{check} did not drop ({row.score:.4f}, golden {base.score:.4f})")
        ceiling = control.target_at_most.get(check)
        if ceiling is not None and row.score > ceiling:
            problems.append(f"{check} {row.score:.4f} is above its ceiling {ceiling:g}")
    isolated = isolated_score(control, golden, card, scorer)
    if control.severity == REPORT_ONLY:
        if abs(isolated - golden.score) > 1e-9:
            problems.append(f"isolated score {isolated:.4f} moved from the golden's "
                            f"{golden.score:.4f}: a {REPORT_ONLY} control must leave the "
                            "score untouched")  # fmt: skip
    elif isolated >= golden.score:
        problems.append(f"isolated score {isolated:.4f} is not below the golden's "
                        f"{golden.score:.4f}")  # fmt: skip
    if control.score_at_most is not None and card.score > control.score_at_most:
        problems.append(f"score {card.score:.4f} is above its ceiling {control.score_at_most:g}")
    applied = [f for f in card.factors if f.applied]
    base = {f.check_id: f.factor for f in golden.factors if f.applied}
    if control.critical and not [
        f for f in applied if f.check_id in control.targets and f.factor < base.get(f.check_id, 1)
    ]:
        problems.append("critical, but no critical factor < 1 (below the golden's) names a target")
    factors = tuple(
        f"{f.check_id} x{f.factor:.4f}" for f in applied if f.factor < base.get(f.check_id, 1)
    )
    return ControlVerdict(
        control, card.score, isolated, golden.score, tuple(figures), factors, tuple(problems),
        seconds,
    )  # fmt: skip


def order_problems(verdicts: Sequence[ControlVerdict]) -> tuple[str, ...]:
    """Every pair ranked against its declared severity, on isolated scores: a graver
    control whose defect alone does not cost strictly more than a lighter one's; and the
    same for the consequence classes of the controls that declare one (§11's order,
    `DEFECT_ORDER`). Only full gradings are comparable this way."""
    problems = []
    for grave in verdicts:
        for light in verdicts:
            if grave.isolated < light.isolated:
                continue
            if grave.control.rank < light.control.rank:
                problems.append(_inversion(grave, light, grave.control.severity,
                                           light.control.severity))  # fmt: skip
            if _consequence_graver(grave.control, light.control):
                problems.append(_inversion(grave, light, grave.control.consequence,
                                           light.control.consequence))  # fmt: skip
    return tuple(problems)


def _consequence_graver(grave: Control, light: Control) -> bool:
    """True when both declare a class and ``grave``'s comes first in `DEFECT_ORDER`; a
    control that declares none is never compared by consequence."""
    if grave.consequence not in DEFECT_ORDER or light.consequence not in DEFECT_ORDER:
        return False
    return DEFECT_ORDER.index(grave.consequence) < DEFECT_ORDER.index(light.consequence)


def _inversion(grave: ControlVerdict, light: ControlVerdict, said: object, than: object) -> str:
    return (f"{grave.control.name} ({said}) isolated {grave.isolated:.4f}, not below "
            f"{light.control.name} ({than}) {light.isolated:.4f}")  # fmt: skip


def ruler_problems(scorer: Scorer) -> tuple[str, ...]:
    """The scorer's own monotonicity selftest (one synthetic defect per class of
    `DEFECT_ORDER`, each costing strictly more than the next): a full audit holds the
    ruler's order before it holds the controls' to it, so an inverted scorer fails the
    audit even where no control represents the classes it inverts. A scorer that configures
    no synthetic defect at all (a kit suite's, which prices no consequence classes) has no
    ruler to hold: only a partial selftest is a problem."""
    if not scorer.config.selftest:
        return ()
    return tuple(f"scorer selftest: {p}" for p in selftest(scorer).problems)
