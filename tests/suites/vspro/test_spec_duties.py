"""The weight-zero x_ rows that keep the spec duties the public sb-6 instrument does not
probe (issue #24): each fails the near miss, names its duty, and never moves the score."""

from dataclasses import replace
from pathlib import Path

import pytest
from canned_http import refused
from vspro_canned import ROWS, grade_one, http, jr, page, perfect, swap

from benchwright.model import Status
from benchwright.probes.http import MatrixObservation
from benchwright.scoring import compose, load_scorer
from benchwright.suites.vspro.checks import CheckSettings, build_table
from benchwright.suites.vspro.phases.reads import LONG_NOTE, NOTE_PROBE_ID

SB6 = Path(__file__).parents[3] / "scorers" / "sb6.yaml"
ROWS_X = (
    "x_asset_paths",
    "x_status_duties",
    "x_error_envelopes",
    "x_json_errors",
    "x_order_everywhere",
)
UNREACHABLE = (
    "sync with the vendor unreachable -> 503 vendor_unavailable (§7 a vendor with no answer "
    "after your retries is 503 vendor_unavailable)"
)
FAILING = (
    "sync on a failing vendor -> 502 vendor_error (§7 a vendor error you could not recover "
    "from is 502 vendor_error)"
)


def _with_cell(obs, name, answer):
    results = [(c, answer if c.name == name else o) for c, o in obs["validation"].matrix.results]
    return swap(obs, "validation", matrix=MatrixObservation(tuple(results)))


@pytest.mark.parametrize("check", ROWS_X)
def test_a_perfect_app_meets_every_spec_duty(check):
    row = grade_one(perfect(), check)
    assert (row.status, row.score) == (Status.PASS, 1.0), row.detail


def test_the_x_rows_are_weight_zero_diagnostics():
    """An app that misses every one of these duties composes to the perfect app's score."""
    scorer = load_scorer(SB6)
    assert set(ROWS_X) <= set(scorer.config.diagnostics)
    rows = build_table().evaluate(perfect(), CheckSettings())
    zeroed = [replace(r, status=Status.FAIL, score=0.0) if r.check_id in ROWS_X else r
              for r in rows]  # fmt: skip
    assert compose(zeroed, scorer).score == compose(rows, scorer).score
    card = compose(zeroed, scorer)
    assert {card.row(c).role for c in ROWS_X} == {"diagnostic"}


def test_asset_paths_wants_both_paths_typed_and_the_same_bytes():
    """§6.9: /<file> and /web/<file>, typed, the same bytes; a miss names the path."""
    obs = perfect()
    web = dict(obs["page"].web_assets) | {"app.js": http(404, b"{}", "application/json")}
    row = grade_one(swap(obs, "page", web_assets=web), "x_asset_paths")
    assert row.detail == (
        "0.6667: 2/3 assets served typed at /<file> and /web/<file>, the same bytes; app.js "
        "(/web/app.js answered 404 application/json); §6.9 the files are served at /<file> and "
        "the same files under /web/<file>"
    )
    assert grade_one(swap(obs, "page", web_assets=web), "serves_page").score == 1.0
    other = dict(obs["page"].web_assets) | {"viz.js": http(200, b"2", "text/javascript")}
    row = grade_one(swap(obs, "page", web_assets=other), "x_asset_paths")
    assert "viz.js (/web/viz.js serves other bytes than /viz.js)" in row.detail
    plain = dict(obs["page"].assets) | {"styles.css": http(200, b"body{}", "text/plain")}
    row = grade_one(swap(obs, "page", assets=plain), "x_asset_paths")
    assert "styles.css (/styles.css answered 200 text/plain)" in row.detail
    gone = {n: http(None, error="refused") for n in obs["page"].assets}
    assert grade_one(swap(obs, "page", assets=gone, web_assets=gone), "x_asset_paths").score == 0


def test_status_duties_refuses_limit_zero():
    """§6.3: a limit below 1 is invalid; served as a page it misses its cell here, and its
    field error in x_error_envelopes."""
    obs = _with_cell(perfect(), "limit=0", jr(page([], limit=0)).response)
    row = grade_one(obs, "x_status_duties")
    assert row.score == pytest.approx(5 / 6)
    assert row.detail == "0.8333: 5/6; wrong: limit=0 -> 400 (§6.3 a limit below 1 is invalid)"
    envelopes = grade_one(obs, "x_error_envelopes")
    assert envelopes.detail.endswith("field_errors 1/2 (0.4); short: limit=0")


def test_status_duties_refuses_a_long_note_and_an_unknown_id():
    """§6.7 and §6.4, named in the detail."""
    obs = perfect()
    stored = ROWS[int(NOTE_PROBE_ID[4:])] | {"note": LONG_NOTE, "version": 2}
    accepted = _with_cell(obs, "note>280", jr({"id": NOTE_PROBE_ID, "note": LONG_NOTE}).response)
    accepted = swap(accepted, "validation", note_row=jr(stored))
    row = grade_one(accepted, "x_status_duties")
    assert row.score == pytest.approx(4 / 6)
    assert "note>280 -> 400 (§6.7 a note is 1 to 280 characters)" in row.detail
    assert "note>280 not stored (§6.7)" in row.detail
    null = grade_one(_with_cell(obs, "unknown id", jr(None).response), "x_status_duties")
    assert null.score == pytest.approx(5 / 6)
    assert "unknown id -> 404 (§6.4 an unknown payment is 404 not_found)" in null.detail
    envelope = grade_one(accepted, "x_error_envelopes")
    assert "short: note>280" in envelope.detail and envelope.score < 1.0


