"""Tiers C and D on canned observations."""

import pytest
from vspro_canned import (
    ROWS,
    grade_one,
    jr,
    list_line,
    marker,
    page,
    perfect,
    swap,
    trace_lines,
)

from benchwright.model import Status
from benchwright.probes.http import MatrixObservation
from benchwright.services.meridian import BatchTrace, TrapResults
from benchwright.suites.vspro.phases.reads import LONG_NOTE, NOTE_PROBE_ID

CHECKS = (
    "c_api_depth",
    "c_batch_partial",
    "vendor_cursor_paging",
    "vendor_traps",
    "api_content_type",
    "client_timeouts",
    "store_indexed",
    "uses_max_limit",
)


@pytest.mark.parametrize("check", CHECKS)
def test_perfect_app_scores_one(check):
    row = grade_one(perfect(), check)
    assert (row.status, row.score) == (Status.PASS, 1.0), row.detail


def test_api_depth_weakest_facet_bounds_the_whole():
    obs = swap(perfect(), "reads", page5=jr(page(ROWS[5:9], limit=5, offset=5)))
    row = grade_one(obs, "c_api_depth")
    assert row.score == pytest.approx(0.8)
    assert "paging 4/5" in row.detail and "limit=5&offset=5 gives 5 rows" in row.detail
    extra = [r | {"raw": 1} for r in ROWS[:200]]
    pages = (jr(page(extra, limit=200)), *perfect()["reads"].raw_pages[1:])
    schema = grade_one(swap(perfect(), "reads", raw_pages=pages), "c_api_depth")
    assert schema.score == pytest.approx(1 - 200 / 1553, abs=1e-5)


def test_api_depth_validation_status_and_gate():
    obs = perfect()
    results = list(obs["validation"].matrix.results)
    cell, _answer = results[3]  # sort=bogus answered 200 with an empty page
    results[3] = (cell, jr(page([])).response)
    row = grade_one(
        swap(obs, "validation", matrix=MatrixObservation(tuple(results))), "c_api_depth"
    )
    assert row.score == pytest.approx(6 / 7, abs=1e-5) and "sort=bogus -> 400" in row.detail
    empty = grade_one(swap(obs, "reads", raw_pages=(jr(page([])),)), "c_api_depth")
    assert empty.detail == "0: gate: no rows on the wire"


def test_api_depth_sort_must_start_at_the_true_newest():
    obs = swap(perfect(), "reads", sorted_desc=jr(page(ROWS[::-1][1:11], limit=10)))
    assert grade_one(obs, "c_api_depth").score == pytest.approx(0.8)


def test_batch_partial_quarters():
    obs = perfect()
    storm = BatchTrace(obs["batch"].trace.ops, 0, 2, 0)
    row = grade_one(swap(obs, "batch", trace=storm), "c_batch_partial")
    assert row.detail == "0.75: 3/4 quarters; missed: no retry of the failed item"
    fresh = BatchTrace(obs["batch"].trace.ops, 0, 0, 1)
    assert grade_one(swap(obs, "batch", trace=fresh), "c_batch_partial").score == 0.75
    swallowed = jr(
        {
            "results": [
                {"index": 0, "status": "created"},
                {"index": 1, "status": "error", "error": {"code": "vendor_error"}},
                {"index": 2, "status": "created"},
            ]
        }
    )
    assert grade_one(swap(obs, "batch", response=swallowed), "c_batch_partial").score == 0.75
    rollback = jr({"results": [{"index": i, "status": "error"} for i in range(3)]})
    assert grade_one(swap(obs, "batch", response=rollback), "c_batch_partial").score == 0.5
    doubled = BatchTrace((*obs["batch"].trace.ops, obs["batch"].trace.ops[0]), 1, 0, 0)
    assert grade_one(swap(obs, "batch", trace=doubled), "c_batch_partial").score == 0.75


def test_batch_partial_gives_no_vacuous_credit_when_nothing_reached_the_vendor():
    obs = swap(
        perfect(), "batch", response=jr({"error": "nope"}, 404), trace=BatchTrace((), 0, 0, 0)
    )
    row = grade_one(obs, "c_batch_partial")
    assert (row.status, row.score) == (Status.FAIL, 0.0)


def test_batch_partial_names_the_key_duty_when_items_reach_the_vendor_under_other_keys():
    ops = tuple({**op, "key": f"uuid-{i}"} for i, op in enumerate(perfect()["batch"].trace.ops))
    row = grade_one(swap(perfect(), "batch", trace=BatchTrace(ops, 0, 0, 0)), "c_batch_partial")
    assert row.score == 0.5
    assert row.detail == (
        "0.5: 2/4 quarters; missed: created once each, no retry of the failed item; duty: "
        "§6.8 each batch item goes to the vendor with its own idempotency key (a resent item "
        "must not create a second payment) - sb6-b1, sb6-b2, sb6-b3 never reached the vendor, "
        "which saw 'uuid-0', 'uuid-1', 'uuid-2'"
    )
    keyless = tuple({**op, "key": "", "outcome": "idempotency_key_required"} for op in ops)
    row = grade_one(swap(perfect(), "batch", trace=BatchTrace(keyless, 0, 0, 0)), "c_batch_partial")
    assert "never reached the vendor, which saw no key" in row.detail
    assert "duty" not in grade_one(perfect(), "c_batch_partial").detail


