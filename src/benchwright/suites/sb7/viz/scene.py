"""The 3D field's frozen scene contract (spec §8.1), recomputed by the grader on its own.

The page's `vs7dbg.layout()` and `vs7dbg.sceneDigest()` are compared with these numbers,
so they are computed from the fixture's truth (Berlin days, amounts, currencies), never
from the app's own columns: a page (or a server) that buckets days in UTC places its
columns at measurably different x and cannot agree with this recomputation.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Protocol

PITCH = 1.2
"""Δ: the cell pitch in world units."""
SPAN_DAYS = 96
"""D0: the layout's frozen span in days."""
EXPONENTS = {"EUR": 2, "USD": 2, "JPY": 0, "KWD": 3}
"""Minor-unit exponent per currency: heights go through it on purpose."""
H_MIN, H_MAX = 0.2, 4.2
MOMENTS = ("count", "Sh", "Sh2", "Sx", "Sz", "Sxh", "Szh")
"""The digest's seven moments t_scene_binding grades (``brushedCount`` is the brush's)."""


@dataclass(frozen=True)
class Record:
    """One payment as the scene places it: the truth's day, amount and currency."""

    id: str
    amount_minor: int
    currency: str
    created_at: str
    day: str


@dataclass(frozen=True)
class Basis:
    """The layout basis fixed at the first non-empty draw (``vs7dbg.layout()``)."""

    d0: str
    D0: int
    R0: int


@dataclass(frozen=True)
class Column:
    """One instanced column: its arrival index ``n``, cell centre and height."""

    id: str
    n: int
    x: float
    z: float
    h: float
    a_major: float


def a_major(amount_minor: int, currency: str) -> float:
    """The amount in major units, through the currency's exponent (2 when unknown)."""
    return amount_minor / 10 ** EXPONENTS.get(currency, 2)


def height(amount_minor: int, currency: str) -> float:
    """h = clamp(0.9 + 0.55·log10(a_major), 0.2, 4.2); a non-positive amount is the floor."""
    major = a_major(amount_minor, currency)
    if major <= 0:
        return H_MIN
    return min(H_MAX, max(H_MIN, 0.9 + 0.55 * math.log10(major)))


def _instant(record: Record) -> tuple[datetime | str, str]:
    """The (instant, id) order key; an unparsable stamp sorts by its text."""
    try:
        return datetime.fromisoformat(record.created_at.replace("Z", "+00:00")), record.id
    except ValueError:
        return record.created_at, record.id


def basis(records: Iterable[Record], first_day: str) -> Basis:
    """d0 is the span's first day (the truth's, not the data's), R0 the fullest day."""
    per_day = Counter(r.day for r in records)
    return Basis(first_day, SPAN_DAYS, max(per_day.values(), default=0))


def place(records: Sequence[Record], at: Basis) -> tuple[Column, ...]:
    """Every record's column, ``n`` its position in ``records`` (the arrival order): d from
    d0 in days, r its rank within its day in (instant, id) order."""
    by_day: dict[str, list[int]] = defaultdict(list)
    for n, r in enumerate(records):
        by_day[r.day].append(n)
    rank: dict[int, int] = {}
    for members in by_day.values():
        members.sort(key=lambda n: _instant(records[n]))
        rank.update((n, r) for r, n in enumerate(members))
    return tuple(column(r, n, rank[n], at) for n, r in enumerate(records))


def column(record: Record, n: int, rank: int, at: Basis) -> Column:
    """Record ``n``'s column at rank ``rank`` within its day (a streamed create's is its
    day's count before it: §8.6 appends, never re-ranks)."""
    d = (date.fromisoformat(record.day) - date.fromisoformat(at.d0)).days
    x = (d - (at.D0 - 1) / 2) * PITCH
    z = (rank - (at.R0 - 1) / 2) * PITCH
    return Column(record.id, n, x, z, height(record.amount_minor, record.currency),
                  a_major(record.amount_minor, record.currency))  # fmt: skip


def digest(columns: Iterable[Column]) -> dict[str, float]:
    """The seven float64 moments of §8.1, rounded to 4 decimals like the page's."""
    sums = dict.fromkeys(MOMENTS, 0.0)
    for c in columns:
        sums["count"] += 1
        sums["Sh"] += c.h
        sums["Sh2"] += c.h * c.h
        sums["Sx"] += c.x
        sums["Sz"] += c.z
        sums["Sxh"] += c.x * c.h
        sums["Szh"] += c.z * c.h
    return {k: round(v, 4) for k, v in sums.items()}


def tolerance(expected: float) -> float:
    """|Δ| ≤ max(0.5, 1e-4·|expected|): one misplaced column exceeds it."""
    return max(0.5, 1e-4 * abs(expected))


class Known(Protocol):
    """What the truth knows of a payment: a fixture `LoadRow`, or the vendor's create
    `Commit` of a payment made during the run."""

    amount_minor: int
    currency: str
    day: str | None


def truth_records(served: Mapping[str, Any], known: Mapping[str, Known]) -> list[Record]:
    """The page's records in its arrival order, each with the truth's day, amount and
    currency where the truth ``known`` has the id, else as served; the instant is the
    fixture's when it has one (its rank order), else the served stamp."""
    ids = served.get("id")
    if not isinstance(ids, list):
        return []
    cols = {k: served.get(k) for k in ("amount_minor", "currency", "created_at", "day")}
    out = []
    for i, pid in enumerate(ids):
        row = {k: v[i] if isinstance(v, list) and i < len(v) else None for k, v in cols.items()}
        truth = known.get(pid)
        if truth is not None and truth.day is not None:
            row.update(amount_minor=truth.amount_minor, currency=truth.currency, day=truth.day)
            row["created_at"] = getattr(truth, "created_at", row["created_at"])
        if isinstance(row["amount_minor"], int) and isinstance(row["day"], str):
            out.append(Record(str(pid), row["amount_minor"], str(row["currency"]),
                              str(row["created_at"]), row["day"]))  # fmt: skip
    return out
