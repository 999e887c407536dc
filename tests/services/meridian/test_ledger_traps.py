"""`trap_results()` read in both directions by scripted clients over real sockets."""

from __future__ import annotations

import contextlib
import threading
import time
from dataclasses import replace

import httpx

from .walker import Walker, skip_traps

SMALL = 250  # rows visible in these tests: three pages keep the walks short


def test_a_perfect_client_passes_both_rate_limits_and_the_restart(mock):
    mock.set_visible_cap(SMALL)
    Walker(mock.base_url).walk()
    traps = mock.trap_results()
    assert (traps.retry_after, traps.cursor_expiry) == (1.0, 1.0)
    assert traps.instances == {"retry_after": 2, "cursor_expiry": 1, "stall": 0}
    assert traps.stall == 0.0  # nothing was held, so nothing was survived


def test_ignoring_retry_after_in_seconds_form_scores_0(mock):
    mock.set_visible_cap(SMALL)
    Walker(mock.base_url, honour_seconds=False).walk()
    traps = mock.trap_results()
    assert traps.retry_after == 0.0 and traps.cursor_expiry == 1.0
    assert any("(seconds)" in d and "needs >=" in d for d in traps.details)


def test_ignoring_retry_after_in_date_form_scores_0(mock):
    mock.set_visible_cap(SMALL)
    Walker(mock.base_url, honour_date=False).walk()
    assert mock.trap_results().retry_after == 0.0


def test_reusing_a_dead_cursor_scores_0(mock):
    mock.set_visible_cap(SMALL)
    Walker(mock.base_url, restart_on_410=False).walk()
    traps = mock.trap_results()
    assert traps.cursor_expiry == 0.0 and traps.retry_after == 1.0
    assert "410" in traps.details[1] and "did not restart" in traps.details[1]


def test_never_coming_back_after_a_429_scores_0(mock, client):
    mock.set_visible_cap(SMALL)
    client.get("/v2/payments")
    assert client.get("/v2/payments").status_code == 429
    traps = mock.trap_results()
    assert traps.retry_after == 0.0 and traps.cursor_expiry == 0.0  # no 410 instance at all
    assert len(traps.details) == 1 and traps.details[0].endswith("next list request never came")


def test_min_over_instances_one_early_retry_in_a_later_phase_zeroes_it(mock, client):
    mock.set_visible_cap(SMALL)
    Walker(mock.base_url).walk()
    mock.mark_phase("again")
    Walker(mock.base_url, honour_seconds=False).walk()
    traps = mock.trap_results()
    assert traps.instances["retry_after"] == 4 and traps.retry_after == 0.0


def test_timing_out_and_retrying_inside_the_hold_scores_1(mock):
    mock.set_visible_cap(SMALL)
    skip_traps(mock)
    mock.arm_stall()
    Walker(mock.base_url, timeout=0.3).walk()
    traps = mock.trap_results()
    assert traps.stall == 1.0, traps.details
    held = [line for line in mock.trace.lines() if "stall_began_t" in line]
    assert len(held) == 1 and held[0]["status"] == 0 and held[0]["stall_client_dropped"]


def test_waiting_the_stall_out_scores_half(mock):
    mock.set_visible_cap(SMALL)
    skip_traps(mock)
    mock.arm_stall()
    Walker(mock.base_url, timeout=5.0).walk()
    traps = mock.trap_results()
    assert traps.stall == 0.5 and "waited it out" in traps.details[0]
    held = next(line for line in mock.trace.lines() if "stall_began_t" in line)
    assert held["status"] == 200 and held["stall_held_secs"] >= 0.8


def test_giving_up_on_the_held_page_scores_0(mock):
    mock.set_visible_cap(SMALL)
    skip_traps(mock)
    mock.arm_stall()
    walker = Walker(mock.base_url, timeout=0.3, retry_on_timeout=False)
    with contextlib.suppress(httpx.TimeoutException):
        walker.walk()
    traps = mock.trap_results()
    assert traps.stall == 0.0 and traps.instances["stall"] == 1


def test_retrying_only_after_the_hold_ended_scores_half(mock, client):
    mock.set_visible_cap(SMALL)
    skip_traps(mock)
    mock.arm_stall()
    last = client.get("/v2/payments", params={"limit": 100}).json()
    while last["next_cursor"]:
        cursor = last["next_cursor"]
        try:
            last = client.get(
                "/v2/payments", params={"limit": 100, "cursor": cursor}, timeout=0.3
            ).json()
        except httpx.TimeoutException:
            time.sleep(0.8)  # past the 0.8 s hold before retrying
            last = client.get("/v2/payments", params={"limit": 100, "cursor": cursor}).json()
    assert mock.trap_results().stall == 0.5


def test_the_ledger_waits_for_an_in_flight_stall(mock):
    mock.set_visible_cap(SMALL)
    skip_traps(mock)
    mock.arm_stall()
    walk = threading.Thread(target=Walker(mock.base_url, timeout=5.0).walk, daemon=True)
    walk.start()
    deadline = time.monotonic() + 5
    while mock.store.holding == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert mock.store.holding == 1
    assert mock.trap_results().stall == 0.5  # not 0: it waited for the verdict
    walk.join(5)


def test_the_stall_fires_once_per_phase_while_armed(mock):
    mock.set_visible_cap(SMALL)
    skip_traps(mock)
    mock.arm_stall(secs=0.2)
    Walker(mock.base_url).walk()
    Walker(mock.base_url).walk()
    skip_traps(mock)
    Walker(mock.base_url).walk()
    mock.arm_stall(on=False)
    skip_traps(mock)
    Walker(mock.base_url).walk()
    held = [line for line in mock.trace.lines() if "stall_began_t" in line]
    assert len(held) == 2 and all(line["stall_secs"] == 0.2 for line in held)


def test_the_held_line_is_read_even_when_the_vendor_records_it_late(mock, monkeypatch):
    """A busy machine: the held request's trace line is written well after the hold itself
    ended. trap_results() must wait for the line, not only for the hold (it once read
    the trace in between and graded a perfect client's stall as 'no stall at all')."""
    write = mock.trace.write

    def late(line: dict) -> None:
        if "stall_began_t" in line:
            time.sleep(0.5)
        write(line)

    monkeypatch.setattr(mock.trace, "write", late)
    # the late write blocks the vendor's event loop for 0.5 s right after the client cut
    # the hold, so the retry is stamped up to 0.5 s later: the hold must outlast that, or
    # the retry falls outside it and the test races the scheduler (as it once did on CI)
    monkeypatch.setattr(mock, "timing", replace(mock.timing, stall_secs=3.0))
    mock.set_visible_cap(SMALL)
    skip_traps(mock)
    mock.arm_stall()
    Walker(mock.base_url, timeout=0.3).walk()
    traps = mock.trap_results()
    assert traps.instances["stall"] == 1 and traps.stall == 1.0, traps.details
