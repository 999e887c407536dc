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
    refused,
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
    assert row.score == pytest.approx(12 / 13, abs=1e-5) and "sort=bogus -> 400" in row.detail
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


def _with_cell(obs, name, answer):
    results = [(c, answer if c.name == name else o) for c, o in obs["validation"].matrix.results]
    return swap(obs, "validation", matrix=MatrixObservation(tuple(results)))


def test_api_depth_refuses_limit_zero():
    """§6.3: a limit below 1 is invalid; an app that serves a page for limit=0 misses a cell
    of the validation matrix (c_api_depth, input_validation) and its field error."""
    obs = _with_cell(perfect(), "limit=0", jr(page([], limit=0)).response)
    row = grade_one(obs, "c_api_depth")
    assert row.score == pytest.approx(12 / 13)
    assert "failed: limit=0 -> 400 (§6.3 a limit below 1 is invalid)" in row.detail
    assert grade_one(obs, "input_validation").detail.startswith("0.9231: 12/13; wrong: limit=0")
    assert "short: limit=0" in grade_one(obs, "b_error_envelope").detail


def test_api_depth_wants_502_vendor_error_when_the_vendor_keeps_failing():
    """§7: a vendor error the app could not recover from is 502 vendor_error; 503
    vendor_unavailable is for a vendor that did not answer, and an HTML 500 is no envelope."""
    cell = "sync on a failing vendor -> 502 vendor_error (§7 a vendor error you could not "
    cell += "recover from is 502 vendor_error)"
    for answer in (
        jr({"error": {"code": "vendor_unavailable", "message": "down"}}, 503, path="/api/sync"),
        jr({"fetched": 0, "inserted": 0, "updated": 0, "total": 1553}, path="/api/sync"),
        jr(None, 500, "text/html", path="/api/sync", raw=b"<h1>Internal Server Error</h1>"),
        None,
    ):
        obs = swap(perfect(), "validation", vendor_fault=answer)
        row = grade_one(obs, "c_api_depth")
        assert row.score == pytest.approx(12 / 13) and f"failed: {cell}" in row.detail
    envelope = grade_one(
        obs := swap(
            perfect(),
            "validation",
            vendor_fault=jr(None, 500, "text/html", path="/api/sync", raw=b"<h1>oops</h1>"),
        ),
        "b_error_envelope",
    )
    assert "short: sync on a failing vendor (500)" in envelope.detail
    assert "short: GET /api/sync 500 (0)" in grade_one(obs, "json_everywhere").detail


UNREACHABLE = (
    "sync with the vendor unreachable -> 503 vendor_unavailable (§7 a vendor with no answer "
    "after your retries is 503 vendor_unavailable)"
)


def test_api_depth_wants_503_vendor_unavailable_when_the_vendor_does_not_answer():
    """§7: a vendor that gave no answer after the app's retries is 503 vendor_unavailable;
    502 vendor_error (the answer for a vendor that answered with errors), a 200, an HTML 500
    and a sync still running when the grader stopped waiting all miss the cell."""
    obs = perfect()
    assert grade_one(obs, "input_validation").detail == "1: 13/13"  # 503 vendor_unavailable
    for answer in (
        jr({"error": {"code": "vendor_error", "message": "down"}}, 502, path="/api/sync"),
        jr({"error": {"code": "vendor_unavailable"}}, 502, path="/api/sync"),
        jr({"fetched": 0, "inserted": 0, "updated": 0, "total": 1553}, path="/api/sync"),
        jr(None, 500, "text/html", path="/api/sync", raw=b"<h1>Internal Server Error</h1>"),
        refused("/api/sync"),
    ):
        down = swap(obs, "validation", vendor_outage=answer)
        row = grade_one(down, "c_api_depth")
        assert row.score == pytest.approx(12 / 13) and f"failed: {UNREACHABLE}" in row.detail
        diag = grade_one(down, "input_validation").detail
        assert diag == f"0.9231: 12/13; wrong: {UNREACHABLE}"
    unavailable_html = jr(
        None, 503, "text/html", path="/api/sync", raw=b"<h1>Service Unavailable</h1>"
    )
    html = swap(obs, "validation", vendor_outage=unavailable_html)
    envelope = grade_one(html, "b_error_envelope").detail
    assert "short: sync with the vendor unreachable (503)" in envelope
    assert "GET /api/sync 503 (0)" in grade_one(html, "json_everywhere").detail


def test_vendor_outage_of_an_unconfined_app_is_absent_not_failed():
    """Unconfined, nothing can cut the vendor: no 503 cell (12 cells, full marks) and the
    detail says the outage was not probed."""
    obs = swap(perfect(), "validation", vendor_outage=None)
    row = grade_one(obs, "c_api_depth")
    assert row.score == 1.0 and UNREACHABLE not in row.detail
    assert row.detail.endswith(
        "validation 12/12); vendor outage not probed: the app is not sandboxed"
    )
    assert grade_one(obs, "input_validation").detail == (
        "1: 12/12; vendor outage not probed: the app is not sandboxed"
    )
    assert "not probed" not in grade_one(perfect(), "c_api_depth").detail


def test_api_depth_refuses_a_long_note_and_an_unknown_id():
    """§6.7 and §6.4, the duties the seed's matrix never probed, named in the detail."""
    obs = perfect()
    stored = ROWS[int(NOTE_PROBE_ID[4:])] | {"note": LONG_NOTE, "version": 2}
    accepted = _with_cell(obs, "note>280", jr({"id": NOTE_PROBE_ID, "note": LONG_NOTE}).response)
    accepted = swap(accepted, "validation", note_row=jr(stored))
    row = grade_one(accepted, "c_api_depth")
    assert row.score == pytest.approx(11 / 13)
    assert "note>280 -> 400 (§6.7 a note is 1 to 280 characters)" in row.detail
    assert "note>280 not stored (§6.7)" in row.detail
    null = grade_one(_with_cell(obs, "unknown id", jr(None).response), "c_api_depth")
    assert null.score == pytest.approx(12 / 13)
    assert "unknown id -> 404 (§6.4 an unknown payment is 404 not_found)" in null.detail
    diag = grade_one(accepted, "input_validation")
    assert diag.detail.startswith("0.8462: 11/13; wrong: note>280 -> 400")
    envelope = grade_one(accepted, "b_error_envelope")
    assert "short: note>280" in envelope.detail and envelope.score < 1.0
