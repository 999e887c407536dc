"""The outbox relay: a background thread that delivers outbox rows to notifierd.

Batches of at most 50 rows, ascending seq, ``POST /notify/events``; a row is marked
delivered only after the notifier's 200, so delivery is at-least-once and the notifier's
durable processed set makes it exactly-once. Failures back off 0.1 s doubling to a 2 s
cap. The relay is the only place ledgerd talks to the notifier on its own, and it never
runs inside a request: a user write commits its outbox row and returns, whether the
notifier is up or not. On boot it simply starts from the rows still pending.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request

from app.ledgerd import queries
from app.ledgerd.ledger import Ledger
from app.times import now_utc

BATCH = 50
MAX_BACKOFF_S = 2.0
IDLE_PROBE_S = 1.0
"""With nothing to deliver, how often the relay checks the notifier is still there."""
TIMEOUT_S = 5.0


class Relay:
    """Delivers the outbox; knows whether the notifier answered last time."""

    def __init__(self, ledger: Ledger, notifier_url: str) -> None:
        self.ledger = ledger
        self.notifier_url = notifier_url.rstrip("/")
        self.notifier_up = False
        self._thread = threading.Thread(target=self._run, name="relay", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def status(self) -> dict:
        with self.ledger.db.read() as conn:
            counts = queries.outbox_counts(conn)
        return {**counts, "notifier": "up" if self.notifier_up else "down"}

    def _run(self) -> None:
        backoff = 0.1
        while True:
            self.ledger.outbox_ready.clear()
            with self.ledger.db.read() as conn:
                batch = queries.pending_outbox(conn, BATCH)
            if not batch:
                if not self.ledger.outbox_ready.wait(IDLE_PROBE_S):
                    self.notifier_up = self._probe()
                continue
            if self._deliver(batch):
                self.notifier_up, backoff = True, 0.1
                continue
            self.notifier_up = False
            time.sleep(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_S)

    def _deliver(self, batch: list[dict]) -> bool:
        body = json.dumps({"events": batch}).encode()
        request = urllib.request.Request(
            f"{self.notifier_url}/notify/events",
            data=body,
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
                if response.status != 200:
                    return False
                response.read()
        except (OSError, urllib.error.URLError, ValueError):
            return False
        seqs = [event["seq"] for event in batch]
        with self.ledger.db.write() as conn:
            conn.executemany(
                "UPDATE outbox SET delivered_at = ? WHERE seq = ?",
                [(now_utc(), seq) for seq in seqs],
            )
        return True

    def _probe(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.notifier_url}/health", timeout=1.0) as response:
                return response.status == 200
        except (OSError, urllib.error.URLError, ValueError):
            return False
