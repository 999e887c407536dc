"""Pass rates with their uncertainty: Wilson score intervals and Newcombe's difference.

A pass rate measured on a handful of tasks is a noisy number: 4 of 5 and 5 of 5
are both consistent with a true rate of 90 %. The Wilson interval stays inside
[0, 1] and behaves at 0 % and 100 %, where the textbook (Wald) interval
collapses to a point. Newcombe's hybrid score interval for a difference of two
rates is built from the two Wilson intervals, so "the intervals say it is real"
has one meaning throughout: the interval of the difference excludes zero.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist


def z_for(confidence: float) -> float:
    """The two-sided normal quantile for ``confidence`` (0.95 gives 1.96)."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


@dataclass(frozen=True)
class Rate:
    """``passed`` of ``total`` trials, with its Wilson interval at ``z``."""

    passed: int
    total: int
    z: float = 1.959963984540054

    @property
    def value(self) -> float:
        return self.passed / self.total if self.total else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson score interval; (0, 1) when nothing was measured."""
        if self.total == 0:
            return 0.0, 1.0
        n, p, z2 = self.total, self.value, self.z * self.z
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = self.z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        # Exact at the edges: rounding must not put 0/n or n/n outside its own interval.
        low = 0.0 if self.passed == 0 else max(0.0, centre - half)
        high = 1.0 if self.passed == self.total else min(1.0, centre + half)
        return low, high


def difference_interval(current: Rate, baseline: Rate) -> tuple[float, float]:
    """Newcombe's (1998, method 10) interval for ``current - baseline``."""
    (l1, u1), (l2, u2) = current.interval, baseline.interval
    p1, p2 = current.value, baseline.value
    d = p1 - p2
    return (
        d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
        d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2),
    )


def significant(current: Rate, baseline: Rate) -> bool:
    """True when the difference's interval excludes zero: the change is not noise."""
    low, high = difference_interval(current, baseline)
    return low > 0 or high < 0
