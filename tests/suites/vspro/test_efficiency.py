"""``request_efficiency``'s shape: more requests never score higher, all else equal."""

import itertools

import pytest
from vspro_canned import grade_one, perfect, swap, trace_lines

from benchwright.services.meridian import TrapResults
from benchwright.suites.vspro.checks.efficiency import efficiency

FAILED_STALL = TrapResults(1.0, 0.0, 1.0, {"cursor_expiry": 1}, ())


@pytest.mark.parametrize("complete", [1.0, 0.9, 0.5])
@pytest.mark.parametrize("traps_ok", [True, False])
def test_more_requests_never_score_higher(complete, traps_ok):
    scores = [efficiency(n, 13, complete, traps_ok) for n in range(1, 60)]
    assert all(a >= b for a, b in itertools.pairwise(scores)), scores


def test_a_short_walk_with_a_failed_trap_does_not_score_below_a_longer_one():
    """The 410 variant of issue #13: 12 list requests and the cursor trap failed."""
    short = swap(swap(perfect(), "traps", results=FAILED_STALL), "trace",
                 lines=(*trace_lines(sync1=12),))  # fmt: skip
    longer = swap(short, "trace", lines=(*trace_lines(sync1=15),))
    a, b = grade_one(short, "request_efficiency"), grade_one(longer, "request_efficiency")
    assert a.score == 0.5 and b.score == 0.5, (a.detail, b.detail)
    assert a.detail == ("0.5: 12 list requests (optimum 13): rung 1, completeness 1 of 776, "
                        "traps not all passed (cap 0.5)")  # fmt: skip


def test_a_failed_trap_caps_the_rung_and_completeness_still_counts():
    assert efficiency(13, 13, 0.8, False) == pytest.approx(0.4)
    assert efficiency(12, 13, 0.8, True) == pytest.approx(0.8)
    assert efficiency(14, 13, 1.0, False) == 0.5
    assert efficiency(0, 13, 1.0, True) == 0.0


def test_the_decay_beyond_seven_extra_requests_never_climbs_above_the_rung_before_it():
    assert efficiency(20, 13, 1.0, True) == 0.5
    assert efficiency(21, 13, 1.0, True) == 0.5  # §09's 13/21 = 0.62 climbed above it
    assert efficiency(52, 13, 1.0, True) == 0.25
