"""The E rows graded from other rows (no browser needed)."""

from __future__ import annotations

from collections.abc import Mapping

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, g, result, unavailable

HARD = ("h_conflict_dance", "h_durability", "h_sync_discipline", "h_webhook_ledger",
        "request_efficiency")  # fmt: skip
MASTERY = 0.90


@app_check("e_hard_mastery", derived=True)
def e_hard_mastery(rows: Mapping[str, CheckResult]) -> CheckResult:
    """HARD mean >= 0.90: 1.0; below, (mean / 0.90) x 0.5; no measured HARD row: UNAVAILABLE."""
    measured = [rows[c].score for c in HARD if c in rows and not rows[c].status.is_harness_fault
                and rows[c].status.value != "NOT_ATTEMPTED"]  # fmt: skip
    if not measured:
        return unavailable("e_hard_mastery", "no measured HARD row")
    mean = sum(measured) / len(measured)
    score = 1.0 if mean >= MASTERY else mean / MASTERY * 0.5
    rung = "rung >=0.90" if mean >= MASTERY else "below the 0.90 cliff: mean/0.90 x 0.5"
    return result("e_hard_mastery", score, f"{g(score)}: HARD mean {mean:.4f} over "
                  f"{len(measured)} rows ({rung})")  # fmt: skip
