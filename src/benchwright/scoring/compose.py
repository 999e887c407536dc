"""`compose(rows, scorer) -> Scorecard`: the whole arithmetic, pure (no I/O, no clock).

    composed = sum(component.weight x component.value) + excellence slice
    score    = composed x product(critical factors that fired)

Every printed stage is rounded to the scorer's ``publish_digits`` (HALF_EVEN)
and the next stage uses the printed figure (see `benchwright.scoring.rounding`).
"""

from __future__ import annotations

from collections.abc import Iterable

from benchwright.model import CheckResult, Flags, Scorecard, ScoredRow
from benchwright.scoring.attribution import attribute, blocked_rows
from benchwright.scoring.criticals import critical_factors
from benchwright.scoring.excellence import excellence
from benchwright.scoring.points import points_summary
from benchwright.scoring.policy import resolve_rows
from benchwright.scoring.rounding import publish
from benchwright.scoring.scorer import Scorer
from benchwright.scoring.tiers import all_tiers, components

UNCALIBRATED_BANNER = "UNCALIBRATED: thresholds are not a frozen calibration fit ({version})"


def _provenance(scorer: Scorer) -> dict[str, str]:
    found = {"scorer_config": scorer.source}
    if scorer.thresholds:
        found["thresholds_sha256"] = scorer.thresholds.sha256
        found["thresholds_pin"] = scorer.thresholds.pin
        found["thresholds_file"] = scorer.thresholds.source
    if scorer.rung:
        found["rung"] = scorer.rung
    return found


def _flags(scorer: Scorer, rows: tuple[ScoredRow, ...], score: float) -> Flags:
    faulty = any(r.status.is_harness_fault for r in rows)
    return Flags(
        excellent=score >= scorer.config.excellent_at and not faulty,
        partial=faulty,
        uncalibrated=scorer.uncalibrated,
    )


def compose(results: Iterable[CheckResult], scorer: Scorer) -> Scorecard:
    """The scorecard of ``results`` under ``scorer``; wanted checks with no row are FAIL."""
    digits = scorer.config.publish_digits
    results = list(results)
    rows = resolve_rows(results, scorer)
    by_id = {r.check_id: r for r in rows}
    tiers = all_tiers(scorer, by_id)
    tier_by_name = {t.name: t for t in tiers}
    parts = components(scorer, tier_by_name)
    slice_ = excellence(scorer, by_id, tier_by_name)
    composed = publish(
        sum(c.weight * c.value for c in parts) + (slice_.slice if slice_ else 0.0), digits
    )
    factors = critical_factors(scorer, by_id)
    score = composed
    for factor in factors:
        if factor.applied:
            score *= factor.factor
    score = publish(score, digits)
    fixed = scorer.config.policy == "fixed-denominator"
    return Scorecard(
        scorer=scorer.name,
        scorer_version=scorer.version,
        policy=scorer.config.policy,
        rows=rows,
        tiers=tiers,
        components=parts,
        excellence=slice_,
        composed=composed,
        factors=factors,
        attribution=attribute(scorer, by_id, blocked_rows(results)),
        score=score,
        flags=_flags(scorer, rows, score),
        unavailable=tuple(r.check_id for r in rows if r.status.is_harness_fault),
        banner=UNCALIBRATED_BANNER.format(version=scorer.version) if scorer.uncalibrated else None,
        points=points_summary(scorer, rows) if fixed else None,
        provenance=_provenance(scorer),
    )
