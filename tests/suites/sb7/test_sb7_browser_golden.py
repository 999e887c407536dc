"""The sb-7 golden in a real Chromium (the session's one grading, ``sb7_golden``): the
browser phase runs after ``final`` with every scenario of this package, and the golden
earns 1.0 on each row they feed (part one's 50 rows stay 1.0: test_sb7_harness_golden),
the 3D field's labels among them."""

from __future__ import annotations

from typing import Any

import pytest

from benchwright.model import Status
from benchwright.scoring.contention import HOST_CONTENDED
from benchwright.suites.sb7.browser import BROWSER, EMPTY, ERROR, LOAD
from benchwright.suites.sb7.checks._browser import SYNC
from benchwright.suites.sb7.phases import PHASE_NAMES

ROWS = ("j_loads_data", "j_first_use", "j_error_state", "j_empty_state", "b_money_rendered",
        "v_dates_readable", "v_money_presentation", "v_status_badges", "v_responsive_375",
        "v_styling")  # fmt: skip

pytestmark = pytest.mark.slow


def test_the_browser_runs_after_the_final_snapshots(sb7_golden: tuple[Any, float]) -> None:
    """After final's snapshots and the idle latency battery: nothing the browser does
    reaches part one's rows or the idle timings; only the vendor's read comes later."""
    assert PHASE_NAMES[-2:] == (BROWSER, "vendor")
    assert PHASE_NAMES.index(BROWSER) > max(map(PHASE_NAMES.index, ("final", "idle_perf")))
    record = sb7_golden[0].observations[BROWSER]
    assert record.unavailable is None and not record.scenario_errors and not record.no_page
    assert {LOAD, ERROR, EMPTY} <= set(record.scenarios)


@pytest.mark.parametrize("check_id", ROWS)
def test_the_golden_aces_each_browser_row(sb7_golden: tuple[Any, float], check_id: str) -> None:
    row = next(r for r in sb7_golden[0].rows if r.check_id == check_id)
    if check_id == "j_first_use" and row.evidence.get("timing_score", 1.0) < 1.0:
        pytest.skip(f"first data on a contended host: {row.detail}")  # the contention rule's
    assert (row.status, row.score) == (Status.PASS, 1.0), row.detail


def test_the_console_is_clean_through_load_and_sync(sb7_golden: tuple[Any, float]) -> None:
    record = sb7_golden[0].observations[BROWSER]
    row = next(r for r in sb7_golden[0].rows if r.check_id == "j_console_clean")
    if SYNC not in record.scenarios:  # the sync journey's module is not installed yet
        assert row.status is Status.UNAVAILABLE and "sync" in row.detail
        return
    assert (row.status, row.score) == (Status.PASS, 1.0), row.detail


def test_the_empty_instance_never_reached_the_graded_vendor(sb7_golden: tuple[Any, float]) -> None:
    empty = sb7_golden[0].observations[BROWSER].scenarios[EMPTY]
    assert empty.rows == 0 and empty.no_page is None


def test_the_golden_field_labels_as_the_greedy_cull_through_its_pick(
    sb7_golden: tuple[Any, float],
) -> None:
    """t_labels_culling at the viz lane's decisive pose: labels shown, the row at 1.0."""
    view = sb7_golden[0].observations[BROWSER].scenarios["viz"]
    assert view.labels is not None and any(b.shown for b in view.labels.labels)
    row = next(r for r in sb7_golden[0].rows if r.check_id == "t_labels_culling")
    assert (row.status, row.score) == (Status.PASS, 1.0), row.detail


@pytest.mark.parametrize("check_id", ["t_coast_identity", "t_coast_reality"])
def test_the_golden_coasts_by_the_closed_form(sb7_golden: tuple[Any, float], check_id: str) -> None:
    """1.0 on both coast rows, or UNAVAILABLE naming the host (a flick it could not make
    fast enough, no frame landing mid-coast, a late rest on a busy host): never lower."""
    row = next(r for r in sb7_golden[0].rows if r.check_id == check_id)
    if row.status is Status.UNAVAILABLE:
        assert row.detail.startswith((HOST_CONTENDED, "PROBE UNAVAILABLE")), row.detail
        assert "issue 29" not in row.detail  # registered, not staged
        return
    assert (row.status, row.score) == (Status.PASS, 1.0), row.detail
