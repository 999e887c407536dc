"""Store: the local SQLite copy of the vendor's payments, and the webhook event ledger.

- WAL mode, a fresh connection per operation (readers never wait for a sync), and
  one process-wide write lock with ``BEGIN IMMEDIATE`` so writes never interleave.
- Writes merge at the SQL level: ``INSERT ... ON CONFLICT(id) DO UPDATE ... WHERE
  excluded.version > payments.version``. A re-sync inserts nothing, a newer vendor
  version replaces an older one, an older snapshot never overwrites a newer one.
- Each row keeps its instant as integer microseconds (``created_utc``) and its
  Europe/Berlin calendar day (``berlin_day``), both computed from the instant when
  the row is written, so ordering and DST-correct buckets are plain indexed SQL.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, timedelta
from pathlib import Path

from vspro import CURRENCIES, STATUSES, TIMEZONE
from vspro.times import berlin_day, from_micros, micros, now_z, parse_instant, utc_z

SCHEMA = """
CREATE TABLE IF NOT EXISTS payments (
    id                TEXT PRIMARY KEY,
    amount_minor      INTEGER NOT NULL,
    currency          TEXT NOT NULL,
    created_at        TEXT NOT NULL,
    created_utc       INTEGER NOT NULL,
    berlin_day        TEXT NOT NULL,
    settled_at        TEXT,
    status            TEXT NOT NULL,
    version           INTEGER NOT NULL,
    note              TEXT NOT NULL DEFAULT '',
    counterparty_name TEXT NOT NULL,
    country           TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS payments_by_time ON payments (created_utc, id);
CREATE INDEX IF NOT EXISTS payments_by_status ON payments (status, created_utc, id);
CREATE INDEX IF NOT EXISTS payments_by_currency ON payments (currency, created_utc, id);
CREATE INDEX IF NOT EXISTS payments_by_amount ON payments (amount_minor, created_utc, id);
CREATE INDEX IF NOT EXISTS payments_by_day ON payments (berlin_day, status);
CREATE TABLE IF NOT EXISTS webhook_events (
    id          TEXT PRIMARY KEY,
    payment_id  TEXT NOT NULL,
    version     INTEGER NOT NULL,
    outcome     TEXT NOT NULL,
    received_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT
);
"""

UPSERT = """
INSERT INTO payments (id, amount_minor, currency, created_at, created_utc, berlin_day,
                      settled_at, status, version, note, counterparty_name, country)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT(id) DO UPDATE SET
    amount_minor = excluded.amount_minor,
    currency = excluded.currency,
    created_at = excluded.created_at,
    created_utc = excluded.created_utc,
    berlin_day = excluded.berlin_day,
    settled_at = excluded.settled_at,
    status = excluded.status,
    version = excluded.version,
    note = excluded.note,
    counterparty_name = excluded.counterparty_name,
    country = excluded.country
WHERE excluded.version > payments.version
"""
PUBLIC = (
    "id",
    "amount_minor",
    "currency",
    "created_at",
    "settled_at",
    "status",
    "version",
    "note",
    "counterparty_name",
    "country",
)
"""The 10 keys of a payment on the local API, in this order."""

SORTS = {
    "created_at": "created_utc ASC, id ASC",
    "-created_at": "created_utc DESC, id DESC",
    "amount_minor": "amount_minor ASC, created_utc ASC, id ASC",
    "-amount_minor": "amount_minor DESC, created_utc DESC, id DESC",
}


def _integer(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} is not an integer: {value!r}")
    return value


def to_record(payment: dict) -> tuple:
    """A vendor payment as a ``payments`` row; ValueError when it is malformed."""
    if not isinstance(payment, dict) or not isinstance(payment.get("id"), str):
        raise ValueError("payment without an id")
    instant = parse_instant(payment.get("created_at"))
    counterparty = payment.get("counterparty") or {}
    settled = payment.get("settled_at")
    return (
        payment["id"],
        _integer(payment.get("amount_minor"), "amount_minor"),
        str(payment.get("currency", "")),
        payment["created_at"],
        micros(instant),
        berlin_day(instant),
        settled if isinstance(settled, str) else None,
        str(payment.get("status", "")),
        _integer(payment.get("version"), "version"),
        str(payment.get("note") or ""),
        str(counterparty.get("name", "")),
        str(counterparty.get("country", "")),
    )


class Store:
    """All local state. Safe to share between threads: each call opens its own connection."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._write_lock = threading.Lock()
        with self._read() as conn:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(SCHEMA)

    # -- connections ---------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA busy_timeout = 10000")
        conn.execute("PRAGMA synchronous = NORMAL")
        return conn

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        conn = self._connect()
        try:
            yield conn
        finally:
            conn.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One serialised, atomic transaction."""
        with self._write_lock, self._read() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    # -- payments ------------------------------------------------------------
    def upsert_many(self, payments: list[dict]) -> tuple[int, int]:
        """Merge vendor payments; returns ``(inserted, updated)``. Malformed rows are skipped."""
        records = []
        for payment in payments:
            try:
                records.append(to_record(payment))
            except (ValueError, TypeError):
                continue
        with self._write() as conn:
            before = conn.execute("SELECT COUNT(*) FROM payments").fetchone()[0]
            changes = conn.total_changes
            conn.executemany(UPSERT, records)
            changed = conn.total_changes - changes
            after = conn.execute("SELECT COUNT(*) FROM payments").fetchone()[0]
        return after - before, changed - (after - before)

    def query(
        self,
        *,
        status: str | None = None,
        currency: str | None = None,
        sort: str = "created_at",
        limit: int = 50,
        offset: int = 0,
    ) -> tuple[list[dict], int]:
        """One page of payments under the filters, and how many match them in total."""
        where, args = [], []
        if status:
            where.append("status = ?")
            args.append(status)
        if currency:
            where.append("currency = ?")
            args.append(currency)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        with self._read() as conn:
            total = conn.execute(f"SELECT COUNT(*) FROM payments {clause}", args).fetchone()[0]
            rows = conn.execute(
                f"SELECT {', '.join(PUBLIC)} FROM payments {clause} "
                f"ORDER BY {SORTS[sort]} LIMIT ? OFFSET ?",
                [*args, limit, min(offset, 2**62)],  # SQLite integers are 64-bit
            ).fetchall()
        return [dict(row) for row in rows], total

    def get(self, payment_id: str) -> dict | None:
        with self._read() as conn:
            row = conn.execute(
                f"SELECT {', '.join(PUBLIC)} FROM payments WHERE id = ?", (payment_id,)
            ).fetchone()
        return dict(row) if row else None

    def count(self) -> int:
        with self._read() as conn:
            return conn.execute("SELECT COUNT(*) FROM payments").fetchone()[0]

    # -- webhook events ------------------------------------------------------
    def apply_event(self, event: dict) -> str:
        """Apply one verified delivery: ``"applied"``, ``"duplicate"`` or ``"stale"``.

        Idempotent on the event id and ordered on ``data.version``, in one transaction.
        ValueError when the event is malformed (nothing is recorded then).
        """
        event_id, data = event.get("id"), event.get("data")
        if not isinstance(event_id, str) or not event_id or not isinstance(data, dict):
            raise ValueError("an event needs an id and a data object")
        record = to_record(data)
        payment_id, version = data["id"], data["version"]
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM webhook_events WHERE id = ?", (event_id,)).fetchone():
                return "duplicate"
            held = conn.execute("SELECT version FROM payments WHERE id = ?", (payment_id,))
            held_version = (held.fetchone() or (None,))[0]
            stale = held_version is not None and version <= held_version
            outcome = "stale" if stale else "applied"
            if not stale:
                conn.execute(UPSERT, record)
            conn.execute(
                "INSERT INTO webhook_events (id, payment_id, version, outcome, received_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (event_id, payment_id, version, outcome, now_z()),
            )
        return outcome

    # -- aggregates ----------------------------------------------------------
    def buckets(self) -> dict:
        """Counts per (Berlin day, status): every day from first to last, every status."""
        with self._read() as conn:
            found = conn.execute(
                "SELECT berlin_day, status, COUNT(*) FROM payments GROUP BY berlin_day, status"
            ).fetchall()
        counts = {(day, status): n for day, status, n in found}
        days: list[str] = []
        if counts:
            first = date.fromisoformat(min(day for day, _ in counts))
            last = date.fromisoformat(max(day for day, _ in counts))
            days = [(first + timedelta(n)).isoformat() for n in range((last - first).days + 1)]
        cells = [
            {"day": day, "status": status, "count": counts.get((day, status), 0)}
            for day in days
            for status in STATUSES
        ]
        return {"timezone": TIMEZONE, "days": days, "statuses": list(STATUSES), "cells": cells}

    def summary(self) -> dict:
        """Count, bounds and per-currency totals. Never a total across currencies."""
        with self._read() as conn:
            count, oldest, newest = conn.execute(
                "SELECT COUNT(*), MIN(created_utc), MAX(created_utc) FROM payments"
            ).fetchone()
            per = conn.execute(
                "SELECT currency, COUNT(*), SUM(amount_minor) FROM payments "
                "GROUP BY currency ORDER BY currency"
            ).fetchall()
        return {
            "count": count,
            "last_sync": self.last_sync(),
            "oldest": utc_z(from_micros(oldest)) if oldest is not None else None,
            "newest": utc_z(from_micros(newest)) if newest is not None else None,
            "by_currency": [
                {"currency": cur, "count": n, "total_minor": total} for cur, n, total in per
            ],
        }

    # -- meta ----------------------------------------------------------------
    def last_sync(self) -> str | None:
        with self._read() as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = 'last_sync'").fetchone()
        return row[0] if row else None

    def set_last_sync(self, when: str | None = None) -> str:
        when = when or now_z()
        with self._write() as conn:
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('last_sync', ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (when,),
            )
        return when


__all__ = ["CURRENCIES", "PUBLIC", "SORTS", "Store", "to_record"]
