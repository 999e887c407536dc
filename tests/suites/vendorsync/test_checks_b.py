"""Tier B checks read on the wire, on canned observations."""

import pytest
from canned_http import jr, refused
from vendorsync_canned import (
    LAST_SYNC,
    ROWS,
    TRUTH,
    grade_one,
    health,
    matrix,
    page,
    perfect,
    swap,
)

from benchwright.model import Status

TIER_B = ("sync_completeness", "resync_idempotent", "local_pagination", "payment_row_shape",
          "total_field", "chronological_order", "summary_accuracy", "summary_bounds_utc",
          "input_validation", "row_integrity", "chronological_order_full", "json_everywhere",
          "health_semantics")  # fmt: skip


@pytest.mark.parametrize("check", TIER_B)
def test_a_perfect_app_earns_every_wire_row(check):
    row = grade_one(perfect(), check)
    assert (row.status, row.score) == (Status.PASS, 1.0), row


def test_sync_completeness_is_the_count_over_247_and_0_without_a_count():
    obs = perfect()
    half = swap(obs, "sync1", call=jr({"fetched": 100, "inserted": 100, "total": 100}))
    assert grade_one(half, "sync_completeness").score == pytest.approx(100 / 247)
    fetched_only = swap(obs, "sync1", call=jr({"fetched": 247}))
    assert grade_one(fetched_only, "sync_completeness").score == 1.0
    assert grade_one(swap(obs, "sync1", call=refused()), "sync_completeness").score == 0.0
    doubled = swap(obs, "sync1", call=jr({"total": 494}))
    assert grade_one(doubled, "sync_completeness").score == 0.5


def test_resync_idempotent_half_for_new_inserts_zero_for_a_wrong_total():
    obs = perfect()
    again = swap(obs, "sync2", call=jr({"fetched": 247, "inserted": 247, "total": 247}))
    assert grade_one(again, "resync_idempotent").score == 0.5
    dup = swap(obs, "sync2", call=jr({"fetched": 247, "inserted": 247, "total": 494}))
    assert grade_one(dup, "resync_idempotent").score == 0.0


def test_local_pagination_costs_a_third_per_failing_part():
    obs = perfect()
    uncapped = swap(obs, "reads", capped=jr(page(ROWS, limit=500)))
    row = grade_one(uncapped, "local_pagination")
    assert row.score == pytest.approx(2 / 3) and "limit=500" in row.detail
    fifty = swap(uncapped, "reads", default=jr(page(ROWS[:50], limit=50)))
    assert grade_one(fifty, "local_pagination").score == pytest.approx(1 / 3)


def test_payment_row_shape_fraction_present_minus_extra_keys():
    obs = perfect()
    row = dict(ROWS[0])
    del row["status"]
    missing = swap(obs, "reads", default=jr(page([row])))
    assert grade_one(missing, "payment_row_shape").score == pytest.approx(0.8)
    extra = swap(obs, "reads", default=jr(page([{**ROWS[0], "note": ""}])))
    assert grade_one(extra, "payment_row_shape").score == pytest.approx(0.8)
    assert grade_one(swap(obs, "reads", default=jr(page([]))), "payment_row_shape").score == 0


def test_total_field_is_the_collection_not_the_page():
    obs = perfect()
    assert (
        grade_one(swap(obs, "reads", default=jr(page(ROWS[:25], total=25))), "total_field").score
        == 0
    )
    as_text = swap(obs, "reads", default=jr(page(ROWS[:25], total="247")))  # type: ignore[arg-type]
    assert grade_one(as_text, "total_field").score == 0


def test_chronological_order_counts_pairs_as_instants_not_strings():
    obs = perfect()
    by_string = sorted(ROWS, key=lambda r: r["created_at"])[:25]
    row = grade_one(swap(obs, "reads", default=jr(page(by_string))), "chronological_order")
    assert 0 < row.score < 1
    bad = [dict(ROWS[0], created_at="yesterday"), ROWS[1]]
    assert grade_one(swap(obs, "reads", default=jr(page(bad))), "chronological_order").score == 0
    one = swap(obs, "reads", default=jr(page(ROWS[:1])))
    assert grade_one(one, "chronological_order").score == 0


