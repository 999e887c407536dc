"""Tier B checks on canned observations: pass the right thing, fail the near miss."""

import json
from dataclasses import replace

import pytest
from vspro_canned import EXPECT, ROWS, grade_one, http, jr, page, perfect, swap

from benchwright.model import Status
from benchwright.probes.http import MatrixObservation

B_CHECKS = (
    "b_buckets_dst",
    "b_error_envelope",
    "b_summary_currency",
    "chronological_order",
    "json_everywhere",
    "payment_row_shape",
    "row_integrity",
    "summary_bounds_utc",
    "sync_completeness",
    "total_field",
    "ui_offline",
)


@pytest.mark.parametrize("check", B_CHECKS)
def test_perfect_app_scores_one(check):
    row = grade_one(perfect(), check)
    assert (row.status, row.score) == (Status.PASS, 1.0), row.detail
    assert row.detail.startswith("1: ")


def reads(**changes):
    return swap(perfect(), "reads", **changes)


def test_payment_row_shape_extra_key_costs_a_flat_fifth():
    rows = [ROWS[0] | {"raw": 1}]
    row = grade_one(reads(default=jr(page(rows))), "payment_row_shape")
    assert row.score == pytest.approx(0.8)
    assert row.detail == "0.8: 10/10 documented keys; extra raw (-0.2)"
    missing = [{k: v for k, v in ROWS[0].items() if k != "country"}]
    assert grade_one(reads(default=jr(page(missing))), "payment_row_shape").score == 0.9
    assert grade_one(reads(default=jr(page([]))), "payment_row_shape").score == 0.0


@pytest.mark.parametrize(("total", "score"), [(1553, 1.0), (1551, 0.5), (1300, 0.25), (0, 0.0)])
def test_total_field_rungs(total, score):
    assert grade_one(reads(default=jr(page(ROWS[:50], total=total))), "total_field").score == score


def test_chronological_order_is_by_instant_not_string():
    # same wall-clock strings sort differently once offsets are applied
    a = ROWS[0] | {"created_at": "2026-03-23T01:00:00+09:00"}  # 2026-03-22T16:00Z
    b = ROWS[1] | {"created_at": "2026-03-23T00:30:00+01:00"}  # 2026-03-22T23:30Z
    c = ROWS[2] | {"created_at": "2026-03-22T20:00:00-05:00"}  # 2026-03-23T01:00Z
    assert grade_one(reads(default=jr(page([a, b, c]))), "chronological_order").score == 1.0
    swapped = grade_one(reads(default=jr(page([b, a, c]))), "chronological_order")
    assert (swapped.score, swapped.detail) == (
        0.5, "0.5: 1/2 adjacent pairs in instant order over 1 ordering read; out of order: "
        "default 1/2"
    )  # fmt: skip
    bad = grade_one(
        reads(default=jr(page([a, ROWS[1] | {"created_at": "23/03/2026"}]))), "chronological_order"
    )
    assert bad.score == 0.0 and "not RFC 3339" in bad.detail


def test_chronological_order_reads_the_default_page_only():
    """Methodology §09: the instrument orders the default page (GET /api/payments); a text
    sort that leaves the first page right is x_order_everywhere's (issue #24), never this
    row's, nor is an unparseable stamp on a later page."""
    text = sorted(ROWS, key=lambda x: x["created_at"])
    walk = tuple(jr(page(text[k : k + 200], limit=200)) for k in range(0, len(text), 200))
    desc = sorted(ROWS, key=lambda x: x["created_at"], reverse=True)[:10]
    obs = reads(raw_pages=walk, sorted_desc=jr(page(desc)))
    assert grade_one(obs, "chronological_order").detail == (
        "1: 49/49 adjacent pairs in instant order over 1 ordering read"
    )
    row = grade_one(obs, "x_order_everywhere")
    assert row.score < 1.0
    assert "out of order: raw pages" in row.detail and "sort=-created_at" in row.detail
    late = reads(page5=jr(page([ROWS[5] | {"created_at": "23/03/2026"}, *ROWS[6:10]])))
    assert grade_one(late, "chronological_order").score == 1.0
    assert grade_one(late, "x_order_everywhere").detail == (
        "0: created_at '23/03/2026' (limit=5&offset=5) is not RFC 3339"
    )


