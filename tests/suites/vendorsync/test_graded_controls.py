"""The vendorsync controls graded: each seeded defect costs the score on its own target
rows, named in the row's detail, graded through only the phases that reach them
(``Control.phases``) and judged against the session's one full grading of the golden
(``vendorsync_golden``), as a full audit judges it. The same gradings then hold the
severity order the audit holds: every graver control's defect costs more than every
lighter one's. ``benchwright audit suites/vendorsync`` runs the full gradings."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from control_audit import SessionGoldenAuditor, assert_control_costs, timed_controls
from host_lease import host_to_itself

from benchwright.probes.browser import browser_available
from benchwright.scoring.contention import HOST_CONTENDED
from benchwright.suites.audit import load_controls
from benchwright.suites.audit.judge import order_problems
from benchwright.suites.vendorsync.checks._timing import TIMED as TIMING_ROWS

SUITE = Path(__file__).resolve().parents[3] / "suites" / "vendorsync"

# What each defect costs, as (check, score, a phrase of its detail naming the evidence).
EXPECTED = {
    "crash-on-fresh-db": [("server_runs", 0.0, "vendorsync: no database at")],
    "empty": [("modules_present", 0.0, "missing __init__.py, __main__.py"),
              ("server_runs", 0.0, "No module named vendorsync")],
    "duplicate-rows-on-resync": [
        ("resync_idempotent", 0.0, "the second sync's total is 988, not 247"),
        ("total_field", 0.0, "total is 988, not 247"),
        ("summary_accuracy", 0.0, "total_minor 17636788 (want 4409197)"),
        ("concurrent_sync_safe", 0.0, "health counts 741 after two overlapping syncs")],
    "cursor-expiry-as-end": [
        ("sync_completeness", 0.4049, "the first sync reported 100 of 247"),
        ("request_efficiency", 0.4049, "3 list requests (optimum 7), but the sync was 0.4049 "
         "complete"),
        ("vendor_cursor_expiry", 0.0, "did not restart without a cursor"),
        ("client_all_payments", 0.0, "fetch_all_payments() returned 100")],
    "no-idempotency-key": [
        ("client_idempotency_key", 0.0, "0/2 creates carried Idempotency-Key"),
        ("client_create_replay", 0.0, "400 idempotency_key_required")],
    "ignores-retry-after": [
        ("vendor_retry_secs", 0.0, "429 (seconds)"),
        ("vendor_retry_date", 0.0, "429 (date)")],
    "float-money": [
        ("row_integrity", 0.75, "integer amounts 0 (float 1000.0 at $.data[0].amount_minor)"),
        ("summary_accuracy", 0.0, "total_minor is 4409197.0, not an integer")],
    "string-sorted-times": [
        ("chronological_order", 0.9583, "23/24 adjacent pairs in time order"),
        ("chronological_order_full", 0.8374, "206/246 adjacent pairs in the true order")],
    "wrong-404-shape": [("input_validation", 0.875, "/api/nope: 404 None (want 404 'not_found')")],
    "no-limit-cap": [("local_pagination", 0.6667, "failed: limit=500 capped to 100")],
    "slow-list": [("p_list_latency", 0.5, "rung <=400 ms")],
    "cdn-asset": [("ui_offline", 0.0, "index.html loads a remote asset")],
    "client-without-timeout": [("client_timeouts", 0.0, "no request in meridian.py sets a "
                                "timeout")],
    "no-empty-state": [("j_empty_state", 0.0, "no visible #empty with text on a fresh database")],
    "raw-iso-dates": [("v_dates_readable", 0.0, "raw ISO-8601 timestamp(s) on the page")],
    "no-status-filter": [("v_filter", 0.0, "no visible #status-filter")],
}  # fmt: skip


@cache
def _no_browser() -> str | None:
    return browser_available()  # starts and stops Chromium once, only when a test needs it


def _gradable(name: str) -> bool:
    """False for a browser control where no headless Chromium runs."""
    (control,) = load_controls(SUITE, [name])
    return "browser" not in control.phases or _no_browser() is None


TIMED = timed_controls(SUITE, TIMING_ROWS.keys())
"""Controls whose target is a timing row (``slow-list``): graded in their own test, the
host to themselves (`host_lease`), never in the prefetch beside another grading."""
WORKERS = 3
"""The other controls graded three at a time (`SessionGoldenAuditor.prefetch`): a
vendorsync grading spends most of its wall in the vendor's scripted waits."""


@pytest.fixture(scope="module")
def auditor(vendorsync_golden, request):
    grading, _seconds = vendorsync_golden
    auditor = SessionGoldenAuditor(SUITE, grading.rows, timed=TIMED,
                                   alone=lambda: host_to_itself(request.config))  # fmt: skip
    auditor.prefetch([n for n in EXPECTED if _gradable(n)], WORKERS)
    return auditor


def test_a_control_whose_target_is_timed_is_kept_out_of_the_prefetch():
    assert {"slow-list"} == TIMED, TIMED  # the one whose target, p_list_latency, is timed


def test_every_control_has_its_expectations():
    controls = {c.name: c for c in load_controls(SUITE)}
    assert set(EXPECTED) == set(controls)
    for name, expected in EXPECTED.items():
        assert {check for check, _, _ in expected} == set(controls[name].targets), name


@pytest.mark.slow
@pytest.mark.parametrize("name", EXPECTED)
def test_control_costs_the_score_on_its_named_rows(auditor, name):
    if not _gradable(name):
        pytest.skip(f"no headless Chromium: {_no_browser()}")
    try:
        assert_control_costs(auditor, name, EXPECTED[name])
    except AssertionError as exc:  # a timing row on a busy host is not measured, by design
        if HOST_CONTENDED in str(exc):
            pytest.skip(f"{name}: its timing row was not measured on a contended host")
        raise


@pytest.mark.slow
def test_the_severity_order_holds_over_the_controls(auditor):
    """Graver controls cost more, judged on isolated scores as the full audit judges them
    (each control's targets in the golden's rows); the gradings are the tests' above."""
    verdicts = []
    for control in load_controls(SUITE, [name for name in EXPECTED if _gradable(name)]):
        golden, _ = auditor.golden(control.phases)
        verdicts.append(
            auditor.verdict(control, golden, auditor.grade_control(control, control.phases))
        )
    assert order_problems(verdicts) == ()
    by_name = {v.control.name: v for v in verdicts}
    assert by_name["empty"].isolated <= 0.05  # nothing built: nothing earned
