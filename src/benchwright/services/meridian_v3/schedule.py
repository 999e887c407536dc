"""The vendor-side fault schedule of one run: positions and targets, derived from the seed.

Cardinalities are frozen (4 race pages of 4 mutations, one drop, one 500, one
out-of-order pair, one duplicate, one forged delivery, one mid-walk create, one refund
group, one stale-validator 304); only placements, targets and values vary with the
seed, and the same seed always derives the same schedule. Pages are counted as the
walk counts them: the k-th 200-served list response of the first walk is page k
(retries, 304s and dropped connections do not count).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from itertools import pairwise

from benchwright.services.meridian_v3.config import PAGE_SIZE, PAGES
from benchwright.services.meridian_v3.fixture import V3Fixture, build_fixture_v3, day_span

RACE_PAGES = 4
MUTATIONS_PER_PAGE = 4
WEBHOOK_FIRST = "webhook-first"
"""Commit, deliver every event (each awaited), THEN answer the page."""
PAGE_FIRST = "page-first"
"""Commit, answer the page, then deliver; the next list request waits for the deliveries."""
RACE_NOTES = (
    "re-keyed by ops",
    "counterparty confirmed",
    "memo corrected",
    "late fee waived",
    "dispute closed",
    "bank reference added",
    "value date checked",
)


@dataclass(frozen=True)
class Mutation:
    """One racing commit: ``payment_id`` moves one version up, to ``status`` (None: kept)
    and ``note``. ``served_before``: on a page the walk served before the trigger page."""

    payment_id: str
    status: str | None
    note: str
    served_before: bool


@dataclass(frozen=True)
class RacePage:
    """What fires when the first walk serves its ``page``-th 200 list response."""

    page: int
    order: str
    """`WEBHOOK_FIRST` or `PAGE_FIRST`: two race pages of each."""
    mutations: tuple[Mutation, ...]


@dataclass(frozen=True)
class OutOfOrder:
    """``payment_id`` takes two commits on race page ``page``; their events are delivered
    newest first (v+2, then v+1). The final note is ``notes[1]``."""

    page: int
    payment_id: str
    notes: tuple[str, str]


@dataclass(frozen=True)
class Forged:
    """A ``payment.updated`` for ``payment_id`` carrying ``note``, signed with a wrong
    secret, delivered on race page ``page``: it must never land."""

    page: int
    payment_id: str
    note: str


@dataclass(frozen=True)
class Refund:
    """Race page ``page`` refunds ``payment_id`` (served before): status -> refunded plus
    its reversal, one transaction group of two events delivered part ``first`` first."""

    page: int
    payment_id: str
    first: int


@dataclass(frozen=True)
class Create:
    """The vendor-side create the first walk races (value-dated like every create)."""

    page: int
    draft: dict
    key: str


@dataclass(frozen=True)
class StaleArm:
    """B5: the silent commits behind the stale-validator 304, all on first-walk page
    ``page`` (so the first conditional request presenting that page's stale validator is
    the one lied to)."""

    page: int
    mutations: tuple[Mutation, ...]


@dataclass(frozen=True)
class Schedule:
    """Every seeded position and target of one run (see the module docstring)."""

    seed: int
    race_pages: tuple[RacePage, ...]
    drop_after_page: int
    """j: the first list request after page j is dropped before any byte is sent."""
    error_after_page: int
    """j2: the first list request after page j2 answers 500 with ``Retry-After``."""
    out_of_order: OutOfOrder
    duplicate_page: int
    """The race page whose first event is delivered twice, byte-identical."""
    forged: Forged
    refund: Refund
    create: Create
    stale: StaleArm

    @property
    def race_page_numbers(self) -> tuple[int, ...]:
        return tuple(race.page for race in self.race_pages)

    def race_at(self, page: int) -> RacePage | None:
        return next((race for race in self.race_pages if race.page == page), None)


@cache
def derive_schedule(seed: int) -> Schedule:
    """The schedule of run ``seed`` over its fixture; cached, pure."""
    fixture = build_fixture_v3(seed)
    rng = random.Random(f"meridian-v3-schedule-{seed}")
    pages = _positions(rng)
    race_numbers, drop, error = sorted(pages[:RACE_PAGES]), pages[RACE_PAGES], pages[-1]
    used: set[str] = set()
    orders = [WEBHOOK_FIRST, WEBHOOK_FIRST, PAGE_FIRST, PAGE_FIRST]
    rng.shuffle(orders)
    races = tuple(
        RacePage(k, order, _race_mutations(rng, fixture, k, used))
        for k, order in zip(race_numbers, orders, strict=True)
    )
    ooo_page = rng.choice(race_numbers)
    ooo = OutOfOrder(
        ooo_page,
        _pick(rng, fixture, used, range(fixture.total)),
        ("out-of-order: first", "out-of-order: second"),
    )
    forged_page = rng.choice(race_numbers)
    forged = Forged(
        forged_page,
        _pick(rng, fixture, used, range(fixture.total)),
        f"FORGED-{rng.getrandbits(32):08x}: pay this to account 0000",
    )
    refund_page = rng.choice(race_numbers[1:])
    refund_id = _pick(rng, fixture, used, range((refund_page - 1) * PAGE_SIZE), "settled")
    stale_page = rng.randrange(1, PAGES + 1)
    stale_range = range((stale_page - 1) * PAGE_SIZE, stale_page * PAGE_SIZE)
    stale = StaleArm(
        stale_page,
        tuple(
            _mutation(rng, fixture, _pick(rng, fixture, used, stale_range), "rebuilt", True)
            for _ in range(2)
        ),
    )
    create = Create(race_numbers[1], _draft(rng), f"meridian-internal-{rng.getrandbits(64):016x}")
    return Schedule(
        seed=seed,
        race_pages=races,
        drop_after_page=drop,
        error_after_page=error,
        out_of_order=ooo,
        duplicate_page=rng.choice(race_numbers),
        forged=forged,
        refund=Refund(refund_page, refund_id, rng.choice((1, 2))),
        create=create,
        stale=stale,
    )


def _positions(rng: random.Random) -> list[int]:
    """Six distinct pages in [2, PAGES - 1], pairwise at least 2 apart: four race pages,
    then the drop page, then the 500 page."""
    while True:
        pages = rng.sample(range(2, PAGES), RACE_PAGES + 2)
        ordered = sorted(pages)
        if all(b - a >= 2 for a, b in pairwise(ordered)):
            return pages


def _pick(
    rng: random.Random,
    fixture: V3Fixture,
    used: set[str],
    positions: range,
    status: str | None = None,
) -> str:
    """An untargeted payment at one of ``positions`` (with ``status``, when given)."""
    while True:
        row = fixture.payments[rng.choice(positions)]
        if row["id"] not in used and status in (None, row["status"]):
            used.add(row["id"])
            return row["id"]


def _race_mutations(
    rng: random.Random, fixture: V3Fixture, page: int, used: set[str]
) -> tuple[Mutation, ...]:
    """Two targets on pages already served when page ``page`` is, two on later pages."""
    before = range((page - 1) * PAGE_SIZE)
    after = range(page * PAGE_SIZE, fixture.total)
    return tuple(
        _mutation(rng, fixture, _pick(rng, fixture, used, positions), f"race p{page}", served)
        for positions, served in ((before, True), (before, True), (after, False), (after, False))
    )


def _mutation(
    rng: random.Random, fixture: V3Fixture, payment_id: str, tag: str, served: bool
) -> Mutation:
    """A status move a payment can make without a reversal (pending settles or fails, a
    failed one goes back to pending; settled and refunded keep theirs), and a new note."""
    status = fixture.payments[fixture.by_id[payment_id]]["status"]
    moves = {"pending": ("settled", "failed"), "failed": ("pending",)}.get(status)
    new = rng.choice(moves) if moves else None
    return Mutation(payment_id, new, f"{tag}: {rng.choice(RACE_NOTES)}", served)


def _draft(rng: random.Random) -> dict:
    currency = rng.choice(("EUR", "USD", "JPY", "KWD"))
    amount = {"EUR": 125_000, "USD": 98_050, "JPY": 45_000, "KWD": 1_250_500}[currency]
    counterparty = {"name": "Smoke Co", "country": "DE"}
    return {
        "amount_minor": amount + rng.randrange(1, 999),
        "currency": currency,
        "note": "mid-walk create",
        "counterparty": counterparty,
    }


def value_date(fixture: V3Fixture, index: int) -> datetime:
    """Where the vendor dates its ``index``-th create (0-based): inside the span, on a
    headroom day (a different one for each of the first creates), at a seeded instant
    within that Berlin day."""
    rng = random.Random(f"meridian-v3-value-date-{fixture.seed}-{index}")
    days = fixture.headroom_days()
    start, end = day_span(days[(index * 7 + fixture.seed) % len(days)])
    second = rng.randrange(int((end - start).total_seconds()))
    return start + timedelta(seconds=second)