def summary_with(**changes):
    found = json.loads(perfect()["reads"].summary.response.body) | changes
    return reads(summary=jr(found))


def test_summary_bounds_utc_parts():
    local = summary_with(oldest="2026-03-23T00:00:00+01:00")
    assert grade_one(local, "summary_bounds_utc").score == pytest.approx(0.7)
    flipped = summary_with(oldest=EXPECT.newest, newest=EXPECT.oldest)
    assert grade_one(flipped, "summary_bounds_utc").score == pytest.approx(0.7)
    assert grade_one(summary_with(oldest=None), "summary_bounds_utc").score == 0.0


def test_summary_currency_cross_sum_is_a_cliff_to_zero():
    row = grade_one(summary_with(total_minor=EXPECT.cross_currency_sum), "b_summary_currency")
    assert (row.status, row.score) == (Status.FAIL, 0.0)
    assert row.detail.startswith("0: cliff: total_minor = 221917624")


def test_summary_currency_wrong_bucket_and_unsorted():
    entries = json.loads(perfect()["reads"].summary.response.body)["by_currency"]
    off = [dict(e) for e in entries]
    off[1]["total_minor"] += 1
    assert grade_one(summary_with(by_currency=off), "b_summary_currency").score == 0.75
    unsorted = grade_one(summary_with(by_currency=entries[::-1]), "b_summary_currency")
    assert unsorted.score == pytest.approx(0.9) and "not sorted" in unsorted.detail


def test_buckets_dst_utc_bucketing_loses_cells():
    cells = [dict(c) for c in EXPECT.buckets["cells"]]
    cells[0]["count"] += 1
    found = EXPECT.buckets | {"cells": cells}
    row = grade_one(reads(buckets=jr(found)), "b_buckets_dst")
    assert row.score == pytest.approx(0.7 * 55 / 56 + 0.3, abs=1e-5)
    assert row.detail.startswith("0.9875: 55/56 cells exact")
    utc = grade_one(reads(buckets=jr(EXPECT.buckets | {"timezone": "UTC"})), "b_buckets_dst")
    assert utc.score == pytest.approx(0.9)
    short = grade_one(reads(buckets=jr(EXPECT.buckets | {"cells": cells[:-1]})), "b_buckets_dst")
    assert short.score == pytest.approx(0.7 * 54 / 56 + 0.1 + 0.1, abs=1e-5)


def test_sync_completeness_takes_the_best_evidence():
    obs = reads(default=jr(page(ROWS[:50], total=1400)))
    obs = swap(obs, "sync2", call=jr({"total": 1400}))
    obs = swap(obs, "restart", rows_after=1400)
    row = grade_one(obs, "sync_completeness")
    assert row.score == pytest.approx(1400 / 1553, abs=1e-5)
    assert "best count 1400" in row.detail
    fixed = swap(obs, "restart", rows_after=1553)
    assert grade_one(fixed, "sync_completeness").score == 1.0


def test_row_integrity_one_float_zeroes_the_integer_slice():
    pages = list(perfect()["reads"].raw_pages)
    raw = pages[0].response.body.replace(b'"amount_minor": 500,', b'"amount_minor": 500.0,', 1)
    pages[0] = jr(None, raw=raw)
    row = grade_one(reads(raw_pages=tuple(pages)), "row_integrity")
    assert row.score == pytest.approx(0.75)
    assert "1 float(s) on the wire, first $.data[0].amount_minor=500.0" in row.detail


def test_row_integrity_missing_ids_cost_coverage():
    pages = perfect()["reads"].raw_pages[:-1]
    row = grade_one(reads(raw_pages=pages), "row_integrity")
    assert row.score == pytest.approx(0.75 + 0.25 * 1400 / 1553, abs=1e-5)


def test_json_everywhere_html_error_page_keeps_half():
    obs = perfect()
    assert grade_one(obs, "json_everywhere").detail == (
        "1: 6 sampled responses (error statuses none)"
    )
    sample = list(obs["json_sample"].reads)
    sample[4] = jr(None, 404, "text/html", raw=b"<h1>Not Found</h1>", path="/api/nope")
    row = grade_one(swap(obs, "json_sample", reads=tuple(sample)), "json_everywhere")
    assert row.score == pytest.approx(1 - 1 / 6, abs=1e-5)
    assert row.detail.endswith("(error statuses 404); short: GET /api/nope 404 (0)")
    typed = list(obs["json_sample"].reads)
    typed[5] = jr({"error": {}}, 400, "text/plain", path="/api/payments?limit=-1")
    assert grade_one(swap(obs, "json_sample", reads=tuple(typed)), "json_everywhere").score == (
        pytest.approx(1 - 0.5 / 6, abs=1e-5)
    )


