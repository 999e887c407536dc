"""The performance phases on the golden (the session's one ``sb7_golden`` grading): the
burst really streamed, every read under it was a correct page, the final reads cover the
burst (so part one's X and R rows grade the app having applied it), the viz scenario's
live stream applied every change as a true diff, and each timed row is 1.0 or, on a busy
host, UNAVAILABLE naming the host, never a lower score."""

from __future__ import annotations

from typing import Any

import pytest

from benchwright.model import Status
from benchwright.scoring.contention import HOST_CONTENDED
from benchwright.suites.sb7.observations import FINAL
from benchwright.suites.sb7.perf_obs import BUDGETS_MS, IDLE_PERF, UNDER_STREAM

pytestmark = pytest.mark.slow

TIMED = ("p_api_latency", "p_under_stream", "e_under_load_latency")


def _rows(sb7_golden: tuple[Any, float]) -> dict[str, Any]:
    return {r.check_id: r for r in sb7_golden[0].rows}


def test_the_burst_streamed_and_every_read_under_it_was_a_correct_page(sb7_golden) -> None:
    seen = sb7_golden[0].observations[UNDER_STREAM]
    assert len(seen.burst) == 48 and len(seen.load.samples) == 48
    assert seen.listener.status == 200 and seen.listener.burst_ids_seen == 48
    assert all(s.response.status == 200 for s in seen.load.samples)
    assert seen.load.background_error is None
    assert "wrong" not in _rows(sb7_golden)["p_under_stream"].evidence


def test_the_final_reads_cover_the_burst_at_the_vendors_versions(sb7_golden) -> None:
    obs = sb7_golden[0].observations
    spot = {s.payment_id: s for s in obs[FINAL].spot}
    burst = obs[UNDER_STREAM].burst
    assert set(burst) <= set(spot)
    assert all((spot[pid].row or {}).get("note", "").startswith("stream burst ") for pid in burst)


def test_the_viz_stream_applied_every_change_as_a_true_diff(sb7_golden) -> None:
    """Three status flips and the D1 batch's reached the page and showed; each window
    uploaded a record's bytes, reallocated nothing, and left the digest where the replay
    puts it; the brushed record stayed brushed, as the golden's DECISIONS D1 says."""
    stream = sb7_golden[0].observations["browser"].scenarios["viz"].stream
    assert stream is not None and len(stream.batches) == 4
    assert all(b.apply_ms is not None for b in stream.batches)
    assert stream.brushed == stream.batches[-1].id and stream.kept is True
    found = _rows(sb7_golden)["t_stream_diff"]
    assert (found.status, found.score) == (Status.PASS, 1.0), found.detail


@pytest.mark.parametrize(
    ("check_id", "floor"), [("p_stream_apply", 0.5), ("e_stream_apply_latency", 0.25)]
)
def test_the_stream_apply_is_measured_with_its_host(sb7_golden, check_id: str, floor) -> None:
    """The apply rows time receipt to pixels, and under Chromium's software rasterizer a
    frame of the golden's 12,288 columns alone takes most of p_stream_apply's 250 ms top
    rung and more than e_stream_apply_latency's 100 ms: uncontended the golden measured
    148-218 ms, and a burst of other work too short to mark the scenario's window
    contended (its share averaged under the bound) took one run to 341 ms. So neither
    row's rung is asserted (that would assert this host's speed): each is 1.0, or
    UNAVAILABLE naming a busy host, or a rung no lower than a slow host's (``floor``: an
    apply path that re-uploaded or stalled would take seconds) with every batch shown and
    the host on the card for calibration to read."""
    found = _rows(sb7_golden)[check_id]
    if found.status is Status.UNAVAILABLE:
        assert found.detail.startswith(HOST_CONTENDED), found.detail
        return
    assert found.score >= floor and None not in found.evidence["apply_ms"], found.detail
    assert "host" in found.evidence and found.evidence["timing_score"] == found.score


def test_the_battery_read_every_endpoint(sb7_golden) -> None:
    battery = sb7_golden[0].observations[IDLE_PERF]
    assert list(battery.endpoints) == list(BUDGETS_MS)
    assert all(lat.errors == 0 and lat.p95_ms is not None for lat in battery.endpoints.values())


@pytest.mark.parametrize("check_id", TIMED)
def test_each_timed_row_aces_or_names_the_busy_host(sb7_golden, check_id: str) -> None:
    found = _rows(sb7_golden)[check_id]
    if found.status is Status.UNAVAILABLE:
        assert found.detail.startswith((HOST_CONTENDED, "PROBE UNAVAILABLE")), found.detail
    else:
        assert (found.status, found.score) == (Status.PASS, 1.0), found.detail
    assert "host" in found.evidence


@pytest.mark.parametrize("check_id", ["p_sync_wall", "e_mastery"])
def test_the_sync_wall_and_mastery_ace(sb7_golden, check_id: str) -> None:
    found = _rows(sb7_golden)[check_id]
    assert (found.status, found.score) == (Status.PASS, 1.0), found.detail
