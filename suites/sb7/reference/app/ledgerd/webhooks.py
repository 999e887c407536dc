"""``POST /api/webhooks/meridian``: registration, signatures, dedupe, order, groups.

Per delivery, in this order: the unsigned ``webhook.verify`` challenge is echoed (it is
part of registration, not a delivery, and counts nothing); every other POST counts as
received, and its ``Meridian-Signature`` is checked against the RAW body before anything
is parsed (a failure is 401 ``bad_signature``, counted rejected, nothing changed). A valid
event whose id was seen before, or whose version is not newer than the stored row, is
counted ignored; otherwise it is applied with its ledger event, counted applied.

Transaction-group parts are staged in ``ledger.db`` (the 200 means durably accepted) and
the group is applied, every part together, in the one transaction that stages its last
part. The handler never calls the vendor and holds the write lock for one short
transaction, so it answers well inside the vendor's 3 seconds.

The counters are this process's, in memory; the signing secret is kept in ``ledger.db``
so a restarted ledgerd verifies deliveries before its re-registration completes.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading

from app.httpkit import ApiError, Request
from app.ledgerd.ledger import Ledger, Writer
from app.ledgerd.meridian import Meridian, VendorUnavailable
from app.times import now_utc

SIGNATURE_HEADER = "Meridian-Signature"
PATH = "/api/webhooks/meridian"


def signature_ok(secret: str | None, header: str | None, raw: bytes) -> bool:
    """``t=<unix>,v1=<hex>`` with v1 = HMAC-SHA256(secret, ``"<t>."`` + raw body)."""
    if not secret or not header:
        return False
    fields = dict(part.strip().partition("=")[::2] for part in header.split(","))
    stamp, given = fields.get("t"), fields.get("v1")
    if not stamp or not given:
        return False
    expected = hmac.new(secret.encode(), stamp.encode() + b"." + raw, hashlib.sha256)
    return hmac.compare_digest(expected.hexdigest(), given)


def challenge_of(raw: bytes) -> str | None:
    """The hex of a ``webhook.verify`` challenge body, None for anything else."""
    try:
        body = json.loads(raw)
    except ValueError:
        return None
    if isinstance(body, dict) and body.get("type") == "webhook.verify":
        challenge = body.get("challenge")
        return challenge if isinstance(challenge, str) else None
    return None


class Webhooks:
    """The endpoint's state: the secret, whether this process registered, the counters."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.secret = ledger.meta("webhook_secret")
        self.registered = False
        self._lock = threading.Lock()
        self.counters = {"received": 0, "applied": 0, "ignored": 0, "rejected": 0}

    def snapshot(self) -> dict:
        with self._lock:
            return {"registered": self.registered, **self.counters}

    def _count(self, **deltas: int) -> None:
        with self._lock:
            for name, delta in deltas.items():
                self.counters[name] += delta

    def register(self, vendor: Meridian, port: int) -> bool:
        """Register this endpoint (idempotent by URL on the vendor's side); True once the
        vendor accepted it. The vendor's challenge arrives on the listening server."""
        url = f"http://127.0.0.1:{port}{PATH}"
        try:
            answer = vendor.register_webhook(url)
        except VendorUnavailable:
            return False
        if answer.status not in (200, 201):
            return False
        body = answer.json()
        self.secret = str(body["secret"])
        self.ledger.set_meta({"webhook_secret": self.secret, "webhook_id": str(body.get("id", ""))})
        self.registered = True
        return True

    def deliver(self, request: Request) -> dict:
        raw = request.body
        challenge = challenge_of(raw)
        if challenge is not None:
            return {"challenge": challenge}
        self._count(received=1)
        if not signature_ok(self.secret, request.header(SIGNATURE_HEADER), raw):
            self._count(rejected=1)
            raise ApiError(401, "bad_signature", "The Meridian-Signature does not verify.")
        event = json.loads(raw)
        applied, ignored = self._accept(event)
        self._count(applied=applied, ignored=ignored)
        return {"received": True}

    def _accept(self, event: dict) -> tuple[int, int]:
        """Record ``event`` in one transaction; (applied, ignored) counts."""
        with self.ledger.transaction() as writer:
            event_id = str(event.get("id", ""))
            seen = writer.conn.execute(
                "SELECT 1 FROM webhook_events WHERE id = ?", (event_id,)
            ).fetchone()
            if seen is not None:
                return 0, 1
            writer.conn.execute(
                "INSERT INTO webhook_events (id, at) VALUES (?, ?)", (event_id, now_utc())
            )
            txn = event.get("txn")
            if isinstance(txn, dict):
                return _stage(writer, txn, event_id, event)
            return (1, 0) if _apply(writer, event, None) else (0, 1)


def _stage(writer: Writer, txn: dict, event_id: str, event: dict) -> tuple[int, int]:
    """Stage one part; when it completes its group, apply every part (part order) now."""
    txn_id, of_parts = str(txn["id"]), int(txn["of"])
    writer.conn.execute(
        "INSERT OR IGNORE INTO txn_parts (txn_id, part, of_parts, event_id, body)"
        " VALUES (?, ?, ?, ?, ?)",
        (txn_id, int(txn["part"]), of_parts, event_id, json.dumps(event)),
    )
    parts = writer.conn.execute(
        "SELECT body FROM txn_parts WHERE txn_id = ? ORDER BY part", (txn_id,)
    ).fetchall()
    if len(parts) < of_parts:
        return 0, 0
    outcomes = [_apply(writer, json.loads(row["body"]), txn_id) for row in parts]
    writer.conn.execute("DELETE FROM txn_parts WHERE txn_id = ?", (txn_id,))
    applied = sum(outcomes)
    return applied, len(outcomes) - applied


def _apply(writer: Writer, event: dict, txn_id: str | None) -> bool:
    """Apply one event's resource; False when it is stale (or of no known type)."""
    kind, data = event.get("type"), event.get("data") or {}
    if kind in ("payment.created", "payment.updated"):
        return writer.upsert(data, "webhook", txn_id) is not None
    if kind == "reversal.created":
        return writer.add_reversal(data, "webhook", txn_id)
    return False
