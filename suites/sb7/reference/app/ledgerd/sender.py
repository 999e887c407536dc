"""The SEND: approved drafts become vendor payments, from a background thread.

The approval stored the draft's Idempotency-Key in the transaction that approved it;
every attempt sends that same key, so a retry after a timeout, a stall or a SIGKILL gets
the vendor's original payment back instead of a second one. At boot the thread starts
with whatever is approved and not yet sent. On the vendor's 2xx, the returned payment,
the draft's ``sent`` state and the ``payment.sent`` event commit together. A 4xx other
than 408/429 will not change by repeating it: the draft keeps its error and stays
approved, visible to the operator.
"""

from __future__ import annotations

import threading
import time

from app.ledgerd.ledger import Ledger
from app.ledgerd.meridian import Meridian, VendorUnavailable
from app.times import now_utc

MAX_BACKOFF_S = 2.0
RETRYABLE_4XX = (408, 429)


class Sender:
    """Sends approved drafts; `wake` after an approval commits."""

    def __init__(self, ledger: Ledger, vendor: Meridian) -> None:
        self.ledger, self.vendor = ledger, vendor
        self._wake = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sender", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def _due(self) -> list[dict]:
        with self.ledger.db.read() as conn:
            rows = conn.execute(
                "SELECT id, amount_minor, currency, counterparty_name, country, note,"
                " idempotency_key FROM drafts WHERE state = 'approved' AND send_error IS NULL"
                " ORDER BY updated_at, id"
            ).fetchall()
        return [dict(row) for row in rows]

    def _run(self) -> None:
        backoff = 0.25
        while True:
            self._wake.clear()
            due = self._due()
            if not due:
                self._wake.wait(5.0)
                continue
            if all(self._send(draft) for draft in due):
                backoff = 0.25
                continue
            time.sleep(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_S)

    def _send(self, draft: dict) -> bool:
        """One attempt for ``draft``; False when it should be tried again later."""
        payload = {
            "amount_minor": draft["amount_minor"],
            "currency": draft["currency"],
            "note": draft["note"],
            "counterparty": {"name": draft["counterparty_name"], "country": draft["country"]},
        }
        try:
            answer = self.vendor.create_payment(draft["idempotency_key"], payload)
        except VendorUnavailable:
            return False
        if answer.status in (200, 201):
            try:
                payment = answer.json()
            except VendorUnavailable:
                return False
            self._sent(draft["id"], payment)
            return True
        if 400 <= answer.status < 500 and answer.status not in RETRYABLE_4XX:
            with self.ledger.db.write() as conn:
                conn.execute(
                    "UPDATE drafts SET send_error = ? WHERE id = ?",
                    (f"vendor answered {answer.status}", draft["id"]),
                )
            return True
        return False

    def _sent(self, draft_id: str, payment: dict) -> None:
        with self.ledger.transaction() as writer:
            state = writer.conn.execute(
                "SELECT state FROM drafts WHERE id = ?", (draft_id,)
            ).fetchone()[0]
            if state != "approved":
                return
            writer.upsert(payment, "approval")
            writer.conn.execute(
                "UPDATE drafts SET state = 'sent', payment_id = ?, updated_at = ? WHERE id = ?",
                (payment["id"], now_utc(), draft_id),
            )
            writer.event(
                "payment.sent",
                "approval",
                payment_id=payment["id"],
                version=int(payment["version"]),
                draft_id=draft_id,
            )
