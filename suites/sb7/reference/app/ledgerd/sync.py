"""The sync: reversals, then the 64-row pages of ``GET /v3/payments``, as the v3 docs say.

- A dropped or timed-out request is repeated with the SAME cursor (`patiently`): the
  walk never restarts work it has committed.
- A 5xx waits its ``Retry-After`` and is retried once; a second failure ends this sync
  (the next one resumes from validators).
- ``410 cursor_expired`` restarts the walk from the first page.
- Each page's ``ETag`` and next cursor are stored by the page's position, with the rows
  it brought, in one transaction, and so is the latest ``X-Collection-Generation``. A
  later sync sends ``If-None-Match`` for every page it has a validator for. A 304 whose
  generation equals the stored one means the copy is current, and the stored next cursor
  continues the walk; a 304 whose generation differs is a cache miss: the validator is
  dropped and the page fetched once, unconditionally (its answer's generation becomes the
  stored one). After a 410 the walk restarts without validators: a 304 brings no cursor,
  and the stored ones are the expired ones.
- Rows are upserted by version (`Writer.upsert`), so a page never regresses a row a
  webhook already moved on.

Refunds are pairs (a refunded payment and its reversal). The reversals are read first, so
the whole reversal truth is in place before the pages land (and survives a webhook
outage); a page row that turns refunded before its reversal is known (a refund committed
mid-walk whose webhook group has not completed) is held back until the end of the walk,
when the reversals are read again and each held row is applied with its reversal in one
transaction.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from app.ledgerd.ledger import Ledger, Writer
from app.ledgerd.meridian import Answer, Meridian, patiently
from app.times import now_utc

MAX_RESTARTS = 3
"""410s tolerated in one sync before it gives up (a rebuild per page would never end)."""
DEFAULT_RETRY_AFTER_S = 1.0


class SyncFailed(Exception):
    """The vendor answered, but not with something the walk can continue from."""


class CursorExpired(Exception):
    """410: the walk starts again from the first page."""


@dataclass(frozen=True)
class Validator:
    """What one page answered with last time (stored under the page's position)."""

    etag: str
    next_cursor: str | None


@dataclass
class Walk:
    """One sync's running counts and the refunded rows it is holding back."""

    fetched: int = 0
    inserted: int = 0
    updated: int = 0
    held: dict[str, dict] = field(default_factory=dict)
    held_pages: dict[int, Validator] = field(default_factory=dict)
    """Validators of pages with held rows: saved only once those rows are applied, so a
    sync killed before that refetches the page instead of trusting a 304."""

    def count(self, outcome: str | None) -> None:
        if outcome == "created":
            self.inserted += 1
        elif outcome == "updated":
            self.updated += 1


class Syncer:
    """Runs syncs one at a time (a second caller waits, then syncs cheaply)."""

    def __init__(self, ledger: Ledger, vendor: Meridian) -> None:
        self.ledger = ledger
        self.vendor = vendor
        self._lock = threading.Lock()

    def run(self) -> dict:
        """One full sync; its counts. Raises `VendorUnavailable` or `SyncFailed`."""
        with self._lock:
            walk = Walk()
            self._store_reversals(self._reversals())
            self._walk_pages(walk)
            if walk.held:
                self._release_held(walk)
            self.ledger.set_meta({"last_sync": now_utc()})
            with self.ledger.db.read() as conn:
                total = conn.execute("SELECT COUNT(*) FROM payments").fetchone()[0]
            return {
                "fetched": walk.fetched,
                "inserted": walk.inserted,
                "updated": walk.updated,
                "total": total,
            }

    # -- reversals --------------------------------------------------------------------

    def _reversals(self) -> list[dict]:
        answer = self._get(self.vendor.reversals)
        if answer.status != 200:
            raise SyncFailed(f"GET /v3/reversals answered {answer.status}")
        return list(answer.json().get("data") or [])

    def _store_reversals(self, reversals: list[dict]) -> None:
        with self.ledger.transaction() as writer:
            for reversal in reversals:
                writer.add_reversal(reversal, "sync")

    # -- the walk ---------------------------------------------------------------------

    def _walk_pages(self, walk: Walk) -> None:
        validators, generation = self._validators()
        restarts, index, cursor = 0, 0, None
        while True:
            known = validators.get(index) if restarts == 0 else None
            try:
                next_cursor, generation = self._page(walk, index, cursor, known, generation)
            except CursorExpired:
                restarts += 1
                if restarts > MAX_RESTARTS:
                    raise SyncFailed("cursor expired too often") from None
                index, cursor = 0, None
                continue
            if next_cursor is None:
                return
            index, cursor = index + 1, next_cursor

    def _validators(self) -> tuple[dict[int, Validator], str | None]:
        with self.ledger.db.read() as conn:
            rows = conn.execute("SELECT page, etag, next_cursor FROM pages").fetchall()
            stored = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        validators = {row["page"]: Validator(row["etag"], row["next_cursor"]) for row in rows}
        return validators, None if stored is None else str(stored[0])

    def _page(
        self,
        walk: Walk,
        index: int,
        cursor: str | None,
        known: Validator | None,
        generation: str | None,
    ) -> tuple[str | None, str | None]:
        """Fetch and apply page ``index``: the next page's cursor (None at the end) and
        the generation now stored."""
        answer = self._get(lambda: self.vendor.list_page(cursor, known.etag if known else None))
        if answer.status == 304 and known is not None:
            if answer.headers.get("x-collection-generation") == generation:
                return known.next_cursor, generation
            # The generation rule: this 304 is a cache miss. Drop the validator, refetch
            # once without it.
            self._drop_validator(index)
            answer = self._get(lambda: self.vendor.list_page(cursor, None))
        if answer.status == 410:
            raise CursorExpired
        if answer.status != 200:
            raise SyncFailed(f"list page {index} answered {answer.status}")
        body = answer.json()
        rows = list(body.get("data") or [])
        validator = Validator(answer.headers.get("etag", ""), body.get("next_cursor"))
        generation = answer.headers.get("x-collection-generation") or generation
        walk.fetched += len(rows)
        self._apply_page(walk, index, rows, validator, generation)
        return validator.next_cursor, generation

    def _apply_page(
        self,
        walk: Walk,
        index: int,
        rows: list[dict],
        validator: Validator,
        generation: str | None,
    ) -> None:
        with self.ledger.transaction() as writer:
            if generation is not None:
                _save_generation(writer, generation)
            held_here = False
            for payment in rows:
                if payment.get("status") == "refunded" and not writer.reversal_for(payment["id"]):
                    walk.held[payment["id"]] = payment
                    held_here = True
                    continue
                walk.count(writer.upsert(payment, "sync"))
            if held_here:
                walk.held_pages[index] = validator
            elif validator.etag:
                _save_validator(writer, index, validator)

    def _drop_validator(self, index: int) -> None:
        with self.ledger.transaction() as writer:
            writer.conn.execute("DELETE FROM pages WHERE page = ?", (index,))

    def _release_held(self, walk: Walk) -> None:
        """The end of the walk: read the reversals again and apply each held row with its
        reversal in one transaction (a row whose reversal never shows is vendor truth all
        the same, and is applied too)."""
        reversals = {reversal["payment_id"]: reversal for reversal in self._reversals()}
        for payment_id, payment in walk.held.items():
            with self.ledger.transaction() as writer:
                if payment_id in reversals:
                    writer.add_reversal(reversals[payment_id], "sync")
                walk.count(writer.upsert(payment, "sync"))
        with self.ledger.transaction() as writer:
            for index, validator in walk.held_pages.items():
                if validator.etag:
                    _save_validator(writer, index, validator)

    # -- one request, per the docs' fault rules -----------------------------------------

    def _get(self, request: Callable[[], Answer]) -> Answer:
        """``request()`` with the documented fault handling: transport failures repeat the
        same request; a 5xx waits ``Retry-After`` and is retried exactly once."""
        answer = patiently(request)
        if answer.status >= 500:
            time.sleep(_retry_after(answer))
            answer = patiently(request)
        return answer


def _save_validator(writer: Writer, index: int, validator: Validator) -> None:
    writer.conn.execute(
        "INSERT OR REPLACE INTO pages (page, etag, next_cursor) VALUES (?, ?, ?)",
        (index, validator.etag, validator.next_cursor),
    )


def _save_generation(writer: Writer, generation: str) -> None:
    writer.conn.execute(
        "INSERT INTO meta (key, value) VALUES ('generation', ?)"
        " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (generation,),
    )


def _retry_after(answer: Answer) -> float:
    """The advertised delta-seconds (a little over, never under), 1 s when absent."""
    value = answer.headers.get("retry-after", "")
    try:
        return max(float(value), 0.0) + 0.05
    except ValueError:
        return DEFAULT_RETRY_AFTER_S
