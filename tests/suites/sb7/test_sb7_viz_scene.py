"""The 3D field's scene contract as the grader recomputes it (spec §8.1), on hand numbers:
heights through each currency's exponent, the layout basis, placement by Berlin day and
in-day rank, the digest's moments, and the truth's days overriding a UTC-bucketed day."""

from __future__ import annotations

import pytest

from benchwright.suites.sb7.viz import scene
from benchwright.suites.sb7.viz.scene import Basis, Record


@pytest.mark.parametrize(
    ("amount_minor", "currency", "h"),
    [
        (10_000, "EUR", 2.0),  # 100.00 EUR: 0.9 + 0.55 * 2
        (100, "JPY", 2.0),  # 100 yen: exponent 0, not 1.00
        (100_000, "KWD", 2.0),  # 100.000 KWD: exponent 3
        (1_000, "KWD", 0.9),  # 1.000 KWD: log10(1) = 0
        (1, "USD", 0.2),  # 0.01 USD: 0.9 - 1.1 clamps up to 0.2
        (10**9, "JPY", 4.2),  # clamps down to 4.2
    ],
)
def test_height_goes_through_the_currency_exponent(amount_minor, currency, h) -> None:
    assert scene.height(amount_minor, currency) == pytest.approx(h)


def test_a_yen_height_with_two_decimals_is_measurably_wrong() -> None:
    assert scene.height(100, "JPY") - scene.height(100, "EUR") == pytest.approx(1.1)


def _rec(pid: str, day: str, at: str, amount: int = 10_000) -> Record:
    return Record(pid, amount, "EUR", at, day)


RECORDS = [
    _rec("p3", "2026-03-01", "2026-03-01T10:00:00+01:00"),
    _rec("p1", "2026-03-01", "2026-03-01T09:00:00+01:00", 1_000_000),  # 10,000.00: h 3.1
    _rec("p2", "2026-03-03", "2026-03-03T08:00:00+01:00"),
]


def test_the_basis_is_the_first_day_the_span_and_the_fullest_day() -> None:
    assert scene.basis(RECORDS, "2026-03-01") == Basis("2026-03-01", 96, 2)


def test_columns_are_placed_by_day_and_in_day_rank_keeping_arrival_order() -> None:
    columns = scene.place(RECORDS, Basis("2026-03-01", 96, 2))
    assert [c.id for c in columns] == ["p3", "p1", "p2"]  # n = arrival, never re-sorted
    assert [c.n for c in columns] == [0, 1, 2]
    # d = 0: x = (0 - 47.5) * 1.2; d = 2: (2 - 47.5) * 1.2
    assert [c.x for c in columns] == pytest.approx([-57.0, -57.0, -54.6])
    # p1 is earlier on its day: rank 0, z = (0 - 0.5) * 1.2; p3 rank 1; p2 rank 0
    assert [c.z for c in columns] == pytest.approx([0.6, -0.6, -0.6])
    assert [c.h for c in columns] == pytest.approx([2.0, 3.1, 2.0])


def test_the_digest_sums_the_seven_moments() -> None:
    got = scene.digest(scene.place(RECORDS, Basis("2026-03-01", 96, 2)))
    assert got == pytest.approx({
        "count": 3, "Sh": 7.1, "Sh2": 4 + 9.61 + 4, "Sx": -168.6, "Sz": -0.6,
        "Sxh": -57.0 * 2 - 57.0 * 3.1 - 54.6 * 2, "Szh": 0.6 * 2 - 0.6 * 3.1 - 0.6 * 2,
    })  # fmt: skip


def test_the_tolerance_is_half_a_unit_or_a_ten_thousandth() -> None:
    assert scene.tolerance(100.0) == 0.5
    assert scene.tolerance(-80_000.0) == pytest.approx(8.0)


class _Known:
    def __init__(self, day: str, amount_minor: int, currency: str, created_at: str) -> None:
        self.day, self.amount_minor, self.currency = day, amount_minor, currency
        self.created_at = created_at


def test_the_truths_berlin_day_overrides_a_utc_bucketed_served_day() -> None:
    served = {"id": ["late", "new"], "amount_minor": [5, 700], "currency": ["EUR", "JPY"],
              "created_at": ["2026-03-01T23:30:00Z", "2026-03-05T10:00:00Z"],
              "day": ["2026-03-01", "2026-03-05"]}  # fmt: skip
    known = {"late": _Known("2026-03-02", 10_000, "EUR", "2026-03-01T23:30:00Z")}
    got = scene.truth_records(served, known)
    assert got == [
        Record("late", 10_000, "EUR", "2026-03-01T23:30:00Z", "2026-03-02"),
        Record("new", 700, "JPY", "2026-03-05T10:00:00Z", "2026-03-05"),  # run-created: served
    ]
