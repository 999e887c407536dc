"""The v3 vendor's mutable state and its commit ledger, written together under one lock.

Every change to a payment goes through `State.commit` (or `State.create`), which bumps
the version, records the commit and mints the events announcing it, so the ledger
cannot miss a change the API serves. Handlers and the grader's thread share the state;
``lock`` is never held across a wait.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from benchwright.services.meridian.webhooks import Registration
from benchwright.services.meridian_v3.fixture import V3Fixture, rfc3339, utc_z
from benchwright.services.meridian_v3.records import (
    Commit,
    CommitLedger,
    CreateAttempt,
    ReversalCommit,
)
from benchwright.services.meridian_v3.schedule import value_date


@dataclass(frozen=True)
class Event:
    """One webhook event; ``body`` is the exact bytes every delivery of it sends."""

    id: str
    type: str
    payment_id: str
    version: int | None
    txn: dict | None
    body: bytes


class State:
    """What the vendor knows now, and how it got there."""

    def __init__(self, fixture: V3Fixture) -> None:
        self.fixture = fixture
        self.lock = threading.RLock()
        self.created = threading.Condition(self.lock)
        """Notified at every create attempt (a grader waits on it for the A2 window)."""
        self.reset()

    def reset(self) -> None:
        """Back to load: fixture rows, no commits, no registration, generation 1."""
        with self.lock:
            self.rows = {row["id"]: _copy(row) for row in self.fixture.payments}
            self.order = [row["id"] for row in self.fixture.payments]
            self.reversals = [dict(rev) for rev in self.fixture.reversals]
            self.commits: list[Commit] = []
            self.reversal_commits: list[ReversalCommit] = []
            self.creates: list[CreateAttempt] = []
            self.idempotency: dict[str, str] = {}
            self.generation = 1
            """``X-Collection-Generation``: moves only when the collection is rebuilt."""
            self.epoch = 1
            """Cursors of an older epoch have expired."""
            self.webhook: Registration | None = None
            self._seq = itertools.count(1)
            self._events = itertools.count(1)
            self._txns = itertools.count(1)

    # -- reading ---------------------------------------------------------------
    def public(self, payment_id: str) -> dict:
        return _copy(self.rows[payment_id])

    def page(self, offset: int, take: int) -> list[dict]:
        return [_copy(self.rows[pid]) for pid in self.order[offset : offset + take]]

    def ledger(self) -> CommitLedger:
        with self.lock:
            return CommitLedger(
                fixture_rows=self.fixture.payments,
                fixture_reversals=self.fixture.reversals,
                days=self.fixture.days,
                commits=tuple(self.commits),
                reversals=tuple(self.reversal_commits),
                creates=tuple(self.creates),
            )

    # -- committing ------------------------------------------------------------
    def commit(
        self,
        payment_id: str,
        *,
        source: str,
        status: str | None = None,
        note: str | None = None,
        txn: dict | None = None,
        announce: bool = True,
    ) -> tuple[Commit, Event | None]:
        """Change one payment (version + 1); its ``payment.updated`` when ``announce``."""
        with self.lock:
            row = self.rows[payment_id]
            if status is not None:
                row["status"] = status
            if note is not None:
                row["note"] = note
            row["version"] += 1
            event = self._event("payment.updated", row, txn) if announce else None
            return self._record(row, source, txn, event), event

    def refund(
        self, payment_id: str, *, source: str, announce: bool = True
    ) -> tuple[Commit, ReversalCommit, Event | None, Event | None]:
        """Refund atomically: the flip to ``refunded`` and the reversal are ONE commit (one
        ``seq``, so no point of the ledger holds half of it), announced as a transaction
        group (``txn``) of two parts: 1 the payment, 2 the reversal."""
        with self.lock:
            txn_id = f"txn_{next(self._txns):04d}"
            group = {"id": txn_id, "of": 2}
            commit, flip = self.commit(
                payment_id,
                source=source,
                status="refunded",
                txn=group | {"part": 1},
                announce=announce,
            )
            row = self.rows[payment_id]
            reversal = {
                "id": f"rev_{len(self.reversals) + 1:05d}",
                "payment_id": payment_id,
                "amount_minor": row["amount_minor"],
                "currency": row["currency"],
                "created_at": utc_z(datetime.now(UTC)),
            }
            self.reversals.append(reversal)
            part = group | {"part": 2}
            event = self._event("reversal.created", reversal, part) if announce else None
            rev_commit = ReversalCommit(commit.seq, dict(reversal), txn_id, time.time())
            self.reversal_commits.append(rev_commit)
            return commit, rev_commit, flip, event

    def create(self, draft: dict, key: str, *, internal: bool = False) -> tuple[str, Event | None]:
        """A create under ``key``: ``("created", event)`` for a new payment, value-dated
        into the span and appended to the serve order, or ``("replayed", None)``."""
        with self.lock:
            known = self.idempotency.get(key)
            outcome = "replayed" if known else "created"
            event = None
            if known is None:
                known = f"pay_{len(self.order) + 1:05d}"
                instant = value_date(self.fixture, len(self.order) - self.fixture.total)
                row = {
                    "id": known,
                    "amount_minor": draft["amount_minor"],
                    "currency": draft["currency"],
                    "created_at": rfc3339(instant, None),
                    "settled_at": None,
                    "status": "pending",
                    "version": 1,
                    "note": draft.get("note") or "",
                    "counterparty": dict(draft["counterparty"]),
                }
                self.rows[known] = row
                self.order.append(known)
                self.idempotency[key] = known
                event = self._event("payment.created", row, None)
                self._record(row, "create", None, event)
            self._attempted(
                CreateAttempt(
                    key,
                    outcome,
                    known,
                    draft.get("amount_minor"),
                    draft.get("currency"),
                    time.time(),
                    internal,
                )
            )
            return known, event

    def refused_create(self, key: str, code: str, draft: dict) -> None:
        """Log a create the vendor refused (400) in the create ledger."""
        with self.lock:
            self._attempted(
                CreateAttempt(
                    key, code, None, draft.get("amount_minor"), draft.get("currency"), time.time()
                )
            )

    def forged(self, payment_id: str, note: str) -> Event:
        """An event the vendor never committed: the payment one version up, ``note`` set."""
        with self.lock:
            fake = _copy(self.rows[payment_id]) | {"note": note}
            fake["version"] += 1
            return self._event("payment.updated", fake, None)

    def _attempted(self, attempt: CreateAttempt) -> None:
        self.creates.append(attempt)
        self.created.notify_all()

    def _record(self, row: dict, source: str, txn: dict | None, event: Event | None) -> Commit:
        commit = Commit(
            next(self._seq),
            row["id"],
            row["version"],
            _copy(row),
            source,
            txn["id"] if txn else None,
            (event.id,) if event else (),
            time.time(),
        )
        self.commits.append(commit)
        return commit

    def _event(self, kind: str, data: dict, txn: dict | None) -> Event:
        event_id = f"evt_{next(self._events):05d}"
        document = {
            "id": event_id,
            "type": kind,
            "created_at": utc_z(datetime.now(UTC)),
            "txn": txn,
            "data": _copy(data),
        }
        payment_id = data.get("payment_id", data["id"])
        return Event(
            event_id, kind, payment_id, data.get("version"), txn, json.dumps(document).encode()
        )


def _copy(row: dict) -> dict:
    """A row's copy safe to hand out (the nested counterparty copied too)."""
    out = dict(row)
    if isinstance(out.get("counterparty"), dict):
        out["counterparty"] = dict(out["counterparty"])
    return out
