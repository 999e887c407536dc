"""Monotonicity selftest: single-defect runs must order by how bad the defect is.

From a perfect run, the scorer's config names one synthetic defect per class
(which rows drop, and to what). Composed under the scorer itself, their scores
must order strictly wrong-money < data-loss < dead-flow < console-error < minor
< cosmetic < perfect (= 1.0). A weighting that lets a cosmetic slip cost more
than lost data is a broken ruler; the freeze gate refuses to freeze it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from benchwright.model import CheckResult, Status
from benchwright.scoring.compose import compose
from benchwright.scoring.config import DEFECT_ORDER
from benchwright.scoring.scorer import Scorer


@dataclass(frozen=True, slots=True)
class SelftestResult:
    perfect: float
    scores: tuple[tuple[str, float], ...]
    """(defect class, score) in worst-first order, for the classes the config names."""
    problems: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.problems


def perfect_rows(scorer: Scorer) -> list[CheckResult]:
    """Every wanted check at PASS 1.0: what the reference app should earn."""
    return [CheckResult(c, Status.PASS, 1.0, "synthetic perfect row") for c in scorer.wanted]


def defect_rows(scorer: Scorer, overrides: dict[str, float]) -> list[CheckResult]:
    """The perfect run with ``overrides`` applied (a row below 1.0 becomes FAIL)."""
    rows = []
    for row in perfect_rows(scorer):
        if row.check_id in overrides:
            score = overrides[row.check_id]
            status = Status.PASS if score >= 1.0 else Status.FAIL
            row = CheckResult(row.check_id, status, score, "synthetic single defect")
        rows.append(row)
    return rows


def selftest(scorer: Scorer) -> SelftestResult:
    """Compose the perfect run and each configured defect; report every inversion."""
    problems = []
    perfect = compose(perfect_rows(scorer), scorer).score
    if perfect != 1.0:
        problems.append(f"a perfect run scores {perfect}, not exactly 1.0")
    defects = scorer.config.selftest
    missing = [c for c in DEFECT_ORDER if c not in defects]
    if missing:
        problems.append(f"no synthetic defect configured for: {', '.join(missing)} (selftest.*)")
    scores = tuple(
        (name, compose(defect_rows(scorer, defects[name]), scorer).score)
        for name in DEFECT_ORDER
        if name in defects
    )
    ladder = [*scores, ("perfect", perfect)]
    for (worse, low), (better, high) in pairwise(ladder):
        if not low < high:
            problems.append(f"inversion: {worse} scores {low:.4f}, not below {better} ({high:.4f})")
    return SelftestResult(perfect, scores, tuple(problems))
