"""The Meridian v1 fixture (sb-5.2 ``vendorsync``): euro payments in a scrambled order.

Seed 0 reproduces the published v1 fixture (docs/facts/meridian-v1.md §3): 247 settled
EUR payments, ``pay_NNNN`` numbered in *delivery* order, whose instants are 37-minute steps picked
by a stride, each written in one of five UTC offsets, so neither the delivery order nor
the strings' order is the order in time. The published stride (19) divides the total
(247): only 13 distinct instants, 19 payments each; ties are ordered by id (delivery
order), as the public scorer's stable sort orders them. Other seeds turn the same
knobs, so a client that memorised the published numbers is caught.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import cache
from itertools import pairwise

from benchwright.errors import HarnessError
from benchwright.services.meridian.expectations import perfect_walk
from benchwright.services.meridian.fixture import RowSet
from benchwright.services.meridian.rows import in_offset, utc_z

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
OFFSETS = ("+02:00", "-05:00", "Z", "+09:00", "-03:00")
MUTATED_STATUS = "refunded"
MIN_TOTAL = 201
"""Below this a client paging at the maximum (100) makes fewer than three list
requests and never meets the 410: every seed keeps the whole trap chain reachable."""


@dataclass(frozen=True)
class V1Params:
    """The knobs a seed turns; seed 0 holds the published values."""

    total: int = 247
    stride: int = 19
    step_minutes: int = 37
    amount_base: int = 1000
    amount_step: int = 137
    offset_shift: int = 0
    short_offset: int = 25
    short_take: int = 5


def params_for(seed: int) -> V1Params:
    """Seed 0 is the publication; other seeds draw every knob from `random.Random(seed)`."""
    if seed == 0:
        return V1Params()
    rng = random.Random(seed)
    total = rng.randrange(MIN_TOTAL, 300)
    return replace(
        V1Params(),
        total=total,
        stride=rng.randrange(7, 60),
        step_minutes=rng.choice((29, 31, 37, 41, 43)),
        amount_base=rng.randrange(500, 2000),
        amount_step=rng.choice((101, 113, 127, 137, 149)),
        offset_shift=rng.randrange(1, len(OFFSETS)),
        short_offset=rng.choice((25, 50)),
        short_take=rng.randrange(3, 10),
    )


@dataclass(frozen=True)
class V1Fixture(RowSet):
    """The v1 rows (time order) and what a correct client derives from them."""

    sum_minor: int
    oldest: str
    newest: str
    optimal_requests: int
    """List requests a perfect client's first sync needs at limit 100, traps included."""

    @property
    def true_order(self) -> list[str]:
        """Every id, oldest first: what ``fetch_all_payments()`` must return."""
        return [row["id"] for row in self.rows]


def make_row(i: int, p: V1Params) -> dict:
    """The payment delivered ``i``-th, plus the internal ``_instant``."""
    instant = START + timedelta(minutes=p.step_minutes * (i * p.stride % p.total))
    return {
        "id": f"pay_{i:04d}",
        "amount_minor": p.amount_base + i * p.amount_step,
        "currency": "EUR",
        "created_at": in_offset(instant, OFFSETS[(i + p.offset_shift) % len(OFFSETS)]),
        "status": "settled",
        "_instant": instant,
    }


@cache
def build_fixture_v1(seed: int = 0) -> V1Fixture:
    """Generate and self-check; cached per seed (callers copy before mutating)."""
    p = params_for(seed)
    delivered = [make_row(i, p) for i in range(p.total)]
    rows = sorted(delivered, key=_time_order)
    position = {row["id"]: n for n, row in enumerate(rows)}
    fixture = V1Fixture(
        seed=seed,
        params=p,
        rows=tuple(rows),
        order=tuple(position[row["id"]] for row in delivered),
        mutation_map={f"pay_{i:04d}": MUTATED_STATUS for i in range(3, p.total, 10)},
        sum_minor=sum(row["amount_minor"] for row in rows),
        oldest=utc_z(rows[0]["_instant"]),
        newest=utc_z(rows[-1]["_instant"]),
        optimal_requests=perfect_walk(p.total, p),
    )
    _self_check(fixture)
    return fixture


def _time_order(row: dict) -> tuple[datetime, str]:
    """Oldest first; a tie goes to the payment delivered first (its id is lower)."""
    return row["_instant"], row["id"]


def _self_check(f: V1Fixture) -> None:
    """Raise `HarnessError` naming the first broken invariant of a generated fixture."""
    keys = [_time_order(row) for row in f.rows]
    strings = [row["created_at"] for row in f.rows]
    problems = [
        ("rows are not in time order", any(a >= b for a, b in pairwise(keys))),
        ("delivery order is not a permutation", sorted(f.order) != list(range(f.total))),
        ("delivery order is time order", list(f.order) == list(range(f.total))),
        ("string order is time order", strings == sorted(strings)),
        (f"fewer than {MIN_TOTAL} rows", f.total < MIN_TOTAL),
    ]
    for message, broken in problems:
        if broken:
            raise HarnessError(f"meridian v1 fixture seed {f.seed}: {message}")
