"""Tier means (gamma-transformed, weighted by check weight) and the components they form."""

from __future__ import annotations

from collections.abc import Mapping

from benchwright.model import ComponentValue, ScoredRow, TierMean
from benchwright.scoring.rounding import publish
from benchwright.scoring.scorer import Scorer


def tier_mean(scorer: Scorer, name: str, rows: Mapping[str, ScoredRow]) -> TierMean:
    """Mean of ``score ** gamma`` over the tier's counted rows; harness faults are excluded.

    A gamma above 1 punishes near-misses harder; every weight-carrying check uses its
    tier's gamma so that calibration can sharpen a tier without touching its checks.
    """
    gamma = scorer.gamma(name)
    total = weight_sum = 0.0
    excluded = []
    measured = 0
    for check in scorer.members(name):
        row = rows[check]
        if row.counted is None:
            excluded.append(check)
            continue
        measured += 1
        total += row.weight * row.counted**gamma
        weight_sum += row.weight
    mean = total / weight_sum if weight_sum > 0 else None
    weight = scorer.config.tiers[name].weight or 0.0
    return TierMean(name, weight, gamma, mean, measured, tuple(excluded))


def all_tiers(scorer: Scorer, rows: Mapping[str, ScoredRow]) -> tuple[TierMean, ...]:
    return tuple(tier_mean(scorer, name, rows) for name in scorer.config.tiers)


def components(scorer: Scorer, tiers: Mapping[str, TierMean]) -> tuple[ComponentValue, ...]:
    """Each component's weighted sum of its tier means; an unmeasured tier contributes 0."""
    digits = scorer.config.publish_digits
    values = []
    for name, comp in scorer.config.components.items():
        value = sum(tiers[t].weight * (tiers[t].mean or 0.0) for t in comp.tiers)
        values.append(ComponentValue(name, comp.weight, publish(value, digits)))
    return tuple(values)
