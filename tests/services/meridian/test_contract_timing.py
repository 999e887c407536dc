"""The contract's own delays (no shrinking): Retry-After 2 s in both forms, a 12 s stall."""

from __future__ import annotations

import pytest

from benchwright.services.meridian import MeridianMock, Timing

from .walker import Walker, list_lines


@pytest.mark.slow
def test_a_10_second_client_survives_the_default_traps_with_full_marks():
    timing = Timing()
    assert (timing.stall_secs, timing.retry_header(), timing.documented_client_timeout) == (
        12.0,
        "2",
        10.0,
    )
    with MeridianMock() as mock:
        mock.set_visible_cap(250)  # three pages: the waits, not the paging, are under test
        mock.arm_stall()
        Walker(mock.base_url, timeout=timing.documented_client_timeout).walk()
        traps = mock.trap_results()
        lines = list_lines(mock.trace.lines())
    assert (traps.retry_after, traps.cursor_expiry, traps.stall) == (1.0, 1.0, 1.0), traps.details
    rate_limited = [line for line in lines if line["status"] == 429]
    assert next(line["retry_after"] for line in rate_limited) == "2"
    assert rate_limited[1]["retry_after"].endswith(" GMT")
    held = next(line for line in lines if "stall_began_t" in line)
    assert held["stall_secs"] == 12.0 and held["stall_client_dropped"]
    assert 9.5 <= held["stall_held_secs"] < 12.0
