"""``notifier.db``: the durable processed set and the notification rows.

The dedupe key is the ledger ``seq``. A batch is recorded in one transaction: each new
seq joins the processed set, and (for the four kinds that notify) its one notification
row commits with it, so a SIGKILL leaves either both or neither. A seq already in the
set is a duplicate and changes nothing, whatever else its batch carries.
"""

from __future__ import annotations

from pathlib import Path

from app.db import Database
from app.times import now_utc

SCHEMA = """
CREATE TABLE IF NOT EXISTS processed (
    seq INTEGER PRIMARY KEY,
    type TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS notifications (
    id TEXT PRIMARY KEY,
    event_seq INTEGER NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    message TEXT NOT NULL,
    at TEXT NOT NULL
);
"""
MESSAGES = {
    "draft.submitted": "Draft {draft_id} was submitted for approval.",
    "draft.approved": "Draft {draft_id} was approved; the payment is on its way to Meridian.",
    "draft.rejected": "Draft {draft_id} was rejected.",
    "reversal.created": "Payment {payment_id} was refunded in full (reversal {reversal_id}).",
}
"""The four kinds that notify, one row each; ``payment.sent`` (and anything else) is
recorded as processed and notifies nobody."""


def message_for(event: dict) -> str:
    fields = {name: event.get(name) or "?" for name in ("draft_id", "payment_id", "reversal_id")}
    return MESSAGES[event["type"]].format(**fields)


class NotifierStore:
    def __init__(self, db_dir: Path) -> None:
        self.db = Database(db_dir / "notifier.db", SCHEMA)

    def record(self, events: list[dict]) -> tuple[list[int], list[int]]:
        """Apply a batch; the (accepted, duplicate) seqs, in batch order."""
        accepted: list[int] = []
        duplicate: list[int] = []
        now = now_utc()
        with self.db.write() as conn:
            for event in events:
                seq = event["seq"]
                inserted = conn.execute(
                    "INSERT OR IGNORE INTO processed (seq, type, at) VALUES (?, ?, ?)",
                    (seq, event["type"], now),
                ).rowcount
                if not inserted:
                    duplicate.append(seq)
                    continue
                accepted.append(seq)
                if event["type"] in MESSAGES:
                    conn.execute(
                        "INSERT INTO notifications (id, event_seq, kind, message, at)"
                        " VALUES (?, ?, ?, ?, ?)",
                        (f"ntf_{seq}", seq, event["type"], message_for(event), now),
                    )
        return accepted, duplicate

    def processed(self, after: int) -> dict:
        with self.db.read() as conn:
            rows = conn.execute(
                "SELECT seq, type FROM processed WHERE seq > ? ORDER BY seq", (after,)
            ).fetchall()
            latest = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM processed").fetchone()[0]
        return {"processed": [dict(row) for row in rows], "latest_seq": latest}

    def notifications(self, limit: int, offset: int) -> dict:
        with self.db.read() as conn:
            rows = conn.execute(
                "SELECT id, event_seq, kind, message, at FROM notifications"
                " ORDER BY event_seq DESC LIMIT ? OFFSET ?",
                (limit, offset),
            ).fetchall()
            total = conn.execute("SELECT COUNT(*) FROM notifications").fetchone()[0]
        return {"data": [dict(row) for row in rows], "total": total}

    def notification_count(self) -> int:
        with self.db.read() as conn:
            return int(conn.execute("SELECT COUNT(*) FROM notifications").fetchone()[0])
