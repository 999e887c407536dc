"""The mock's ledgers as plain frozen records: what graders read after (or during) a run.

Three instruments, each ground truth for its own question:
- the commit ledger (`CommitLedger`): every (payment, version) the vendor ever committed,
  every reversal, every create per ``Idempotency-Key``: what an app's state is judged by;
- the delivery ledger (`Delivery`): every webhook POST and what the app answered;
- the walk and cache ledgers (`WalkLedger`, `StaleLedger`), read from the request trace:
  how the client met the first walk's faults and the stale-validator 304.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from benchwright.services.meridian_v3.truth import Truth


@dataclass(frozen=True)
class Commit:
    """One committed change: ``payment_id`` at ``version`` with the state it then had."""

    seq: int
    """Global commit order (1, 2, ...); the fixture is commit 0."""
    payment_id: str
    version: int
    row: dict
    """The full payment (wire shape) right after this commit."""
    source: str
    """``race``, ``out-of-order``, ``refund``, ``create``, ``patch`` (the app's), ``stale``
    (B5, silent), ``control`` (a grader's `commit_mutation`)."""
    txn: str | None
    event_ids: tuple[str, ...]
    """The events announcing it (empty: silent, e.g. behind the stale 304)."""
    t: float


@dataclass(frozen=True)
class ReversalCommit:
    """A reversal, committed with its payment's flip to ``refunded``."""

    seq: int
    """The flip's commit: both halves of a refund share one ``seq``."""
    reversal: dict
    txn: str | None
    t: float


@dataclass(frozen=True)
class CreateAttempt:
    """One ``POST /v3/payments`` as the vendor saw it."""

    key: str
    """The ``Idempotency-Key`` ("" when absent)."""
    outcome: str
    """``created`` (201), ``replayed`` (200, same payment), or the 400 error code."""
    payment_id: str | None
    amount_minor: object
    currency: object
    t: float
    internal: bool = False
    """The vendor's own scheduled create (not the app's)."""


@dataclass(frozen=True)
class CommitLedger:
    """A snapshot of everything committed, in order; ground truth for every X/R check."""

    fixture_rows: tuple[dict, ...]
    fixture_reversals: tuple[dict, ...]
    days: tuple
    commits: tuple[Commit, ...]
    reversals: tuple[ReversalCommit, ...]
    creates: tuple[CreateAttempt, ...]

    def committed_versions(self) -> set[tuple[str, int]]:
        """Every (payment, version) that ever existed: version 1 of every fixture payment,
        then every commit. An app applying anything else invented it."""
        pairs = {(row["id"], row["version"]) for row in self.fixture_rows}
        return pairs | {(c.payment_id, c.version) for c in self.commits}

    def rows_at(self, seq: int | None = None) -> dict[str, dict]:
        """payment id -> its state as of commit ``seq`` (None: now)."""
        rows = {row["id"]: row for row in self.fixture_rows}
        for commit in self.commits:
            if seq is not None and commit.seq > seq:
                break
            rows[commit.payment_id] = commit.row
        return rows

    def reversals_at(self, seq: int | None = None) -> list[dict]:
        later = [r.reversal for r in self.reversals if seq is None or r.seq <= seq]
        return [*self.fixture_reversals, *later]

    def truth(self, seq: int | None = None) -> Truth:
        """Buckets, per-currency and reversal totals as of commit ``seq`` (None: now)."""
        from benchwright.services.meridian_v3.truth import truth_of

        return truth_of(self.rows_at(seq).values(), self.reversals_at(seq), self.days)

    @property
    def last_seq(self) -> int:
        return max((c.seq for c in self.commits), default=0)

    def created_per_key(self) -> dict[str, int]:
        """Idempotency-Key -> payments it created (never above 1: the vendor replays)."""
        out: dict[str, int] = {}
        for attempt in self.creates:
            out.setdefault(attempt.key, 0)
            out[attempt.key] += attempt.outcome == "created"
        return out

    def created_per_amount(self, *, include_internal: bool = False) -> dict[tuple, int]:
        """(amount_minor, currency) -> payments created with it: a draft sent under two
        keys shows here as 2 (the duplicate-payment bug)."""
        out: dict[tuple, int] = {}
        for a in self.creates:
            if a.outcome == "created" and (include_internal or not a.internal):
                key = (a.amount_minor, a.currency)
                out[key] = out.get(key, 0) + 1
        return out


@dataclass(frozen=True)
class Delivery:
    """One webhook POST the vendor made (a retry is a second record)."""

    seq: int
    event_id: str
    kind: str
    """``genuine``, ``duplicate`` (byte-identical re-send), ``forged`` (wrong signature) or
    ``unregistered`` (no webhook registered: not sent)."""
    type: str
    payment_id: str
    version: int | None
    txn: dict | None
    attempt: int
    status: int
    """The app's HTTP status; 0 when nothing answered (refused, timed out, dropped)."""
    error: str | None
    ms: float
    t: float
    race_page: int | None
    """The first-walk race page it belongs to (None: outside the schedule)."""

    @property
    def acked(self) -> bool:
        return 200 <= self.status < 300


@dataclass(frozen=True)
class FaultFacts:
    """How the client met one scheduled first-walk fault (drop or 500)."""

    armed: bool
    fired: bool
    cursor: str | None = None
    """The cursor of the faulted request (None: the first page, or not fired)."""
    resumed_same_cursor: bool = False
    """The next list request asked for the same cursor."""
    retries: int = 0
    """List requests for that cursor after the fault, up to and including its 200."""
    waited_secs: float | None = None
    advertised_secs: float | None = None
    restarted: bool = False
    """A list request without a cursor came after the fault, before the walk completed."""
    detail: str = ""


@dataclass(frozen=True)
class WalkLedger:
    """The first walk, from the trace: its pages, its faults, and whether it finished."""

    started: bool
    completed: bool
    pages_served: int
    """200-served list responses of the first walk (restarts included)."""
    distinct_pages: int
    restarts: int
    """Cursor-less list requests after the first one, before completion."""
    drop: FaultFacts
    error: FaultFacts
    race_pages_fired: tuple[int, ...]
    create_fired: bool
    undocumented_params: int
    """List requests carrying a parameter other than ``cursor`` (``limit`` included)."""


@dataclass(frozen=True)
class StaleLedger:
    """B5: the stale-validator 304 and what the client did after it."""

    armed: bool
    fired: bool
    page: int | None = None
    cursor: str | None = None
    validator: str | None = None
    lied_generation: str | None = None
    identical_conditionals: int = 0
    """Conditional requests for that page with the stale validator, the lied-to one
    included: more than 3 is the infinite-loop bug."""
    unconditional_refetches: int = 0
    """Requests for that page without ``If-None-Match`` after the lie (1 is right)."""
    masked: tuple[tuple[str, int], ...] = field(default_factory=tuple)
    """(payment, version) committed silently behind the lie: an app serving anything
    older for them served stale as fresh."""

    @property
    def looped(self) -> bool:
        return self.identical_conditionals > 3

    @property
    def refetched_once(self) -> bool:
        return self.unconditional_refetches == 1
