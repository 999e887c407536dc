"""The excellence slice: weight x gate_fraction x mean of the excellence tier.

The gate unlocks the slice in proportion to named perfection conditions. Two
ways to count are in use: sb-6 counts conditions that are fully met
(``count_perfect``: 13 of 14 -> 0.9286); sb-7 averages each condition's unlocked
share (``mean_share``: a journey at 0.714 unlocks 0.714 of its share), which is
why its worked example's 0.904 is not a count. A special condition (zero console
errors across named scenarios) is binary and proven only by its own evidence
row: a missing or unmeasured row fails it honestly instead of passing vacuously.

One exception: a timing row a contended host left unproven (``host contended: ...``,
`benchwright.scoring.contention`), or one whose top rung the calibration host could not
reach (``host-bound: ...``), is *excluded* from the gate, as it is from its tier
mean: it proves nothing about the app either way, so it neither unlocks nor locks a
share (the run still loses the excellent flag and any freeze, as every unavailable row
does).
"""

from __future__ import annotations

from collections.abc import Mapping

from benchwright.model import ConditionResult, ExcellenceResult, ScoredRow, TierMean
from benchwright.scoring.config import ConditionConfig
from benchwright.scoring.contention import HOST_BOUND, HOST_CONTENDED
from benchwright.scoring.rounding import publish
from benchwright.scoring.scorer import Scorer

EXACT = 1e-12


def _condition(cond: ConditionConfig, row: ScoredRow | None, mode: str) -> ConditionResult:
    if row is not None and row.counted is None and row.detail.startswith(HOST_CONTENDED):
        return ConditionResult(cond.name, 0.0, False, "excluded: host contended", excluded=True)
    if row is not None and row.counted is None and row.detail.startswith(HOST_BOUND):
        return ConditionResult(cond.name, 0.0, False, "excluded: host-bound", excluded=True)
    if row is None or row.counted is None:
        status = "no row" if row is None else row.status.value
        return ConditionResult(cond.name, 0.0, False, f"unproven ({status}): fails honestly")
    value = row.counted
    if cond.special:
        met = value >= 1.0 - EXACT
        scope = f" across {', '.join(cond.scenarios)}" if cond.scenarios else ""
        return ConditionResult(cond.name, float(met), met, f"evidence {value:g}{scope}")
    met = abs(value - cond.value) <= EXACT if cond.op == "==" else value >= cond.value - EXACT
    share = float(met) if mode == "count_perfect" else min(1.0, value / cond.value)
    return ConditionResult(cond.name, share, met, f"{cond.check} = {value:.4g}")


def excellence(
    scorer: Scorer, rows: Mapping[str, ScoredRow], tiers: Mapping[str, TierMean]
) -> ExcellenceResult | None:
    """The slice for ``rows``, or None for a scorer without one (ACE, sb-5.2)."""
    config = scorer.config.excellence
    if config is None:
        return None
    digits = scorer.config.publish_digits
    results = tuple(_condition(c, rows.get(c.row_id), config.gate) for c in config.conditions)
    judged = [r for r in results if not r.excluded]
    gate = publish(sum(r.share for r in judged) / len(judged), digits) if judged else 0.0
    e_mean = publish(tiers[config.tier].mean or 0.0, digits)
    return ExcellenceResult(
        tier=config.tier,
        weight=config.weight,
        gate_mode=config.gate,
        gate_fraction=gate,
        e_mean=e_mean,
        slice=config.weight * gate * e_mean,
        conditions=results,
    )
