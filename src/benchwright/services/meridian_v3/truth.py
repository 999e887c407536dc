"""Ground truth a grader compares an app against: Berlin days, buckets, money per currency.

Pure functions over payment and reversal records (the wire shapes), so the fixture at
load and the commit ledger at any later point derive their truth the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

from benchwright.services.meridian_v3.config import CURRENCIES, STATUSES

BERLIN = ZoneInfo("Europe/Berlin")


def parse_instant(stamp: str) -> datetime:
    """An RFC 3339 timestamp (any offset, ``Z`` included) as an aware UTC datetime."""
    return datetime.fromisoformat(stamp).astimezone(UTC)


def berlin_day(instant: datetime | str) -> date:
    """The Europe/Berlin calendar date of an instant: THE day a payment belongs to
    (never the raw string's date, never the UTC date)."""
    moment = parse_instant(instant) if isinstance(instant, str) else instant
    return moment.astimezone(BERLIN).date()


def utc_day(stamp: str) -> date:
    """The UTC date of a timestamp: the classic wrong bucketing, kept to prove it wrong."""
    return parse_instant(stamp).date()


def string_day(stamp: str) -> date:
    """The date written in the string itself: the other wrong bucketing."""
    return date.fromisoformat(stamp[:10])


@dataclass(frozen=True)
class Truth:
    """What a correct app shows for a set of payments and reversals."""

    buckets: dict[tuple[str, str], int]
    """(Berlin day ``YYYY-MM-DD``, status) -> count, for every day of the span and every
    status (zeros included): 96 x 4 = 384 cells."""
    by_currency: dict[str, tuple[int, int]]
    """currency -> (count, total minor units) over every payment (all statuses)."""
    reversals: dict[str, tuple[int, int]]
    """currency -> (count, total minor units) of reversals; only currencies having some."""
    total: int

    def day_counts(self) -> dict[str, int]:
        """Payments per Berlin day."""
        out: dict[str, int] = {}
        for (day, _status), count in self.buckets.items():
            out[day] = out.get(day, 0) + count
        return out


def truth_of(payments: Iterable[dict], reversals: Iterable[dict], days: Sequence[date]) -> Truth:
    """The truth of ``payments`` (wire shape) and ``reversals`` over the span ``days``.

    A payment outside the span still counts in ``by_currency``; it cannot, by the
    fixture's guarantees (creates are value-dated inside the span).
    """
    buckets = {(day.isoformat(), status): 0 for day in days for status in STATUSES}
    money = {currency: [0, 0] for currency in CURRENCIES}
    total = 0
    for row in payments:
        total += 1
        key = (berlin_day(row["created_at"]).isoformat(), row["status"])
        buckets[key] = buckets.get(key, 0) + 1
        money[row["currency"]][0] += 1
        money[row["currency"]][1] += row["amount_minor"]
    backs: dict[str, list[int]] = {}
    for rev in reversals:
        entry = backs.setdefault(rev["currency"], [0, 0])
        entry[0] += 1
        entry[1] += rev["amount_minor"]
    return Truth(
        buckets=buckets,
        by_currency={c: (n, t) for c, (n, t) in money.items()},
        reversals={c: (n, t) for c, (n, t) in sorted(backs.items())},
        total=total,
    )
