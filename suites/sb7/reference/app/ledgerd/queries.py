"""The read side of ``ledger.db``: every answer the API serves from it.

Each function reads inside one snapshot (`Database.read`), so a multi-query answer, the
summary above all, never mixes two states: a refund group applied in one transaction is
in it whole or not at all.
"""

from __future__ import annotations

import sqlite3

from app.ledgerd.ledger import VIZ_COLUMNS
from app.times import days_between, utc_from_us

STATUSES = ("settled", "pending", "refunded", "failed")
CURRENCIES = ("EUR", "USD", "JPY", "KWD")
PAYMENT_KEYS = (
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
SORTS = {
    "created_at": "created_us ASC, id ASC",
    "-created_at": "created_us DESC, id DESC",
    "amount_minor": "amount_minor ASC, id ASC",
    "-amount_minor": "amount_minor DESC, id DESC",
}
EVENT_KEYS = ("seq", "type", "payment_id", "version", "source", "txn", "at")
SELECT_PAYMENT = f"SELECT {', '.join(PAYMENT_KEYS)} FROM payments"


def payments_page(
    conn: sqlite3.Connection,
    limit: int,
    offset: int,
    status: str | None,
    currency: str | None,
    sort: str,
) -> dict:
    clauses, args = [], []
    if status:
        clauses.append("status = ?")
        args.append(status)
    if currency:
        clauses.append("currency = ?")
        args.append(currency)
    where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
    total = conn.execute(f"SELECT COUNT(*) FROM payments{where}", args).fetchone()[0]
    rows = conn.execute(
        f"{SELECT_PAYMENT}{where} ORDER BY {SORTS[sort]} LIMIT ? OFFSET ?",
        [*args, limit, offset],
    ).fetchall()
    return {"data": [dict(row) for row in rows], "total": total, "limit": limit, "offset": offset}


def payment(conn: sqlite3.Connection, payment_id: str) -> dict | None:
    row = conn.execute(f"{SELECT_PAYMENT} WHERE id = ?", (payment_id,)).fetchone()
    return None if row is None else dict(row)


def last_sync(conn: sqlite3.Connection) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = 'last_sync'").fetchone()
    return None if row is None else str(row[0])


def payment_count(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT COUNT(*) FROM payments").fetchone()[0])


def money(conn: sqlite3.Connection) -> dict:
    """The summary without its ``last_sync``: counts, span and per-currency totals."""
    span = conn.execute("SELECT COUNT(*), MIN(created_us), MAX(created_us) FROM payments")
    count, oldest, newest = span.fetchone()
    by_currency = conn.execute(
        "SELECT currency, COUNT(*) AS count, SUM(amount_minor) AS total_minor FROM payments"
        " GROUP BY currency ORDER BY currency"
    ).fetchall()
    reversals = conn.execute(
        "SELECT currency, COUNT(*) AS count, SUM(amount_minor) AS total_minor FROM reversals"
        " GROUP BY currency ORDER BY currency"
    ).fetchall()
    return {
        "count": count,
        "oldest": None if oldest is None else utc_from_us(oldest),
        "newest": None if newest is None else utc_from_us(newest),
        "by_currency": [dict(row) for row in by_currency],
        "reversals": [dict(row) for row in reversals],
    }


def buckets(conn: sqlite3.Connection) -> dict:
    """Every (Berlin day, status) cell from the first day to the last, zeros included."""
    counts = {
        (row["day"], row["status"]): row["n"]
        for row in conn.execute(
            "SELECT day, status, COUNT(*) AS n FROM payments GROUP BY day, status"
        )
    }
    span = conn.execute("SELECT MIN(day), MAX(day) FROM payments").fetchone()
    days = [] if span[0] is None else days_between(span[0], span[1])
    cells = [
        {"day": day, "status": status, "count": counts.get((day, status), 0)}
        for day in days
        for status in STATUSES
    ]
    return {"timezone": "Europe/Berlin", "days": days, "statuses": list(STATUSES), "cells": cells}


def viz_records(conn: sqlite3.Connection) -> dict:
    """The whole collection, columnar, ordered by (instant, id)."""
    rows = conn.execute(
        f"SELECT {', '.join(VIZ_COLUMNS)} FROM payments ORDER BY created_us, id"
    ).fetchall()
    columns: dict[str, object] = {"count": len(rows)}
    for position, name in enumerate(VIZ_COLUMNS):
        columns[name] = [row[position] for row in rows]
    return columns


def event_dict(row: sqlite3.Row) -> dict:
    """A ledger event as served (and relayed): the documented keys, plus the draft or
    reversal it concerns when it concerns one."""
    event = {key: row[key] for key in EVENT_KEYS}
    for extra in ("draft_id", "reversal_id"):
        if row[extra] is not None:
            event[extra] = row[extra]
    return event


def events(conn: sqlite3.Connection, after: int, limit: int) -> dict:
    rows = conn.execute(
        "SELECT * FROM events WHERE seq > ? ORDER BY seq LIMIT ?", (after, limit)
    ).fetchall()
    latest = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0]
    return {"events": [event_dict(row) for row in rows], "latest_seq": latest}


def pending_outbox(conn: sqlite3.Connection, limit: int) -> list[dict]:
    rows = conn.execute(
        "SELECT e.* FROM outbox o JOIN events e ON e.seq = o.seq"
        " WHERE o.delivered_at IS NULL ORDER BY o.seq LIMIT ?",
        (limit,),
    ).fetchall()
    return [event_dict(row) for row in rows]


def outbox_counts(conn: sqlite3.Connection) -> dict:
    row = conn.execute(
        "SELECT COALESCE(SUM(delivered_at IS NULL), 0),"
        " COALESCE(SUM(delivered_at IS NOT NULL), 0),"
        " COALESCE(MAX(CASE WHEN delivered_at IS NOT NULL THEN seq END), 0) FROM outbox"
    ).fetchone()
    return {"pending": row[0], "delivered": row[1], "last_delivered_seq": row[2]}