def test_cursor_paging_offenders_and_no_cursor():
    lines = (*trace_lines(), list_line(400, cursor=None, offset="100"))
    row = grade_one(swap(perfect(), "trace", lines=lines), "vendor_cursor_paging")
    assert row.score == pytest.approx(1 - 1 / 30, abs=1e-5)
    assert row.detail.startswith("0.9667: 1/30 list requests with offset/page/start/skip")
    offsets = tuple(list_line(i, cursor=None, offset=str(i * 100)) for i in range(5))
    zero = grade_one(swap(perfect(), "trace", lines=offsets), "vendor_cursor_paging")
    assert zero.detail == "0: none of 5 list requests used the cursor"
    assert grade_one(swap(perfect(), "trace", lines=()), "vendor_cursor_paging").score == 0.0


def traps(retry=1.0, expiry=1.0, stall=1.0, instances=None):
    found = (
        instances if instances is not None else {"retry_after": 4, "cursor_expiry": 2, "stall": 1}
    )
    return TrapResults(retry, expiry, stall, found, ())


def test_vendor_traps_mean_and_empty_ledger():
    row = grade_one(swap(perfect(), "traps", results=traps(stall=0.5)), "vendor_traps")
    assert row.score == pytest.approx(2.5 / 3, abs=1e-5)
    assert "stall 0.5" in row.detail
    empty = traps(0.0, 0.0, 0.0, {"retry_after": 0, "cursor_expiry": 0, "stall": 0})
    refused = grade_one(swap(perfect(), "traps", results=empty), "vendor_traps")
    assert refused.status is Status.UNAVAILABLE


def test_api_content_type_counts_json_types():
    obs = perfect()
    sample = list(obs["json_sample"].reads)
    sample[4] = jr({"error": {}}, 404, "text/html")
    row = grade_one(swap(obs, "json_sample", reads=tuple(sample)), "api_content_type")
    assert row.score == pytest.approx(5 / 6, abs=1e-5) and "not json" in row.detail


def test_client_timeouts_behaviour_then_residual():
    waited = swap(perfect(), "traps", results=traps(stall=0.5))
    row = grade_one(waited, "client_timeouts")
    assert row.score == 0.4 and "residual: timeout= passed in 1 call(s)" in row.detail
    bare = swap(waited, "static", meridian_source="urlopen(request)")
    assert grade_one(bare, "client_timeouts").score == 0.0


UNUSED_TIMEOUT = """
class Client:
    def __init__(self, timeout=10):
        self.timeout = timeout

    def get(self, url):
        return urlopen(url)
"""


def test_client_timeouts_an_attribute_no_call_passes_is_no_credit():
    obs = swap(swap(perfect(), "traps", results=traps(stall=0.5)), "static",
               meridian_source=UNUSED_TIMEOUT)  # fmt: skip
    row = grade_one(obs, "client_timeouts")
    assert row.score == 0.0, row.detail
    assert row.detail == ("0: stall ledger 0.5 (not cut within bound) and no call in "
                          "meridian.py passes timeout=")  # fmt: skip
    used = UNUSED_TIMEOUT.replace("urlopen(url)", "urlopen(url, timeout=self.timeout)")
    row = grade_one(swap(obs, "static", meridian_source=used), "client_timeouts")
    assert row.score == 0.4 and "(line 7)" in row.detail


def test_client_timeouts_behaviour_decides_and_the_source_only_corroborates():
    obs = swap(perfect(), "static", meridian_source=UNUSED_TIMEOUT)
    row = grade_one(obs, "client_timeouts")
    assert row.score == 1.0 and "cut by the client" in row.detail
    assert "corroboration: no call in meridian.py passes timeout=" in row.detail
    broken = swap(swap(obs, "traps", results=traps(stall=0.5)), "static",
                  meridian_source="urlopen(url, timeout=5")  # fmt: skip
    assert grade_one(broken, "client_timeouts").score == 0.0


def test_store_indexed_binary():
    obs = swap(perfect(), "static", store_source="CREATE TABLE payments (id TEXT, v INT)")
    assert grade_one(obs, "store_indexed").score == 0.0
    none = grade_one(swap(perfect(), "static", store_source=None), "store_indexed")
    assert none.detail == "0: no vspro/store.py"


def test_uses_max_limit_is_proportional():
    lines = (marker(1, "sync1"), list_line(2, limit="50"), list_line(3, limit="25"))
    row = grade_one(swap(perfect(), "trace", lines=lines), "uses_max_limit")
    assert row.detail == "0.5: largest limit 50 (want 100)"
    bare = (list_line(2, limit=""),)
    assert grade_one(swap(perfect(), "trace", lines=bare), "uses_max_limit").score == 0.0


def test_api_depth_reads_the_public_matrix_only():
    """Methodology §09: c_api_depth's and input_validation's matrix is seven cells; limit=0
    served, a long note stored, an unknown id answered null, 503 for a failing vendor and
    502 for a silent one (issue #24: 10/13 for an app the public scorer grades 1.0) leave
    both at 1 and are the weight-zero x_status_duties's."""
    results = [
        (c, jr(page([], limit=0)).response if c.name == "limit=0" else
         jr(None).response if c.name in ("unknown id", "note>280") else o)
        for c, o in perfect()["validation"].matrix.results
    ]  # fmt: skip
    obs = swap(perfect(), "validation", matrix=MatrixObservation(tuple(results)),
               vendor_fault=jr({"error": {"code": "vendor_unavailable", "message": "x"}}, 503),
               vendor_outage=jr({"error": {"code": "vendor_error", "message": "x"}}, 502),
               note_row=jr(ROWS[int(NOTE_PROBE_ID[4:])] | {"note": LONG_NOTE}))  # fmt: skip
    depth = grade_one(obs, "c_api_depth")
    assert (depth.score, depth.detail) == (1.0, "1: min(schema 1, paging 5/5, validation 7/7)")
    assert grade_one(obs, "input_validation").detail == "1: 7/7"
    assert grade_one(obs, "x_status_duties").detail.startswith("0: 0/6; wrong: limit=0 -> 400")
