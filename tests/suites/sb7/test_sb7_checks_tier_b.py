"""Tier B of sb-7 (§12): the wire rows at 1.0 on a correct app and down the exact rung for
one seeded defect (UTC-day bucketing, a seq gap, a lossy total, a bad envelope...)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest
from sb7_observations import (
    READS_MARK,
    answer,
    app_state,
    buckets,
    dead_sync,
    error,
    events,
    perfect,
    row,
    summary,
    swap,
    viz,
    wire,
)

from benchwright.model import Status
from benchwright.suites.sb7.observations import Case, EventsRead


def _utc_days(rows: dict[str, dict]) -> dict[str, dict]:
    """The rows as a UTC-day bucketing app sees them (the data-correctness trap)."""

    def day(stamp: str) -> str:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00")).date().isoformat()

    return {pid: {**r, "day": day(r["created_at"])} for pid, r in rows.items()}


def _page(rows: list[dict], total: int) -> object:
    return answer({"data": rows, "total": total, "limit": 50, "offset": 0})


def test_sync_completeness_is_the_evidenced_share_of_the_collection() -> None:
    short = _page([], 11_000)
    obs = swap(swap(perfect(), "reads", payments=short,
                    summary=answer({**summary(app_state(READS_MARK)), "count": 11_000})),
               "final", payments=short)  # fmt: skip
    assert row(obs, "sync_completeness").score == pytest.approx(11_000 / 12_288)


def test_sync_completeness_without_the_fixture_is_unavailable() -> None:
    assert row(replace(perfect(), truth=None), "sync_completeness").status is Status.UNAVAILABLE


@pytest.mark.parametrize(("delta", "want"), [(-1, 0.75), (1, 0.75), (3, 0.5), (-4, 0.5), (9, 0.0)])
def test_the_total_field_rungs(delta: int, want: float) -> None:
    total = 12_289 + delta
    found = row(swap(perfect(), "reads", payments=_page([], total)), "b_total_field")
    assert found.score == want, found.detail


def test_a_dead_sync_makes_the_total_vacuous_under_sync_completeness() -> None:
    found = row(dead_sync(), "b_total_field")
    assert found.score == 0.0 and found.evidence["blocked_by"] == "sync_completeness"


def test_row_shape_counts_keys_and_charges_extras() -> None:
    first = [wire(r) for r in list(app_state(READS_MARK).values())[:3]]
    missing = [{k: v for k, v in r.items() if k != "country"} for r in first]
    assert (
        row(swap(perfect(), "reads", payments=_page(missing, 12_289)), "b_row_shape").score == 0.9
    )
    extra = [{**r, "counterparty": {}} for r in first]
    assert row(swap(perfect(), "reads", payments=_page(extra, 12_289)), "b_row_shape").score == 0.9
    assert row(swap(perfect(), "reads", payments=_page([], 12_289)), "b_row_shape").score == 0.0


def test_chronological_order_by_instant() -> None:
    rows = [wire(r) for r in list(app_state(READS_MARK).values())[:50]]
    swapped = [rows[1], rows[0], *rows[2:]]
    found = row(swap(perfect(), "reads", payments=_page(swapped, 12_289)), "b_chronological_order")
    assert found.score == pytest.approx(48 / 49)
    bad = [{**rows[0], "created_at": "2026-03-01 10:00"}, *rows[1:]]
    assert row(swap(perfect(), "reads", payments=_page(bad, 12_289)),
               "b_chronological_order").score == 0.0  # fmt: skip
    assert row(swap(perfect(), "reads", payments=_page(rows[:1], 12_289)),
               "b_chronological_order").score == 0.0  # fmt: skip


def test_summary_shape_fifths() -> None:
    good = summary(app_state(READS_MARK))
    unsorted = {**good, "by_currency": good["by_currency"][::-1]}
    assert row(swap(perfect(), "reads", summary=answer(unsorted)), "b_summary_shape").score == 0.8
    no_reversals = {k: v for k, v in good.items() if k != "reversals"}
    found = row(swap(perfect(), "reads", summary=answer(no_reversals)), "b_summary_shape")
    assert found.score == pytest.approx(0.4)
    gone = swap(perfect(), "reads", summary=answer(None, raw=b"<html>oops</html>"))
    assert row(gone, "b_summary_shape").score == 0.0


def test_utc_day_bucketing_loses_cells_and_the_dst_window_leg() -> None:
    wrong = buckets(_utc_days(app_state(READS_MARK)))
    found = row(swap(perfect(), "reads", buckets=answer(wrong)), "b_buckets_dst")
    assert 0.3 < found.score < 1.0
    assert found.evidence["dst_window_exact"] < 1.0


def test_buckets_timezone_and_cell_count() -> None:
    good = buckets(app_state(READS_MARK))
    no_zone = {**good, "timezone": "UTC"}
    assert row(swap(perfect(), "reads", buckets=answer(no_zone)), "b_buckets_dst").score == 0.9
    short = {**good, "cells": good["cells"][:-1]}
    found = row(swap(perfect(), "reads", buckets=answer(short)), "b_buckets_dst")
    assert found.score == pytest.approx(0.7 * 383 / 384 + 0.1 + 0.1)
    empty = row(swap(perfect(), "reads", buckets=answer({"cells": []})), "b_buckets_dst")
    assert empty.score == 0.0


def test_viz_records_days_in_utc_drain_the_berlin_slice() -> None:
    wrong = viz(_utc_days(app_state(READS_MARK)))
    found = row(swap(perfect(), "reads", viz=answer(wrong)), "b_viz_records")
    assert 0.7 < found.score < 1.0


def test_viz_records_columns_and_emptiness() -> None:
    good = viz(app_state(READS_MARK))
    no_version = {k: v for k, v in good.items() if k != "version"}
    found = row(swap(perfect(), "reads", viz=answer(no_version)), "b_viz_records")
    assert found.score == pytest.approx(0.3 * 6 / 7 + 0.2 * 6 / 7 + 0.2 + 0.3)
    assert row(swap(perfect(), "reads", viz=answer({"count": 0, "id": []})),
               "b_viz_records").score == 0.0  # fmt: skip


def test_a_seq_gap_zeroes_the_events_log_contiguity() -> None:
    log = events()
    gap = EventsRead(200, log[:100] + log[101:])
    found = row(swap(perfect(), "final", events=gap), "b_events_log")
    assert found.score == pytest.approx(0.6) and not found.evidence["contiguous"]


def test_events_log_absent_is_an_absent_surface() -> None:
    found = row(swap(perfect(), "final", events=EventsRead(404, ())), "b_events_log")
    assert found.score == 0.0 and found.evidence["absent_surface"]


def test_events_log_vocabularies_scale_their_slices() -> None:
    log = list(events())
    log[0] = {**log[0], "source": "walk", "type": "payment.synced"}
    found = row(swap(perfect(), "final", events=EventsRead(200, tuple(log))), "b_events_log")
    assert found.score == pytest.approx(0.4 + 0.4 * (len(log) - 1) / len(log) + 0.2)


def _cases(value: dict) -> tuple[Case, ...]:
    return tuple(Case(c.name, c.expected_status, answer(value, status=c.expected_status),
                      c.expected_code, c.field_paths)
                 for c in perfect()["matrix"].validation)  # fmt: skip


def test_an_envelope_without_field_errors_caps_at_six_tenths() -> None:
    obs = swap(perfect(), "matrix", validation=_cases(error("bad_request")))
    assert row(obs, "b_error_envelope").score == pytest.approx(0.6)


def test_a_plain_text_error_is_no_envelope() -> None:
    cases = perfect()["matrix"].auth
    plain = (Case(cases[0].name, 401, answer(None, status=401, raw=b"Unauthorized")), *cases[1:])
    found = row(swap(perfect(), "matrix", auth=plain), "b_error_envelope")
    assert found.score == pytest.approx(0.6 * 8 / 9 + 0.4)


def test_json_shapes_counts_an_html_error_page() -> None:
    sample = perfect()["reads"].sample
    html = answer(None, status=500, raw=b"<html>Internal Server Error</html>", ctype="text/html")
    found = row(swap(perfect(), "reads", sample=(*sample[:-1], html)), "b_json_shapes")
    assert found.score == pytest.approx(4 / 5)
    assert row(swap(perfect(), "reads", sample=()), "b_json_shapes").score == 0.0
