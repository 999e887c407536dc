"""Published figures: HALF_EVEN rounding, applied at every printed stage.

The seeds publish arithmetic a reader can redo by hand ("0.88 x 0.9875 +
0.12 x 0.9286 x 1.0 = 0.9804", then "0.9804 x 0.6 = 0.5882"): each stage is
computed from the *printed* figures of the stage before. Rounding every stage
the verdict prints, and nothing else, makes the published score equal that
printed arithmetic digit for digit. Rounding is monotone, so it never lets a
better run score lower.
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal


def publish(value: float, digits: int) -> float:
    """``value`` rounded HALF_EVEN to ``digits`` decimals (exact decimal, no binary drift)."""
    quantum = Decimal(1).scaleb(-digits)
    return float(Decimal(repr(value)).quantize(quantum, rounding=ROUND_HALF_EVEN))


def percent(part: float, whole: float) -> float | None:
    """``part / whole`` in percent, one decimal, HALF_EVEN (ACE's rule); None if whole is 0."""
    if whole <= 0:
        return None
    exact = Decimal(repr(part)) / Decimal(repr(whole)) * 100
    return float(exact.quantize(Decimal("0.1"), rounding=ROUND_HALF_EVEN))
