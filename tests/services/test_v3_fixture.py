"""The v3 fixture and schedule: every frozen invariant holds for any seed, the values move
with the seed, and the derived truth catches UTC-day and raw-string bucketing."""

from __future__ import annotations

from datetime import UTC, date, datetime
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchwright.services.meridian_v3 import PAGE_SIZE, PAGES, berlin_day, build_fixture_v3
from benchwright.services.meridian_v3.config import DAYS, EXPONENTS, MAX_PER_DAY, STATUSES
from benchwright.services.meridian_v3.fixture import DST_MENU, major, span_of, wrong_cells
from benchwright.services.meridian_v3.schedule import PAGE_FIRST, WEBHOOK_FIRST, derive_schedule
from benchwright.services.meridian_v3.truth import string_day, utc_day

SEEDS = st.integers(min_value=0, max_value=2**31)
FEW = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FEW
@given(SEEDS)
def test_every_frozen_invariant_holds_for_any_seed(seed):
    f = build_fixture_v3(seed)  # the generator's own self-check raises on a broken one
    assert f.total == 12_288 == PAGES * PAGE_SIZE and len(f.days) == DAYS
    assert f.dst_day in DST_MENU and 7 <= (f.dst_day - f.first_day).days <= DAYS - 8
    counts = f.day_counts.values()
    assert sum(counts) == f.total and min(counts) >= 1 and max(counts) <= MAX_PER_DAY
    for status in STATUSES:
        assert sum(r["status"] == status for r in f.payments) >= 0.08 * f.total
    for row, instant in zip(f.payments, f.instants, strict=True):
        assert isinstance(row["amount_minor"], int) and row["amount_minor"] >= 1
        assert row["currency"] in EXPONENTS and row["version"] == 1
        assert datetime.fromisoformat(row["created_at"]).astimezone(UTC) == instant
        assert (row["settled_at"] is not None) == (row["status"] == "settled")
        assert set(row["counterparty"]) == {"name", "country"}
    majors = [major(r) for r in f.payments]
    assert max(majors) / min(majors) >= 1000
    refunded = {r["id"]: r for r in f.payments if r["status"] == "refunded"}
    assert sorted(r["payment_id"] for r in f.reversals) == sorted(refunded)
    for rev in f.reversals:
        paid = refunded[rev["payment_id"]]
        assert (rev["amount_minor"], rev["currency"]) == (paid["amount_minor"], paid["currency"])


def test_the_same_seed_gives_the_same_fixture_and_another_seed_another():
    a, b = build_fixture_v3(11), build_fixture_v3.__wrapped__(11)
    assert a.payments == b.payments and a.reversals == b.reversals
    other = build_fixture_v3(12)
    assert [r["amount_minor"] for r in other.payments] != [r["amount_minor"] for r in a.payments]


def test_every_dst_transition_of_the_menu_is_drawn_by_some_seed():
    assert {span_of(seed)[1] for seed in range(40)} == set(DST_MENU)
    assert span_of(3) == (build_fixture_v3(3).first_day, build_fixture_v3(3).dst_day)


def test_the_truth_buckets_by_the_berlin_day_of_the_instant():
    f = build_fixture_v3(5)
    assert len(f.truth.buckets) == DAYS * 4
    assert sum(f.truth.buckets.values()) == f.total
    assert berlin_day("2026-03-29T00:30:00+00:00") == date(2026, 3, 29)
    assert berlin_day("2026-03-28T23:30:00Z") == date(2026, 3, 29)  # 00:30 CET
    assert berlin_day("2026-03-29T22:30:00Z") == date(2026, 3, 30)  # 00:30 CEST
    assert berlin_day("2026-10-24T22:30:00Z") == date(2026, 10, 25)


@pytest.mark.parametrize("seed", [0, 1, 3, 5])
def test_utc_day_and_raw_string_bucketing_are_measurably_wrong(seed):
    f = build_fixture_v3(seed)
    utc = [utc_day(r["created_at"]) for r in f.payments]
    raw = [string_day(r["created_at"]) for r in f.payments]
    right = [berlin_day(r["created_at"]) for r in f.payments]
    assert wrong_cells(f, right) == 0
    assert wrong_cells(f, utc) >= DAYS and wrong_cells(f, raw) >= DAYS
    assert wrong_cells(f, utc, f.dst_window()) >= 4 and wrong_cells(f, raw, f.dst_window()) >= 4


@FEW
@given(SEEDS)
def test_the_schedule_keeps_its_frozen_shape_for_any_seed(seed):
    s = derive_schedule(seed)
    f = build_fixture_v3(seed)
    pages = [*s.race_page_numbers, s.drop_after_page, s.error_after_page]
    assert len(set(pages)) == 6 and all(2 <= p <= PAGES - 1 for p in pages)
    ordered = sorted(pages)
    assert all(b - a >= 2 for a, b in pairwise(ordered))
    assert sorted(r.order for r in s.race_pages) == sorted([WEBHOOK_FIRST] * 2 + [PAGE_FIRST] * 2)
    for race in s.race_pages:
        assert len(race.mutations) == 4
        for m in race.mutations:
            served_page = f.page_of(m.payment_id, PAGE_SIZE)
            assert (served_page < race.page) == m.served_before and served_page != race.page
    assert f.page_of(s.refund.payment_id, PAGE_SIZE) < s.refund.page
    assert f.payments[f.by_id[s.refund.payment_id]]["status"] == "settled"
    assert s.create.page == s.race_page_numbers[1]
    everyone = [m.payment_id for r in s.race_pages for m in r.mutations]
    everyone += [s.out_of_order.payment_id, s.refund.payment_id, s.forged.payment_id]
    everyone += [m.payment_id for m in s.stale.mutations]
    assert len(everyone) == len(set(everyone)) == 16 + 5
    assert {f.page_of(m.payment_id, PAGE_SIZE) for m in s.stale.mutations} == {s.stale.page}


def test_the_same_seed_gives_the_same_schedule():
    assert derive_schedule(4) == derive_schedule.__wrapped__(4)
    assert derive_schedule(4).race_page_numbers != derive_schedule(9).race_page_numbers