def test_status_duties_wants_502_vendor_error_when_the_vendor_keeps_failing():
    """§7: a vendor error the app could not recover from is 502 vendor_error; 503, a 200, an
    HTML 500 and no answer all miss the cell, and the HTML page costs the envelope rows."""
    for answer in (
        jr({"error": {"code": "vendor_unavailable", "message": "down"}}, 503, path="/api/sync"),
        jr({"fetched": 0, "inserted": 0, "updated": 0, "total": 1553}, path="/api/sync"),
        jr(None, 500, "text/html", path="/api/sync", raw=b"<h1>Internal Server Error</h1>"),
        None,
    ):
        row = grade_one(swap(perfect(), "validation", vendor_fault=answer), "x_status_duties")
        assert row.detail == f"0.8333: 5/6; wrong: {FAILING}"
    html = jr(None, 500, "text/html", path="/api/sync", raw=b"<h1>oops</h1>")
    obs = swap(perfect(), "validation", vendor_fault=html)
    assert "short: sync on a failing vendor (500)" in grade_one(obs, "x_error_envelopes").detail
    assert "short: GET /api/sync 500 (0)" in grade_one(obs, "x_json_errors").detail


def test_status_duties_wants_503_vendor_unavailable_when_the_vendor_does_not_answer():
    """§7: a vendor that gave no answer after the app's retries is 503 vendor_unavailable;
    502, a 503 with the wrong code, a 200, an HTML 500 and a sync still running when the
    grader stopped waiting all miss the cell."""
    for answer in (
        jr({"error": {"code": "vendor_error", "message": "down"}}, 502, path="/api/sync"),
        jr({"error": {"code": "vendor_unavailable"}}, 502, path="/api/sync"),
        jr({"fetched": 0, "inserted": 0, "updated": 0, "total": 1553}, path="/api/sync"),
        jr(None, 500, "text/html", path="/api/sync", raw=b"<h1>Internal Server Error</h1>"),
        refused("/api/sync"),
    ):
        row = grade_one(swap(perfect(), "validation", vendor_outage=answer), "x_status_duties")
        assert row.detail == f"0.8333: 5/6; wrong: {UNREACHABLE}"
    html = jr(None, 503, "text/html", path="/api/sync", raw=b"<h1>Service Unavailable</h1>")
    obs = swap(perfect(), "validation", vendor_outage=html)
    envelope = grade_one(obs, "x_error_envelopes").detail
    assert "short: sync with the vendor unreachable (503)" in envelope
    assert "GET /api/sync 503 (0)" in grade_one(obs, "x_json_errors").detail


def test_vendor_outage_of_an_unconfined_app_is_absent_not_failed():
    """Unconfined, nothing can cut the vendor: no 503 cell (five cells, full marks) and the
    detail says the outage was not probed."""
    obs = swap(perfect(), "validation", vendor_outage=None)
    assert grade_one(obs, "x_status_duties").detail == (
        "1: 5/5; vendor outage not probed: the app is not sandboxed"
    )
    assert "not probed" not in grade_one(perfect(), "x_status_duties").detail


def test_error_envelopes_grade_every_error_answer_beyond_the_public_matrix():
    obs = perfect()
    assert grade_one(obs, "x_error_envelopes").detail == (
        "1: envelope 7/7 [statuses 400, 404, 405, 409, 502, 503] (0.6), field_errors 2/2 (0.4)"
    )
    obs = swap(obs, "conflict", second=jr(None, 409, "text/html", raw=b"<p>conflict</p>"))
    row = grade_one(obs, "x_error_envelopes")
    assert row.score == pytest.approx(0.6 * 6 / 7 + 0.4, abs=1e-5)
    assert row.detail.endswith("short: note after a persistent conflict (409)")
    assert grade_one(obs, "b_error_envelope").score == 1.0  # not in the public matrix


def test_json_errors_grade_every_error_answer_outside_the_six_sampled():
    obs = perfect()
    assert grade_one(obs, "x_json_errors").detail == "1: 12 error answers beyond the six sampled"
    quiet = [(c, jr(page([])).response) for c, _ in obs["validation"].matrix.results]
    none = swap(obs, "validation", matrix=MatrixObservation(tuple(quiet)), vendor_fault=None,
                vendor_outage=None)  # fmt: skip
    none = swap(swap(none, "batch", invalid=jr({})), "conflict", second=None)
    row = grade_one(none, "x_json_errors")
    assert (row.score, row.detail) == (0.0, "0: no error answer beyond the six sampled")


def test_order_everywhere_counts_every_other_ordering_read():
    obs = perfect()
    pairs = 4 + 199 + 9 + (len(ROWS) - 1) + 9  # page5, capped, refunded, walk, desc
    assert grade_one(obs, "x_order_everywhere").detail == (
        f"1: {pairs}/{pairs} adjacent pairs in instant order over 5 ordering reads"
    )
    rising = ROWS[:10]  # the fixture rows are in instant order
    row = grade_one(swap(obs, "reads", sorted_desc=jr(page(rising))), "x_order_everywhere")
    assert row.detail.endswith("out of order: sort=-created_at 0/9")
    assert grade_one(swap(obs, "reads", sorted_desc=jr(page(rising))),
                     "chronological_order").score == 1.0  # fmt: skip
