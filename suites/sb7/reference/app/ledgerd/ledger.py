"""The write side of ``ledger.db``: every state change goes through one `Writer`.

A `Writer` is one SQLite transaction. Whatever it changes, it appends the matching event
to the ledger in that same transaction, and an outbox row beside each event that crosses
to the notifier, so a state change, its event and its outbox row commit together or not
at all (the dual-write window does not exist). Payment upserts compare ``version``: a
row never moves backwards, whoever (a page, a webhook, a write-through) brings it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from sqlite3 import Connection

from app.db import Database
from app.ledgerd.schema import SCHEMA
from app.times import berlin_day, epoch_us, now_utc

CROSSING = frozenset(
    {"draft.submitted", "draft.approved", "draft.rejected", "reversal.created", "payment.sent"}
)
"""The event types the relay delivers to notifierd."""
VIZ_COLUMNS = ("id", "amount_minor", "currency", "status", "created_at", "day", "version")


def payment_values(payment: dict) -> dict:
    """A vendor payment as the row stored: the counterparty flattened, the instant and
    its Berlin day computed once, here."""
    counterparty = payment.get("counterparty") or {}
    created_at = payment["created_at"]
    return {
        "id": payment["id"],
        "amount_minor": int(payment["amount_minor"]),
        "currency": payment["currency"],
        "created_at": created_at,
        "created_us": epoch_us(created_at),
        "day": berlin_day(created_at),
        "settled_at": payment.get("settled_at"),
        "status": payment["status"],
        "version": int(payment["version"]),
        "note": payment.get("note") or "",
        "counterparty_name": counterparty.get("name") or "",
        "country": counterparty.get("country") or "",
    }


class Writer:
    """One open write transaction and what it changed."""

    conn: Connection
    """Set by `Ledger.transaction` once the transaction is open."""

    def __init__(self) -> None:
        self.changed_payments: list[str] = []
        self.records: list[dict] = []
        """The changed payments as streamed, read just before the commit."""
        self.changed = False
        """A payment or a reversal changed (what the cached read answers depend on)."""
        self.crossed = False

    def event(
        self,
        type_: str,
        source: str,
        *,
        payment_id: str | None = None,
        version: int | None = None,
        txn: str | None = None,
        draft_id: str | None = None,
        reversal_id: str | None = None,
    ) -> int:
        """Append one ledger event (and its outbox row when it crosses); its seq."""
        cursor = self.conn.execute(
            "INSERT INTO events (type, payment_id, version, source, txn, at, draft_id,"
            " reversal_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (type_, payment_id, version, source, txn, now_utc(), draft_id, reversal_id),
        )
        seq = int(cursor.lastrowid or 0)
        if type_ in CROSSING:
            self.conn.execute("INSERT INTO outbox (seq) VALUES (?)", (seq,))
            self.crossed = True
        return seq

    def stored_version(self, payment_id: str) -> int | None:
        row = self.conn.execute(
            "SELECT version FROM payments WHERE id = ?", (payment_id,)
        ).fetchone()
        return None if row is None else int(row[0])

    def upsert(self, payment: dict, source: str, txn: str | None = None) -> str | None:
        """Apply ``payment`` if it is newer than the stored row: ``"created"`` or
        ``"updated"`` (and its event appended), None when it changes nothing."""
        values = payment_values(payment)
        stored = self.stored_version(values["id"])
        if stored is not None and values["version"] <= stored:
            return None
        if stored is None:
            columns = ", ".join(values)
            marks = ", ".join(f":{name}" for name in values)
            self.conn.execute(f"INSERT INTO payments ({columns}) VALUES ({marks})", values)
            outcome = "created"
        else:
            # Amounts, currencies and creation instants never change (v3 §1): only the
            # mutable fields move.
            self.conn.execute(
                "UPDATE payments SET status = :status, settled_at = :settled_at,"
                " version = :version, note = :note, counterparty_name = :counterparty_name,"
                " country = :country WHERE id = :id",
                values,
            )
            outcome = "updated"
        self.event(
            f"payment.{outcome}",
            source,
            payment_id=values["id"],
            version=values["version"],
            txn=txn,
        )
        self.changed_payments.append(values["id"])
        self.changed = True
        return outcome

    def has_reversal(self, reversal_id: str) -> bool:
        return (
            self.conn.execute("SELECT 1 FROM reversals WHERE id = ?", (reversal_id,)).fetchone()
            is not None
        )

    def reversal_for(self, payment_id: str) -> bool:
        return (
            self.conn.execute(
                "SELECT 1 FROM reversals WHERE payment_id = ?", (payment_id,)
            ).fetchone()
            is not None
        )

    def add_reversal(self, reversal: dict, source: str, txn: str | None = None) -> bool:
        """Store ``reversal`` unless it is already known (and append its event)."""
        if self.has_reversal(reversal["id"]):
            return False
        self.conn.execute(
            "INSERT INTO reversals (id, payment_id, amount_minor, currency, created_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (
                reversal["id"],
                reversal["payment_id"],
                int(reversal["amount_minor"]),
                reversal["currency"],
                reversal["created_at"],
            ),
        )
        self.event(
            "reversal.created",
            source,
            payment_id=reversal["payment_id"],
            version=reversal.get("version"),
            txn=txn,
            reversal_id=reversal["id"],
        )
        return True

    def viz_records(self) -> list[dict]:
        """The changed payments as the event stream carries them."""
        if not self.changed_payments:
            return []
        ids = list(dict.fromkeys(self.changed_payments))
        marks = ", ".join("?" for _ in ids)
        rows = self.conn.execute(
            f"SELECT {', '.join(VIZ_COLUMNS)} FROM payments WHERE id IN ({marks})", ids
        ).fetchall()
        by_id = {row["id"]: dict(row) for row in rows}
        return [by_id[payment_id] for payment_id in ids]


class Ledger:
    """``ledger.db`` and the signals a commit raises: the stream's listeners (changed
    payments) and the relay (new outbox rows)."""

    def __init__(self, db_dir: Path) -> None:
        self.db = Database(db_dir / "ledger.db", SCHEMA)
        self.outbox_ready = threading.Event()
        self._listeners: list[Callable[[list[dict]], None]] = []
        self.generation = 0
        """Bumped (under the write lock) after every commit that changed a payment or a
        reversal: the key of the cached read answers."""

    def on_payments(self, listener: Callable[[list[dict]], None]) -> None:
        self._listeners.append(listener)

    @contextmanager
    def transaction(self) -> Iterator[Writer]:
        """A `Writer`; once it commits, the listeners hear the changed payments (in commit
        order) and the relay wakes for new outbox rows."""
        writer = Writer()
        with self.db.write(lambda: self._committed(writer)) as conn:
            writer.conn = conn
            yield writer
            writer.records = writer.viz_records()

    def _committed(self, writer: Writer) -> None:
        if writer.changed:
            self.generation += 1
        if writer.records:
            for listener in self._listeners:
                listener(writer.records)
        if writer.crossed:
            self.outbox_ready.set()

    def meta(self, key: str) -> str | None:
        with self.db.read() as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, values: dict[str, str]) -> None:
        with self.db.write() as conn:
            conn.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                list(values.items()),
            )
