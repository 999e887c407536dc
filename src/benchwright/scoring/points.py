"""Fixed-denominator bookkeeping: points got against what could be and what was wanted.

ACE reports three numbers per run: points, the denominator of what could be
scored, and the full (rung) denominator. They differ only when a row was
SKIPPED, INFRA or UNAVAILABLE, which is exactly when a clean 100 % is blocked.
"""

from __future__ import annotations

from collections.abc import Iterable

from benchwright.model import CategoryTally, PointsSummary, ScoredRow, Status
from benchwright.scoring.scorer import Scorer


def _sums(rows: list[ScoredRow]) -> tuple[float, float, float]:
    points = sum(r.weight * (r.counted or 0.0) for r in rows)
    scorable = sum(r.weight for r in rows if not r.status.is_harness_fault)
    return points, scorable, sum(r.weight for r in rows)


def _tally(name: str, rows: list[ScoredRow]) -> CategoryTally:
    unscored = sum(r.status.is_harness_fault for r in rows)
    passed = sum(r.status is Status.PASS for r in rows)
    points, _, weight = _sums(rows)
    return CategoryTally(name, passed, len(rows) - passed - unscored, unscored, weight, points)


def points_summary(scorer: Scorer, rows: Iterable[ScoredRow]) -> PointsSummary:
    """Points, denominators and per-category tallies over the weight-carrying rows."""
    weighted = [r for r in rows if r.role == "weighted"]
    category = {c: e.category for c, e in scorer.config.checks.items()}
    names = list(dict.fromkeys(category.get(r.check_id) or "uncategorized" for r in weighted))
    by_name = {n: [r for r in weighted if (category.get(r.check_id) or "uncategorized") == n]
               for n in names}  # fmt: skip
    functional = [
        r for r in weighted if category.get(r.check_id) in scorer.config.functional_categories
    ]
    points, denominator, full = _sums(weighted)
    f_points, f_denominator, f_full = _sums(functional)
    return PointsSummary(
        points=points,
        denominator=denominator,
        full_denominator=full,
        functional_points=f_points,
        functional_denominator=f_denominator,
        functional_full_denominator=f_full,
        categories=tuple(_tally(n, by_name[n]) for n in names),
    )
