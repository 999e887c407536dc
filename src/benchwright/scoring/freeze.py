"""The freeze gate: the ruler must measure the golden reference before it measures anyone.

The reference app's rows must clear 0.95 on every check that is neither a
diagnostic nor calibration-owned (those cut points are *set* from the reference,
so grading it against them would be circular), with no unmeasured row and the
excellence gate fully open; and the scorer must pass its monotonicity selftest.
Otherwise the gate refuses: a bar the reference cannot clear is a harness
defect until proven otherwise. Pure: the caller supplies the date and writes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from benchwright.model import CheckResult, Scorecard
from benchwright.scoring.compose import compose
from benchwright.scoring.scorer import Scorer
from benchwright.scoring.selftest import SelftestResult, selftest

FREEZE_FLOOR = 0.95


@dataclass(frozen=True, slots=True)
class FreezeDecision:
    card: Scorecard
    selftest: SelftestResult
    problems: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.problems


def _sweep(card: Scorecard, exempt: set[str]) -> list[str]:
    problems = []
    for row in card.rows:
        if row.status.is_harness_fault:
            why = f" ({row.detail})" if row.detail else ""
            problems.append(
                f"{row.check_id} is {row.status.value}{why}: the reference must be measured"
            )
        elif row.role != "diagnostic" and row.check_id not in exempt:
            counted = row.counted or 0.0
            if counted < FREEZE_FLOOR:
                problems.append(f"{row.check_id} scores {counted:.4f} < {FREEZE_FLOOR}")
    return problems


def freeze_check(reference: Iterable[CheckResult], scorer: Scorer) -> FreezeDecision:
    """Selftest first, then the reference sweep; every failure is listed."""
    tested = selftest(scorer)
    problems = [f"selftest: {p}" for p in tested.problems]
    card = compose(reference, scorer)
    problems += _sweep(card, set(scorer.config.calibration_owned))
    if card.excellence and card.excellence.gate_fraction < 1.0:
        shut = [c.name for c in card.excellence.conditions if not c.met]
        problems.append(
            f"excellence gate {card.excellence.gate_fraction:.4f} < 1: {', '.join(shut)}"
        )
    return FreezeDecision(card, tested, tuple(problems))


def freeze_marker(decision: FreezeDecision, scorer: Scorer, date: str) -> dict[str, Any]:
    """The marker a passed gate writes: what was frozen, when, against which thresholds."""
    return {
        "scorer": scorer.name,
        "scorer_version": scorer.version,
        "score": decision.card.score,
        "date": date,
        "thresholds_sha256": scorer.thresholds.sha256 if scorer.thresholds else None,
        "selftest": dict(decision.selftest.scores),
    }
