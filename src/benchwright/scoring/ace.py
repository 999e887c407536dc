"""ACE's report fields, derived from a fixed-denominator scorecard.

ACE reports points got, the denominator of what could be scored, the full
(rung) denominator, the same three for the functional checks, and per-category
pass/fail/unscored/weight. ``weighted_score_pct`` is null as soon as anything is
unscored (a SKIPPED or INFRA row blocks a clean figure); ``partial_score_pct``
is then the share of what could be scored. Percentages are HALF_EVEN, one decimal.
"""

from __future__ import annotations

from typing import Any

from benchwright.model import Scorecard
from benchwright.scoring.rounding import percent


def _num(value: float) -> float | int:
    """Integral point counts print as integers (27, not 27.0)."""
    return int(value) if float(value).is_integer() else round(value, 6)


def ace_fields(card: Scorecard) -> dict[str, Any] | None:
    """The ACE field set, or None for a scorecard not made under fixed-denominator."""
    p = card.points
    if p is None:
        return None
    unscored = any(c.unscored for c in p.categories)
    return {
        "rung": card.provenance.get("rung"),
        "points": _num(p.points),
        "denominator": _num(p.denominator),
        "full_denominator": _num(p.full_denominator),
        "functional_points": _num(p.functional_points),
        "functional_denominator": _num(p.functional_denominator),
        "functional_full_denominator": _num(p.functional_full_denominator),
        "weighted_score_pct": None if unscored else percent(p.points, p.full_denominator),
        "partial_score_pct": percent(p.points, p.denominator),
        "categories": {
            c.name: {
                "pass": c.passed,
                "fail": c.failed,
                "unscored": c.unscored,
                "weight": _num(c.weight),
                "points": _num(c.points),
            }
            for c in p.categories
        },
    }
