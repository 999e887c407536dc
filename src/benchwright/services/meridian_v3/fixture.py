"""The v3 fixture: 12,288 seeded payments over 96 Berlin days with one DST transition.

Structure is frozen (count, span, page size, vocabularies, caps); every value is drawn
from the seed (the DST transition, its place in the span, day lengths, instants, UTC
offsets, statuses, currencies, amounts, counterparties, the serve order), so a client
that memorised one run's constants fails the next. Generation self-checks every
invariant the graders rely on and refuses to return a fixture that breaks one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, timezone
from functools import cache, cached_property
from itertools import pairwise

from benchwright.errors import HarnessError
from benchwright.services.meridian_v3.config import (
    CURRENCIES,
    DAYS,
    EDGE_DAYS,
    EXPONENTS,
    MAX_PER_DAY,
    STATUSES,
    TOTAL,
)
from benchwright.services.meridian_v3.truth import (
    BERLIN,
    Truth,
    berlin_day,
    string_day,
    truth_of,
)

DST_MENU = (date(2026, 3, 29), date(2026, 10, 25), date(2027, 3, 28), date(2025, 10, 26))
"""The Berlin DST transitions a seed chooses among."""
MIN_PER_DAY = 60
STATUS_WEIGHTS = (0.46, 0.18, 0.14, 0.22)
CURRENCY_WEIGHTS = (0.4, 0.3, 0.15, 0.15)
LOG_MAJOR = {"EUR": (0.5, 4.6), "USD": (0.5, 4.6), "JPY": (1.5, 6.2), "KWD": (-0.5, 3.9)}
"""log10 of the major amount, per currency: together far more than 3 decades."""
FOREIGN_OFFSETS = ("-05:00", "-03:30", "+05:30", "+09:00", "-11:00", "+13:00", "+00:00")
NEAR_MIDNIGHT = timedelta(minutes=90)
EDGE_SHARE, DST_EDGE_SHARE = 0.16, 0.4
NAMES = (
    "Aurora Freight",
    "Birchwood Textiles",
    "Cobalt Marine",
    "Delta Orchards",
    "Ember Foundry",
    "Fjord Logistics",
    "Granite Works",
    "Harbor Mills",
    "Iris Pharma",
    "Juniper Retail",
    "Kestrel Aviation",
    "Lumen Optics",
    "Northwind Dairy",
    "Oakridge Timber",
    "Pinnacle Grain",
    "Quayside Imports",
    "Müller & Söhne GmbH",
    "Société Générale d'Étains",
    "Tōkyō Kōgyō K.K.",
    "Al-Kuwait Trading Co.",
)
COUNTRIES = ("DE", "US", "JP", "KW", "FR", "GB", "NL", "AT", "CH", "IT")
NOTES = (
    "invoice 4411",
    "call the counterparty",
    "Q2 true-up",
    "split shipment",
    "FX hedge",
    "awaiting docs",
)
TOP_LABELS = 12
"""The 3D field labels the records with the highest major amounts: they must be distinct
and spread over at least `TOP_MIN_DAYS` days."""
TOP_MIN_DAYS = 6


@dataclass(frozen=True)
class V3Fixture:
    """One run's collection at load, in serve order, and the truth derived from it.

    ``payments`` are wire-shaped dicts (never mutate them: the store copies); the i-th
    is ``pay_{i+1:05d}``, served at position i of the walk. ``instants`` are their UTC
    instants, in the same order.
    """

    seed: int
    first_day: date
    dst_day: date
    payments: tuple[dict, ...]
    instants: tuple[datetime, ...]
    reversals: tuple[dict, ...]
    """One per payment refunded at load, in serve order of their payments."""

    @property
    def total(self) -> int:
        return len(self.payments)

    @cached_property
    def days(self) -> tuple[date, ...]:
        """The 96 consecutive Berlin calendar days of the span."""
        return tuple(self.first_day + timedelta(days=d) for d in range(DAYS))

    @cached_property
    def by_id(self) -> dict[str, int]:
        """Payment id -> serve position."""
        return {row["id"]: i for i, row in enumerate(self.payments)}

    @cached_property
    def truth(self) -> Truth:
        """The truth at load: expected buckets, per-currency and reversal totals."""
        return truth_of(self.payments, self.reversals, self.days)

    @cached_property
    def day_counts(self) -> dict[str, int]:
        """Payments per Berlin day at load (``YYYY-MM-DD`` -> count)."""
        return self.truth.day_counts()

    @property
    def max_day_count(self) -> int:
        """R0: the most payments any day holds at load (the 3D layout's depth)."""
        return max(self.day_counts.values())

    def headroom_days(self) -> tuple[date, ...]:
        """Days a vendor-side create may be value-dated into: at most R0 - 2 at load, so
        the 3D layout basis never moves."""
        limit = self.max_day_count - 2
        return tuple(d for d in self.days if self.day_counts[d.isoformat()] <= limit)

    def dst_window(self, radius: int = 2) -> tuple[date, ...]:
        """The days within ``radius`` of the DST transition (the buckets' severity leg)."""
        return tuple(d for d in self.days if abs((d - self.dst_day).days) <= radius)

    def page_of(self, payment_id: str, page_size: int) -> int:
        """The 1-based page of the first walk that serves ``payment_id``."""
        return self.by_id[payment_id] // page_size + 1


def day_span(day: date) -> tuple[datetime, datetime]:
    """The UTC instants [start, end) of a Berlin calendar day: 23, 24 or 25 hours."""
    start = datetime.combine(day, time(), BERLIN).astimezone(UTC)
    end = datetime.combine(day + timedelta(days=1), time(), BERLIN).astimezone(UTC)
    return start, end


def rfc3339(instant: datetime, offset: str | None) -> str:
    """``instant`` written at ``offset`` (``Z``, ``±HH:MM``, or None: Berlin's own),
    milliseconds kept when it has any."""
    if offset == "Z":
        local = instant.astimezone(UTC)
    elif offset is None:
        local = instant.astimezone(BERLIN)
    else:
        sign = 1 if offset[0] == "+" else -1
        delta = timedelta(hours=int(offset[1:3]), minutes=int(offset[4:6]))
        local = instant.astimezone(timezone(sign * delta))
    text = local.isoformat(timespec="milliseconds" if local.microsecond else "seconds")
    return text.replace("+00:00", "Z") if offset == "Z" else text


def utc_z(instant: datetime) -> str:
    return rfc3339(instant, "Z")


def minor_units(amount_major: float, currency: str) -> int:
    """A major amount as integer minor units of ``currency`` (never below 1)."""
    return max(1, round(amount_major * 10 ** EXPONENTS[currency]))


def major(row: dict) -> float:
    """A payment's amount in major units (through its currency's exponent)."""
    return row["amount_minor"] / 10 ** EXPONENTS[row["currency"]]


@cache
def build_fixture_v3(seed: int = 0) -> V3Fixture:
    """Generate and self-check the fixture of ``seed``; cached (callers copy rows)."""
    rng = random.Random(f"meridian-v3-fixture-{seed}")
    first_day, dst_day = _span(rng)
    days = [first_day + timedelta(days=d) for d in range(DAYS)]
    instants = _instants(rng, days, _day_counts(rng), dst_day)
    rng.shuffle(instants)
    payments = _payments(rng, instants)
    _separate_top(payments)
    reversals = [
        _reversal(rng, k, row, instant)
        for k, (row, instant) in enumerate(
            ((r, t) for r, t in zip(payments, instants, strict=True) if r["status"] == "refunded"),
            start=1,
        )
    ]
    fixture = V3Fixture(
        seed, first_day, dst_day, tuple(payments), tuple(instants), tuple(reversals)
    )
    _self_check(fixture)
    return fixture


def span_of(seed: int) -> tuple[date, date]:
    """(first day, DST day) of run ``seed``: what `build_fixture_v3` draws first."""
    return _span(random.Random(f"meridian-v3-fixture-{seed}"))


def _span(rng: random.Random) -> tuple[date, date]:
    """The DST transition from the menu, and a first day putting it inside the span."""
    dst_day = rng.choice(DST_MENU)
    return dst_day - timedelta(days=rng.randrange(EDGE_DAYS, DAYS - EDGE_DAYS)), dst_day


def _day_counts(rng: random.Random) -> list[int]:
    """Payments per day: seeded, each in [MIN_PER_DAY, MAX_PER_DAY], summing to TOTAL."""
    counts = [rng.randint(MIN_PER_DAY + 20, MAX_PER_DAY) for _ in range(DAYS)]
    while (gap := TOTAL - sum(counts)) != 0:
        day = rng.randrange(DAYS)
        step = 1 if gap > 0 else -1
        if MIN_PER_DAY <= counts[day] + step <= MAX_PER_DAY:
            counts[day] += step
    return counts


def _instants(
    rng: random.Random, days: list[date], counts: list[int], dst_day: date
) -> list[datetime]:
    """Distinct instants, ``counts[d]`` inside Berlin day ``d``: a share of each day lies
    within 90 minutes of a Berlin midnight (a larger share around the DST transition),
    where UTC-day and raw-string bucketing go wrong."""
    out: list[datetime] = []
    taken: set[datetime] = set()
    for day, count in zip(days, counts, strict=True):
        start, end = day_span(day)
        span = (end - start).total_seconds()
        edge = DST_EDGE_SHARE if abs((day - dst_day).days) <= 2 else EDGE_SHARE
        for _ in range(count):
            while True:
                if rng.random() < edge:
                    near = rng.uniform(0, NEAR_MIDNIGHT.total_seconds())
                    second = near if rng.random() < 0.5 else span - 1 - near
                else:
                    second = rng.uniform(0, span - 1)
                millis = rng.randrange(1000) if rng.random() < 0.1 else 0
                instant = start + timedelta(seconds=int(second), milliseconds=millis)
                if instant not in taken:
                    break
            taken.add(instant)
            out.append(instant)
    return out


def _payments(rng: random.Random, instants: list[datetime]) -> list[dict]:
    """The payments at ``instants`` (serve order), every categorical drawn in one batch."""
    n = len(instants)
    statuses = rng.choices(STATUSES, STATUS_WEIGHTS, k=n)
    currencies = rng.choices(CURRENCIES, CURRENCY_WEIGHTS, k=n)
    offsets = rng.choices((None, "Z", *FOREIGN_OFFSETS), (6, 5, *[9 / 7] * 7), k=n)
    rows = []
    for i, (instant, status, currency) in enumerate(
        zip(instants, statuses, currencies, strict=True)
    ):
        settled = instant + timedelta(minutes=rng.randint(5, 600))
        rows.append(
            {
                "id": f"pay_{i + 1:05d}",
                "amount_minor": minor_units(10 ** rng.uniform(*LOG_MAJOR[currency]), currency),
                "currency": currency,
                "created_at": rfc3339(instant, offsets[i]),
                "settled_at": utc_z(settled) if status == "settled" else None,
                "status": status,
                "version": 1,
                "note": rng.choice(NOTES) if rng.random() < 0.12 else "",
                "counterparty": {"name": rng.choice(NAMES), "country": rng.choice(COUNTRIES)},
            }
        )
    return rows


def _separate_top(payments: list[dict]) -> None:
    """Make the label candidates' major amounts distinct (a tie bumps the later one up
    by one minor unit, repeated until none is left)."""
    while True:
        top = sorted(payments, key=lambda row: (-major(row), row["id"]))[: TOP_LABELS + 1]
        ties = [b for a, b in pairwise(top) if major(a) == major(b)]
        if not ties:
            return
        ties[0]["amount_minor"] += 1


def _reversal(rng: random.Random, k: int, row: dict, instant: datetime) -> dict:
    when = instant + timedelta(hours=rng.randint(2, 72), seconds=rng.randrange(3600))
    return {
        "id": f"rev_{k:05d}",
        "payment_id": row["id"],
        "amount_minor": row["amount_minor"],
        "currency": row["currency"],
        "created_at": utc_z(when),
    }


def wrong_cells(fixture: V3Fixture, days_of: list[date], within: tuple[date, ...] = ()) -> int:
    """How many (day, status) cells a bucketing that puts payment i on ``days_of[i]`` gets
    wrong, over the days ``within`` (empty: the whole span)."""
    wanted = {d.isoformat() for d in within or fixture.days}
    counts: dict[tuple[str, str], int] = {}
    for row, day in zip(fixture.payments, days_of, strict=True):
        key = (day.isoformat(), row["status"])
        counts[key] = counts.get(key, 0) + 1
    truth = fixture.truth.buckets
    cells = {key for key in set(counts) | set(truth) if key[0] in wanted}
    return sum(counts.get(key, 0) != truth.get(key, 0) for key in cells)


WINTER = timezone(timedelta(hours=1))
"""Berlin's standard offset: a client bucketing at a fixed +01:00 all year is wrong past
(or before) the DST transition."""


def _self_check(f: V3Fixture) -> None:
    """Raise `HarnessError` naming the first broken invariant of a generated fixture."""
    truth, counts = f.truth, list(f.day_counts.values())
    statuses = {s: sum(r["status"] == s for r in f.payments) for s in STATUSES}
    majors = [major(r) for r in f.payments]
    top = sorted(f.payments, key=lambda row: (-major(row), row["id"]))[:TOP_LABELS]
    window = f.dst_window()
    utc = [t.date() for t in f.instants]
    raw = [string_day(r["created_at"]) for r in f.payments]
    fixed = [t.astimezone(WINTER).date() for t in f.instants]
    offsets = {r["created_at"][19:].lstrip(".0123456789") for r in f.payments}
    transitions = [
        a
        for a, b in pairwise(f.days)
        if datetime.combine(a, time(12), BERLIN).utcoffset()
        != datetime.combine(b, time(12), BERLIN).utcoffset()
    ]
    problems = [
        (f"{f.total} payments, not {TOTAL}", f.total != TOTAL),
        (
            "ids are not pay_00001.. in serve order",
            [r["id"] for r in f.payments] != [f"pay_{i:05d}" for i in range(1, f.total + 1)],
        ),
        ("instants are not distinct", len(set(f.instants)) != f.total),
        (f"the span holds DST transitions {transitions}", len(transitions) != 1),
        (
            "the DST day is within 7 days of an end",
            not EDGE_DAYS <= (f.dst_day - f.first_day).days < DAYS - EDGE_DAYS,
        ),
        ("a day holds 0 or more than 180 payments", min(counts) < 1 or max(counts) > MAX_PER_DAY),
        ("the buckets do not cover every day of the span", len(counts) != DAYS),
        (f"a status is under 8%: {statuses}", min(statuses.values()) < 0.08 * f.total),
        (
            "a currency is missing",
            set(truth.by_currency) != set(CURRENCIES)
            or min(n for n, _ in truth.by_currency.values()) == 0,
        ),
        ("amounts span fewer than 3 decades", max(majors) / min(majors) < 1000),
        ("fewer than 5 distinct UTC offsets", len(offsets) < 5),
        (
            "a refunded payment lacks exactly one reversal",
            sorted(r["payment_id"] for r in f.reversals)
            != sorted(r["id"] for r in f.payments if r["status"] == "refunded"),
        ),
        ("the label candidates' amounts are not distinct", len({major(r) for r in top}) < len(top)),
        (
            "the label candidates sit on fewer than 6 days",
            len({berlin_day(r["created_at"]) for r in top}) < TOP_MIN_DAYS,
        ),
        ("UTC-day bucketing is wrong in fewer than 96 cells", wrong_cells(f, utc) < DAYS),
        ("raw-string bucketing is wrong in fewer than 96 cells", wrong_cells(f, raw) < DAYS),
        ("UTC-day bucketing is right around the DST day", wrong_cells(f, utc, window) < 4),
        ("raw-string bucketing is right around the DST day", wrong_cells(f, raw, window) < 4),
        ("fixed +01:00 bucketing is right around the DST day", wrong_cells(f, fixed, window) < 2),
        ("no day has headroom for a value-dated create", len(f.headroom_days()) < 8),
    ]
    for message, broken in problems:
        if broken:
            raise HarnessError(f"meridian v3 fixture seed {f.seed}: {message}")
