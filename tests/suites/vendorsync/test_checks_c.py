"""Tier C (vendor contract) checks: the vendor's ledger of the first sync and the
client's direct calls, on canned observations."""

import pytest
from vendorsync_canned import TRUTH, grade_one, perfect, report, swap, with_ledger

from benchwright.model import Status

TIER_C = ("vendor_read_docs", "vendor_cursor_paging", "vendor_all_pages", "vendor_retry_secs",
          "vendor_retry_date", "vendor_cursor_expiry", "client_all_payments",
          "client_total_count", "client_true_order", "client_integer_amounts")  # fmt: skip


@pytest.mark.parametrize("check", TIER_C)
def test_a_perfect_app_earns_every_tier_c_row(check):
    row = grade_one(perfect(), check)
    assert (row.status, row.score) == (Status.PASS, 1.0), row


def test_vendor_read_docs_is_unavailable_without_a_build_trace_and_0_without_a_read():
    from dataclasses import replace

    row = grade_one(replace(perfect(), build_docs_reads=None), "vendor_read_docs")
    assert row.status is Status.UNAVAILABLE and row.score == 0.0
    assert row.detail.startswith("PROBE UNAVAILABLE: no build-phase vendor trace")
    row = grade_one(replace(perfect(), build_docs_reads=0), "vendor_read_docs")
    assert (row.status, row.score) == (Status.FAIL, 0.0)


def test_vendor_cursor_paging_fails_offset_paging_in_any_walk():
    obs = with_ledger(perfect(), "client", offset_style_requests=3)
    row = grade_one(obs, "vendor_cursor_paging")
    assert row.score == 0.0 and "page/offset/skip" in row.detail
    none = with_ledger(with_ledger(with_ledger(perfect(), "sync1", gone=True), "sync2",
                       gone=True), "client", gone=True)  # fmt: skip
    assert grade_one(none, "vendor_cursor_paging").score == 0.0


def test_vendor_all_pages_fails_a_walk_that_stopped_early():
    row = grade_one(with_ledger(perfect(), "sync1", reached_end=False), "vendor_all_pages")
    assert row.score == 0.0


@pytest.mark.parametrize(
    "check, field",
    [("vendor_retry_secs", "retry_seconds"), ("vendor_retry_date", "retry_date"),
     ("vendor_cursor_expiry", "cursor_expiry")],
)  # fmt: skip
def test_a_trap_row_is_pass_or_fail(check, field):
    early = with_ledger(perfect(), "sync1", **{field: 0.0}, details=())
    row = grade_one(early, check)
    assert (row.status, row.score) == (Status.FAIL, 0.0)
    assert grade_one(with_ledger(perfect(), "sync1", gone=True), check).score == 0.0


def test_client_rows_fail_when_the_driver_left_no_report():
    obs = swap(perfect(), "client", report=None, failure="the client calls did not finish")
    for check in ("client_all_payments", "client_true_order", "client_integer_amounts",
                  "client_total_count"):  # fmt: skip
        row = grade_one(obs, check)
        assert row.score == 0.0 and "did not finish" in row.detail


def test_client_all_payments_wants_247():
    short = swap(perfect(), "client", report=report(ids=list(TRUTH.true_order[:100])))
    assert grade_one(short, "client_all_payments").score == 0.0


def test_client_total_count_fails_a_page_size_and_a_string():
    seen = report()
    seen["total_count"] = {"ok": {"type": "int", "value": 100}}
    assert grade_one(swap(perfect(), "client", report=seen), "client_total_count").score == 0
    seen["total_count"] = {"ok": {"type": "str", "value": "247"}}
    assert grade_one(swap(perfect(), "client", report=seen), "client_total_count").score == 0
    seen["total_count"] = {"error": "KeyError: 'total'"}
    row = grade_one(swap(perfect(), "client", report=seen), "client_total_count")
    assert row.score == 0 and "KeyError" in row.detail


def test_client_true_order_fails_string_order_and_does_not_assess_another_set():
    from vendorsync_canned import ROWS

    by_string = [r["id"] for r in sorted(ROWS, key=lambda r: (r["created_at"], r["id"]))]
    row = grade_one(swap(perfect(), "client", report=report(ids=by_string)), "client_true_order")
    assert row.score == 0.0 and "position" in row.detail
    dup = [*TRUTH.true_order, TRUTH.true_order[0]]
    row = grade_one(swap(perfect(), "client", report=report(ids=dup)), "client_true_order")
    assert row.score == 0.0 and "not assessed" in row.detail


def test_client_integer_amounts_fails_floats_and_strings():
    for kinds in (("float",), ("int", "str")):
        obs = swap(perfect(), "client", report=report(amount_types=kinds))
        assert grade_one(obs, "client_integer_amounts").score == 0.0
    empty = swap(perfect(), "client", report=report(ids=[]))
    assert grade_one(empty, "client_integer_amounts").score == 0.0