def test_the_public_rows_read_their_own_sample_and_matrix_only():
    """Methodology §09: json_everywhere samples six responses and b_error_envelope grades
    its validation matrix; an HTML 501 to PUT /api/summary and an HTML 409 (issue #24: an app
    the public scorer grades 1.0 lost both rows to the 501) are the weight-zero x_ rows'."""
    obs = perfect()
    results = list(obs["validation"].matrix.results)
    put = next(i for i, (c, _) in enumerate(results) if c.name == "PUT /api/summary")
    html = http(501, b"<h1>Unsupported method ('PUT')</h1>", "text/html", path="/api/summary")
    results[put] = (results[put][0], replace(html, method="PUT"))
    obs = swap(obs, "validation", matrix=MatrixObservation(tuple(results)))
    obs = swap(obs, "conflict", second=jr(None, 409, "text/html", raw=b"<p>conflict</p>"))
    assert grade_one(obs, "json_everywhere").score == 1.0
    assert grade_one(obs, "b_error_envelope").score == 1.0
    assert "PUT /api/summary 501 (0)" in grade_one(obs, "x_json_errors").detail
    assert "PUT /api/summary (501)" in grade_one(obs, "x_error_envelopes").detail


def test_error_envelope_without_field_errors_caps_at_point_six():
    obs = perfect()
    flat = tuple(
        (
            cell,
            http(
                o.status,
                json.dumps({"error": {"code": "bad_request", "message": "no"}}).encode(),
                path=o.path,
            ),
        )
        for cell, o in obs["validation"].matrix.results
    )
    obs = swap(obs, "validation", matrix=MatrixObservation(flat))
    obs = swap(obs, "batch", invalid=jr({"error": {"code": "bad_request", "message": "x"}}, 400))
    row = grade_one(obs, "b_error_envelope")
    assert row.score == pytest.approx(0.6)
    assert row.detail.startswith(
        "0.6: envelope 7/7 [statuses 400, 404] (0.6), field_errors 0/6 (0.4)"
    )


def test_error_envelope_batch_path_must_name_items():
    obs = swap(
        perfect(),
        "batch",
        invalid=jr(
            {
                "error": {
                    "code": "bad_request",
                    "message": "x",
                    "field_errors": [{"path": "amount", "code": "bad_format"}],
                }
            },
            400,
        ),
    )
    row = grade_one(obs, "b_error_envelope")
    assert row.score == pytest.approx(0.6 + 0.4 * 5 / 6, abs=1e-5)
    assert "short: batch[invalid]" in row.detail


def test_error_envelope_top_level_field_errors_do_not_count():
    obs = swap(
        perfect(),
        "batch",
        invalid=jr(
            {
                "error": {"code": "bad_request", "message": "x"},
                "field_errors": [{"path": "items[0]", "code": "required"}],
            },
            400,
        ),
    )
    assert grade_one(obs, "b_error_envelope").score < 1.0


def test_ui_offline_one_cdn_script_is_zero():
    obs = perfect()
    cdn = http(200, b'<html><script src="https://cdn.example/three.js"></script>', "text/html")
    row = grade_one(swap(obs, "page", index=cdn), "ui_offline")
    assert row.score == 0.0 and "https://" in row.detail and "index.html" in row.detail
    assets = dict(obs["page"].assets) | {"viz.js": http(200, b'import("https://x/y.js")')}
    assert grade_one(swap(obs, "page", assets=assets), "ui_offline").score == 0.0
    local = http(200, b'<html><script src="/app.js"></script><a href="#top">', "text/html")
    assert grade_one(swap(obs, "page", index=local), "ui_offline").score == 1.0


def test_missing_reads_phase_is_not_attempted():
    obs = perfect()
    obs = replace(obs, phases={k: v for k, v in obs.phases.items() if k != "reads"})
    row = grade_one(obs, "total_field")
    assert row.status is Status.NOT_ATTEMPTED
    assert row.detail == "phase reads did not run (not selected with --phases)"