def test_summary_accuracy_loses_ten_times_the_relative_error_and_all_for_a_float():
    obs = perfect()
    off = round(TRUTH.sum_minor * 1.05)
    near = swap(obs, "reads", summary=jr({"total_minor": off}))
    assert grade_one(near, "summary_accuracy").score == pytest.approx(0.5, abs=1e-4)
    money = f'{{"total_minor": {TRUTH.sum_minor / 100}}}'.encode()
    floats = swap(obs, "reads", summary=jr(None, raw=money))
    assert grade_one(floats, "summary_accuracy").score == 0


def test_summary_bounds_utc_parts():
    obs = perfect()
    offset = {"oldest": "2026-03-01T13:00:00+01:00", "newest": TRUTH.newest}
    assert grade_one(swap(obs, "reads", summary=jr(offset)), "summary_bounds_utc").score == 0.7
    swapped = {"oldest": TRUTH.newest, "newest": TRUTH.oldest}
    assert grade_one(swap(obs, "reads", summary=jr(swapped)), "summary_bounds_utc").score == 0.7
    wrong = {"oldest": "2026-01-01T00:00:00Z", "newest": TRUTH.newest}
    assert grade_one(swap(obs, "reads", summary=jr(wrong)), "summary_bounds_utc").score == 0.7
    absent = {"oldest": None, "newest": None}
    assert grade_one(swap(obs, "reads", summary=jr(absent)), "summary_bounds_utc").score == 0


def test_input_validation_half_a_cell_for_status_half_for_body():
    obs = perfect()
    page_for_zero = matrix(limit_0=(200, page(ROWS[:25])))
    row = grade_one(swap(obs, "validation", matrix=page_for_zero), "input_validation")
    assert row.score == pytest.approx(7 / 8) and "limit=0" in row.detail
    wrong_body = matrix(DELETE__api_payments=(405, {"error": "bad_method"}))
    row = grade_one(swap(obs, "validation", matrix=wrong_body), "input_validation")
    assert row.score == pytest.approx(7.5 / 8)
    shaped = matrix(api_nope=(404, {"error": {"code": "not_found"}}))
    row = grade_one(swap(obs, "validation", matrix=shaped), "input_validation")
    assert row.score == pytest.approx(7.5 / 8)


def test_row_integrity_parts():
    obs = perfect()
    pages = obs["reads"].pages
    floaty = pages[0].response.body.replace(b'"amount_minor": 1', b'"amount_minor": 1.5', 1)
    first = jr(None, raw=floaty)
    row = grade_one(swap(obs, "reads", pages=(first, *pages[1:])), "row_integrity")
    assert row.score == pytest.approx(0.75) and "float" in row.detail
    short = tuple(jr(page(ROWS[o : o + 50], 100, o)) for o in (0, 100, 200))
    row = grade_one(swap(obs, "reads", pages=short), "row_integrity")
    assert row.score == pytest.approx(0.75 + 0.25 * 147 / 247)
    assert grade_one(swap(obs, "reads", pages=(refused(),)), "row_integrity").score == 0


def test_chronological_order_full_against_the_true_order():
    obs = perfect()
    by_string = sorted(ROWS, key=lambda r: (r["created_at"], r["id"]))
    pages = tuple(jr(page(by_string[o : o + 100], 100, o)) for o in (0, 100, 200))
    row = grade_one(swap(obs, "reads", pages=pages), "chronological_order_full")
    assert 0 < row.score < 1
    empty = swap(obs, "reads", pages=(jr(page([])),))
    assert grade_one(empty, "chronological_order_full").score == 0


def test_json_everywhere_halves_for_parsing_and_content_type():
    obs = perfect()
    sample = list(obs["reads"].sample)
    sample[4] = jr(None, status=404, ctype="text/html", raw=b"<h1>Not Found</h1>")
    sample[5] = jr({"error": "bad_request"}, status=400, ctype="text/plain")
    row = grade_one(swap(obs, "reads", sample=tuple(sample)), "json_everywhere")
    assert row.score == pytest.approx(4.5 / 6)


def test_health_semantics_quarters():
    obs = perfect()
    synced_before = swap(obs, "health", fresh=jr(health(247, LAST_SYNC)))
    assert grade_one(synced_before, "health_semantics").score == 0.75
    local = swap(obs, "reads", health=jr(health(247, "2026-04-01T12:00:00+02:00")))
    assert grade_one(local, "health_semantics").score == 0.75
    lost = swap(obs, "reads", health=jr({"status": "degraded", "payments": 200,
                                         "last_sync": LAST_SYNC}))  # fmt: skip
    assert grade_one(lost, "health_semantics").score == 0.5
