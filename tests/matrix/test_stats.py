"""Wilson intervals and Newcombe's difference against published values."""

from __future__ import annotations

import pytest

from benchwright.matrix import Rate, difference_interval, significant
from benchwright.matrix.stats import z_for


@pytest.mark.parametrize(
    ("passed", "total", "low", "high"),
    [
        (4, 5, 0.3755, 0.9638),  # one slip in five: 100 % is outside, 40 % is inside
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (81, 263, 0.2553, 0.3662),  # Newcombe (1998), table I
    ],
)
def test_wilson_interval_matches_published_values(passed, total, low, high):
    got = Rate(passed, total).interval
    assert got == pytest.approx((low, high), abs=1e-4)


def test_nothing_measured_is_the_whole_unit_interval():
    assert Rate(0, 0).interval == (0.0, 1.0)
    assert Rate(0, 0).value == 0.0


def test_newcombe_difference_matches_published_example():
    # Newcombe (1998), example (a): 56/70 vs 48/80 -> difference 0.2, CI (0.0524, 0.3339).
    assert difference_interval(Rate(56, 70), Rate(48, 80)) == pytest.approx(
        (0.0524, 0.3339), abs=1e-4
    )
    assert significant(Rate(56, 70), Rate(48, 80))


def test_one_task_of_five_is_not_significant_but_a_collapse_is():
    assert not significant(Rate(4, 5), Rate(5, 5))
    assert not significant(Rate(5, 6), Rate(6, 6))
    assert significant(Rate(2, 6), Rate(6, 6))
    assert significant(Rate(0, 20), Rate(20, 20))


def test_confidence_sets_the_width():
    assert z_for(0.95) == pytest.approx(1.95996, abs=1e-4)
    wide, narrow = Rate(5, 10, z_for(0.99)).interval, Rate(5, 10, z_for(0.80)).interval
    assert wide[0] < narrow[0] and wide[1] > narrow[1]
