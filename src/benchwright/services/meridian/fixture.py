"""The Meridian fixture: rows, delivery order and every expectation, built from a seed.

`build_fixture(0)` reproduces the published fixture; the expectations are derived
from the generated rows (see `expectations.py`), and generation refuses to
return a fixture whose self-checks fail, so a broken formula cannot ship quietly.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import cache
from itertools import pairwise

from benchwright.errors import HarnessError
from benchwright.services.meridian import script
from benchwright.services.meridian.expectations import Expectations, derive
from benchwright.services.meridian.paging import ShortPage
from benchwright.services.meridian.rows import (
    CURRENCY_CYCLE,
    DST_DAY,
    STATUSES,
    instants,
    make_row,
    params_for,
)

MUTATION_IDS = tuple(f"pay_{n:04d}" for n in range(100, 1300, 100))
"""The 12 payments `mutate_statuses()` flips."""


@dataclass(frozen=True)
class RowSet:
    """What the mock serves, whichever API version: rows in time order, the delivery
    order (indices into them), the short page's knobs and the statuses a mutation sets."""

    seed: int
    params: ShortPage
    rows: tuple[dict, ...]
    order: tuple[int, ...]
    mutation_map: dict[str, str]
    """The rows `mutate_statuses()` changes, each with the status it sets on fresh rows."""

    @property
    def total(self) -> int:
        return len(self.rows)

    def fresh_rows(self) -> dict[str, dict]:
        """A deep copy (id -> row) the mock may mutate."""
        return {row["id"]: copy.deepcopy(row) for row in self.rows}

    def mutated(self, payment_id: str, status: str) -> str:
        """What `mutate_statuses()` sets on ``payment_id``, whose status is now ``status``."""
        return self.mutation_map[payment_id]


@dataclass(frozen=True)
class Fixture(RowSet):
    """The v2 rows and the ground truth derived from them."""

    expect: Expectations
    webhook_counters: dict[str, int]
    webhook_final_rows: dict[str, dict]

    def mutated(self, payment_id: str, status: str) -> str:
        """v2 flips whatever the row says now (settled <-> failed)."""
        return flipped(status)


def flipped(status: str) -> str:
    """What `mutate_statuses()` turns a v2 status into."""
    return "settled" if status == "failed" else "failed"


@cache
def build_fixture(seed: int = 0) -> Fixture:
    """Generate, derive and self-check; cached per seed (callers copy before mutating)."""
    p = params_for(seed)
    rows = [make_row(i, instant, p) for i, instant in enumerate(instants(p))]
    expect = derive(rows, p)
    after = {row["id"]: copy.deepcopy(row) for row in rows}
    events = script.plan(after)
    fixture = Fixture(
        seed=seed,
        params=p,
        rows=tuple(rows),
        order=tuple(k * p.stride % p.total for k in range(p.total)),
        expect=expect,
        webhook_counters=script.expected_counters(events),
        webhook_final_rows={
            pid: {"version": after[pid]["version"], "note": after[pid]["note"]}
            for pid in script.touched(events)
        },
        mutation_map={pid: flipped(rows[int(pid[4:])]["status"]) for pid in MUTATION_IDS},
    )
    _self_check(fixture)
    return fixture


def _self_check(f: Fixture) -> None:
    """Raise `HarnessError` naming the first broken invariant of a generated fixture."""
    rows, e = f.rows, f.expect
    stamps = [r["_instant"] for r in rows]
    cells = e.buckets["cells"]
    zeros = [(c["day"], c["status"]) for c in cells if c["count"] == 0]
    problems = [
        ("instants are not strictly increasing", any(a >= b for a, b in pairwise(stamps))),
        ("ids are not pay_NNNN in time order", [r["id"] for r in rows] != _ids(len(rows))),
        ("delivery order is not a permutation", sorted(f.order) != list(range(len(rows)))),
        ("first 50 rows miss a status", {r["status"] for r in rows[:50]} != set(STATUSES)),
        (
            "first 50 rows miss a currency",
            {r["currency"] for r in rows[:50]} != set(CURRENCY_CYCLE),
        ),
        ("buckets are not 14 days x 4 statuses", len(cells) != 56),
        ("bucket cells do not sum to the total", sum(c["count"] for c in cells) != e.total),
        ("currency counts do not add up", sum(n for n, _ in e.by_currency.values()) != e.total),
        ("status counts do not add up", sum(e.by_status.values()) != e.total),
        (
            "the only empty cell is not (DST day, failed)",
            zeros != [(DST_DAY.isoformat(), "failed")],
        ),
        ("UTC bucketing differs in fewer than 8 cells", e.utc_buckets_wrong_cells < 8),
        ("an amount exceeds the vendor limit", max(r["amount_minor"] for r in rows) > 5_000_000),
    ]
    for message, broken in problems:
        if broken:
            raise HarnessError(f"meridian fixture seed {f.seed}: {message}")


def _ids(n: int) -> list[str]:
    return [f"pay_{i:04d}" for i in range(n)]
