"""Everything a grader expects of a correct client, derived from the generated rows.

Nothing here is typed in: totals, buckets, bounds and the optimal request counts
are computed from the fixture (the optimum by walking it with the mock's own
paging and trap rules), so another seed yields other, equally exact numbers.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import UTC

from benchwright.services.meridian import paging
from benchwright.services.meridian.rows import BERLIN, STATUSES, Params, utc_z
from benchwright.services.meridian.traps import Trap, TrapState


@dataclass(frozen=True)
class Expectations:
    """The fixture's ground truth (``by_currency`` maps code -> (count, total_minor))."""

    total: int
    by_currency: dict[str, tuple[int, int]]
    by_status: dict[str, int]
    cross_currency_sum: int
    oldest: str
    newest: str
    buckets: dict
    utc_buckets_wrong_cells: int
    utc_days: int
    optimal_requests: int
    optimal_requests_halfset: int
    optimal_requests_stall: int


def buckets(rows: list[dict], tz=BERLIN) -> dict:
    """Day x status counts on the instant's calendar date in ``tz``: gap-free, day-major."""
    counts = Counter((r["_instant"].astimezone(tz).date(), r["status"]) for r in rows)
    first, last = min(d for d, _ in counts), max(d for d, _ in counts)
    days = [first.fromordinal(o) for o in range(first.toordinal(), last.toordinal() + 1)]
    cells = [
        {"day": d.isoformat(), "status": s, "count": counts.get((d, s), 0)}
        for d in days
        for s in STATUSES
    ]
    return {
        "timezone": "Europe/Berlin" if tz is BERLIN else "UTC",
        "days": [d.isoformat() for d in days],
        "statuses": list(STATUSES),
        "cells": cells,
    }


def _wrong_cells(berlin: dict, utc: dict) -> int:
    want = {(c["day"], c["status"]): c["count"] for c in berlin["cells"]}
    got = {(c["day"], c["status"]): c["count"] for c in utc["cells"]}
    return sum(count != got.get(key, 0) for key, count in want.items())


def perfect_walk(visible: int, p: Params, *, stall: bool = False) -> int:
    """List requests a perfect client needs at limit 100, traps (and an armed stall) included."""
    traps = TrapState(stall_armed=stall)
    cursor, requests = None, 0
    while requests < 10_000:
        requests += 1
        trap = traps.on_list(cursor is not None)
        if trap is Trap.CURSOR_EXPIRED:
            cursor = None
        if trap is not None:
            continue
        offset = paging.decode_cursor(cursor, visible) if cursor else 0
        page = paging.page(offset, paging.MAX_LIMIT, visible, p.short_offset, p.short_take)
        if traps.take_stall(page.last):
            requests += 1  # timed out inside the hold, retried once
        if page.next_cursor is None:
            return requests
        cursor = page.next_cursor
    raise AssertionError("perfect walk did not terminate")


def derive(rows: list[dict], p: Params) -> Expectations:
    """Compute every expectation from ``rows`` (time order)."""
    by_currency: dict[str, tuple[int, int]] = {}
    for r in rows:
        count, total = by_currency.get(r["currency"], (0, 0))
        by_currency[r["currency"]] = (count + 1, total + r["amount_minor"])
    statuses = Counter(r["status"] for r in rows)
    berlin, utc = buckets(rows), buckets(rows, UTC)
    return Expectations(
        total=len(rows),
        by_currency=dict(sorted(by_currency.items())),
        by_status={s: statuses.get(s, 0) for s in STATUSES},
        cross_currency_sum=sum(r["amount_minor"] for r in rows),
        oldest=utc_z(min(r["_instant"] for r in rows)),
        newest=utc_z(max(r["_instant"] for r in rows)),
        buckets=berlin,
        utc_buckets_wrong_cells=_wrong_cells(berlin, utc),
        utc_days=len(utc["days"]),
        optimal_requests=perfect_walk(len(rows), p),
        optimal_requests_halfset=perfect_walk(len(rows) // 2, p),
        optimal_requests_stall=perfect_walk(len(rows), p, stall=True),
    )
