"""Helpers checks use to turn measurements into scores: latency ladders and compounds.

A latency ladder scores a measured value on quantized rungs (<=150 ms 1.0,
<=300 0.75, <=600 0.5, <=1200 0.25, else 0). ``k_P`` (calibration) tightens only
the TOP rung: the printed spec budgets stay as written, but the full 1.0 gets
harder to earn. A compound (``gate x min(components)``) makes the weakest facet
bound the whole, so a perfect schema cannot buy back broken validation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise


@dataclass(frozen=True, slots=True)
class Rung:
    at_most: float
    score: float


@dataclass(frozen=True, slots=True)
class RungScore:
    score: float
    detail: str
    """Names the rung earned and the top rung: ``0.75: 212 ms (rung <=300 ms; top <=150 ms)``."""


DEFAULT_LATENCY_RUNGS = (Rung(150, 1.0), Rung(300, 0.75), Rung(600, 0.5), Rung(1200, 0.25))


def ladder_score(
    value: float, rungs: Sequence[Rung] = DEFAULT_LATENCY_RUNGS, k_p: float = 1.0, unit: str = "ms"
) -> RungScore:
    """Score ``value`` (lower is better) on ``rungs``, top rung budget divided by ``k_p``.

    Raises:
        ValueError: rungs not ordered by budget and score, or ``k_p`` not positive.
    """
    if k_p <= 0:
        raise ValueError(f"k_P must be > 0, got {k_p}")
    if not rungs or any(a.at_most >= b.at_most or a.score <= b.score for a, b in pairwise(rungs)):
        raise ValueError("rungs must be strictly increasing budgets with decreasing scores")
    budgets = [rungs[0].at_most / k_p, *(r.at_most for r in rungs[1:])]
    top = f"top <={budgets[0]:g} {unit}"
    for budget, rung in zip(budgets, rungs, strict=True):
        if value <= budget:
            return RungScore(
                rung.score, f"{rung.score:g}: {value:g} {unit} (rung <={budget:g} {unit}; {top})"
            )
    return RungScore(
        0.0, f"0: {value:g} {unit} (beyond the last rung <={budgets[-1]:g} {unit}; {top})"
    )


def compound(gate: float, *components: float) -> float:
    """``gate x min(components)``: the weakest facet bounds the whole; no gate, no credit.

    Raises:
        ValueError: no components, or a value outside [0, 1].
    """
    if not components:
        raise ValueError("compound needs at least one component")
    for value in (gate, *components):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"compound inputs must be in [0, 1], got {value}")
    return gate * min(components)
