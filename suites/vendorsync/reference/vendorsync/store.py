"""The SQLite store: one row per vendor payment, keyed by its id.

``created_us`` (the instant as integer microseconds since the epoch) is what every
ordering uses: the vendor's ``created_at`` strings carry different UTC offsets, so
their text order is not their time order. The merge is one ``INSERT ... ON CONFLICT
DO UPDATE`` inside a ``BEGIN IMMEDIATE`` transaction, so two syncs at once serialise
and neither can duplicate a row. WAL mode lets readers go on while a sync writes, and
each thread has its own connection.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from vendorsync.times import epoch_micros, from_micros

SCHEMA = """
CREATE TABLE IF NOT EXISTS payments (
    id TEXT PRIMARY KEY,
    amount_minor INTEGER NOT NULL,
    currency TEXT NOT NULL,
    created_at TEXT NOT NULL,
    created_us INTEGER NOT NULL,
    status TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS payments_by_instant ON payments (created_us, id);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
UPSERT = """
INSERT INTO payments (id, amount_minor, currency, created_at, created_us, status)
VALUES (:id, :amount_minor, :currency, :created_at, :created_us, :status)
ON CONFLICT (id) DO UPDATE SET
    amount_minor = excluded.amount_minor,
    currency = excluded.currency,
    created_at = excluded.created_at,
    created_us = excluded.created_us,
    status = excluded.status
WHERE (amount_minor, currency, created_at, status)
    IS NOT (excluded.amount_minor, excluded.currency, excluded.created_at, excluded.status)
"""
COLUMNS = "id, amount_minor, currency, created_at, status"
MAX_OFFSET = 2**62
"""SQLite integers are 64-bit; any offset past the table gives the same empty page."""


class Store:
    """The payments table and the last sync time, in the SQLite file at ``path``."""

    def __init__(self, path: str) -> None:
        self._path = str(path)
        parent = Path(self._path).parent
        parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._db().executescript(SCHEMA)

    def _db(self) -> sqlite3.Connection:
        """This thread's connection (sqlite3 connections must not cross threads)."""
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self._path, timeout=30, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.row_factory = sqlite3.Row
            self._local.db = db
        return db

    def upsert_many(self, payments: list[dict]) -> int:
        """Merge ``payments``; return how many were not stored before."""
        rows = [{**_columns(p), "created_us": epoch_micros(p["created_at"])} for p in payments]
        db = self._db()
        db.execute("BEGIN IMMEDIATE")
        try:
            before = db.execute("SELECT COUNT(*) FROM payments").fetchone()[0]
            db.executemany(UPSERT, rows)
            after = db.execute("SELECT COUNT(*) FROM payments").fetchone()[0]
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return after - before

    def all_payments(self) -> list[dict]:
        """Every payment, oldest first (ties by id)."""
        return self.page(limit=-1, offset=0)[0]

    def page(self, limit: int, offset: int, status: str | None = None) -> tuple[list[dict], int]:
        """``limit`` payments (all when negative) after ``offset``, oldest first, and the
        number stored, read in one transaction so the two agree while a sync writes.
        With ``status``, only the payments in that status, and only they are counted."""
        where, args = ("WHERE status = ?", (status,)) if status else ("", ())
        db = self._db()
        db.execute("BEGIN")
        try:
            found = db.execute(
                f"SELECT {COLUMNS} FROM payments {where} ORDER BY created_us, id LIMIT ? OFFSET ?",
                (*args, limit, min(offset, MAX_OFFSET)),
            ).fetchall()
            total = db.execute(f"SELECT COUNT(*) FROM payments {where}", args).fetchone()[0]
        finally:
            db.execute("COMMIT")
        return [dict(row) for row in found], total

    def count(self) -> int:
        return self._db().execute("SELECT COUNT(*) FROM payments").fetchone()[0]

    def summary(self) -> dict:
        """Count, total and currency (both None when several currencies are stored: their
        minor units cannot be added), and the bounds in UTC; one statement, one snapshot."""
        count, oldest, newest, currencies, currency, total = (
            self._db()
            .execute(
                "SELECT COUNT(*), MIN(created_us), MAX(created_us), COUNT(DISTINCT currency),"
                " MIN(currency), SUM(amount_minor) FROM payments"
            )
            .fetchone()
        )
        if currencies > 1:
            total, currency = None, None
        elif count == 0:
            total, currency = 0, "EUR"
        return {
            "count": count,
            "total_minor": total,
            "currency": currency,
            "oldest": from_micros(oldest) if oldest is not None else None,
            "newest": from_micros(newest) if newest is not None else None,
        }

    def last_sync(self) -> str | None:
        found = self._db().execute("SELECT value FROM meta WHERE key = 'last_sync'").fetchone()
        return found[0] if found else None

    def set_last_sync(self, when: str) -> None:
        self._db().execute(
            "INSERT INTO meta (key, value) VALUES ('last_sync', ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (when,),
        )


def _columns(payment: dict) -> dict:
    return {key: payment[key] for key in ("id", "amount_minor", "currency", "created_at", "status")}
