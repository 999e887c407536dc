"""The harness's side of sb-7's seeded fault schedule: where the grader kills, cuts and
writes, derived from the run's seed (the vendor's side, its race pages, drop, 500, traps
and lying 304, is `meridian_v3.derive_schedule`).

Boundaries are frozen, positions are seeded (methodology §10, "positions change,
boundaries do not"): the vendor is down for the first 3-8 s of boot; ledgerd is killed
after the n-th (2-5) list response of sync #2 (B3); the lying 304 (B5) is armed on sync
#3 or #4; while notifierd is down (B7) ledgerd commits exactly 8 events, draft actions of
which at least 3 cross the outbox, and is killed right after one submit's 200 (A1) and
once more with outbox rows pending (B6); then one draft is approved with the vendor
holding the create open (A2) and one is rejected and re-submitted (D2). The same seed
always derives the same schedule.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import Any

CURRENCIES = ("EUR", "USD", "JPY", "KWD")
COUNTRIES = ("DE", "FR", "NL", "US", "JP", "KW", "AT", "IE")
NAMES = ("Aurora Freight", "Baltic Mills", "Cinder Labs", "Delta Orchard", "Ember Textiles",
         "Fjord Analytics", "Granite Works", "Harbor Kitchens")  # fmt: skip
PARTITION_COMMITS = 8
"""K: events ledgerd commits while notifierd is down (frozen)."""
CREATE, SUBMIT, REJECT = "create", "submit", "reject"
CROSSING = frozenset({SUBMIT, REJECT})
"""The partition's actions whose event crosses the outbox (``draft.created`` does not)."""


@dataclass(frozen=True)
class Draft:
    """A draft's body as ``POST /api/drafts`` takes it; amounts and parties seeded."""

    amount_minor: int
    currency: str
    name: str
    country: str
    note: str

    def body(self) -> dict[str, Any]:
        return {"amount_minor": self.amount_minor, "currency": self.currency,
                "counterparty": {"name": self.name, "country": self.country},
                "note": self.note}  # fmt: skip


@dataclass(frozen=True)
class Step:
    """One partition write: ``action`` on partition draft number ``draft``; each commits
    exactly one ledger event."""

    action: str
    draft: int

    @property
    def crosses(self) -> bool:
        return self.action in CROSSING


@dataclass(frozen=True)
class HarnessSchedule:
    """Every seeded position of the harness's side of one run."""

    seed: int
    vendor_down_s: int
    """B4: the vendor refuses connections for this many seconds from the boot (3-8)."""
    b3_after_list: int
    """B3: ledgerd is SIGKILLed after this many list responses of sync #2 (2-5)."""
    b5_sync: int
    """B5: the lying 304 is armed on this sync (3 or 4; on 4, sync #3 is a plain one)."""
    partition: tuple[Step, ...]
    """B7: the K = 8 writes committed while notifierd is down, in order."""
    a1_step: int
    """A1: ledgerd is SIGKILLed right after this partition step's 200 (a submit)."""
    b6_step: int
    """B6: ledgerd is SIGKILLed, outbox rows pending, after this partition step (a
    crossing one, never A1's)."""
    partition_drafts: tuple[Draft, ...]
    rejected: Draft
    """D2: created, submitted, rejected, then submitted again."""
    approved: Draft
    """A2: created, submitted, approved with the vendor holding the create open."""

    def positions(self) -> dict[str, Any]:
        """The seeded positions (what differs between seeds): what a test compares."""
        return {"vendor_down_s": self.vendor_down_s, "b3_after_list": self.b3_after_list,
                "b5_sync": self.b5_sync, "a1_step": self.a1_step, "b6_step": self.b6_step,
                "partition": [(s.action, s.draft) for s in self.partition]}  # fmt: skip


@cache
def derive(seed: int) -> HarnessSchedule:
    """The harness schedule of run ``seed``; cached, pure."""
    rng = random.Random(f"sb7-harness-schedule-{seed}")
    partition = _partition(rng)
    submits = [i for i, step in enumerate(partition) if step.action == SUBMIT]
    a1 = rng.choice(submits)
    b6 = rng.choice([i for i, step in enumerate(partition) if step.crosses and i != a1])
    return HarnessSchedule(
        seed=seed,
        vendor_down_s=rng.randint(3, 8),
        b3_after_list=rng.randint(2, 5),
        b5_sync=rng.choice((3, 4)),
        partition=partition,
        a1_step=a1,
        b6_step=b6,
        partition_drafts=tuple(_draft(rng, f"partition draft {n + 1}") for n in range(3)),
        rejected=_draft(rng, "to be rejected"),
        approved=_draft(rng, "to be approved"),
    )


def _partition(rng: random.Random) -> tuple[Step, ...]:
    """Three drafts each created then submitted, two of them then rejected (8 steps, 5
    crossing), interleaved in a seeded order that keeps each draft's own order."""
    rejected = set(rng.sample(range(3), 2))
    lanes = [[Step(CREATE, n), Step(SUBMIT, n), *([Step(REJECT, n)] if n in rejected else [])]
             for n in range(3)]  # fmt: skip
    steps: list[Step] = []
    while any(lanes):
        lane = rng.choice([lane for lane in lanes if lane])
        steps.append(lane.pop(0))
    assert len(steps) == PARTITION_COMMITS
    return tuple(steps)


def _draft(rng: random.Random, note: str) -> Draft:
    """A valid draft: a positive amount spanning decades of major units in its currency."""
    currency = rng.choice(CURRENCIES)
    exponent = {"EUR": 2, "USD": 2, "JPY": 0, "KWD": 3}[currency]
    major = rng.choice((12, 340, 5_600, 78_000))
    return Draft(major * 10**exponent + rng.randrange(1, 10**exponent + 1), currency,
                 rng.choice(NAMES), rng.choice(COUNTRIES), note)  # fmt: skip
