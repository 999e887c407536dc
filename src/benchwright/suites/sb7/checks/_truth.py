"""The vendor's ground truth at any point of the run: the fixture at load replayed with the
vendor's post-load commits. One derivation for every check that compares with the vendor
(the buckets after sync #1, convergence and conservation at quiescence, the committed
version history), so no two checks can disagree about what the vendor held."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from benchwright.suites.sb7.observations import Commit, Truth


@dataclass(frozen=True)
class State:
    """One payment as the vendor held it."""

    version: int
    status: str
    amount_minor: int
    currency: str
    day: str | None
    note: str


def state(truth: Truth, commits: Iterable[Commit], upto: int | None = None) -> dict[str, State]:
    """Every payment's state after the commits with ``seq <= upto`` (all when None)."""
    found = {
        pid: State(r.version, r.status, r.amount_minor, r.currency, r.day, r.note)
        for pid, r in truth.rows.items()
    }
    for c in commits:
        if upto is not None and c.seq > upto:
            continue
        day = c.day if c.created else getattr(found.get(c.payment_id), "day", c.day)
        found[c.payment_id] = State(c.version, c.status, c.amount_minor, c.currency, day, c.note)
    return found


def committed(truth: Truth, commits: Iterable[Commit]) -> dict[str, set[int]]:
    """Payment id -> every version in its committed history (a load version implies the
    versions before it)."""
    history = {pid: set(range(1, r.version + 1)) for pid, r in truth.rows.items()}
    for c in commits:
        history.setdefault(c.payment_id, set()).add(c.version)
    return history


def created(commits: Iterable[Commit], upto: int | None = None) -> int:
    """Payments the vendor created after load (by ``upto`` when given)."""
    return sum(c.created and (upto is None or c.seq <= upto) for c in commits)


def by_currency(rows: Mapping[str, State]) -> dict[str, tuple[int, int]]:
    """Currency -> (count, total_minor) over every payment."""
    count: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for r in rows.values():
        count[r.currency] += 1
        total[r.currency] += r.amount_minor
    return {c: (count[c], total[c]) for c in sorted(count)}


def reversals(truth: Truth, commits: Iterable[Commit]) -> dict[str, tuple[int, int]]:
    """Currency -> (count, total_minor) of every reversal at the end: those at load plus
    one per refund commit."""
    count: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for r in truth.reversals:
        count[r.currency] += 1
        total[r.currency] += r.amount_minor
    for c in commits:
        if c.reversal:
            count[c.currency] += 1
            total[c.currency] += c.amount_minor
    return {c: (count[c], total[c]) for c in sorted(count)}


def buckets(rows: Mapping[str, State]) -> Counter[tuple[str, str]]:
    """(Berlin day, status) -> count."""
    return Counter((r.day or "", r.status) for r in rows.values())
