"""The vendor-to-us direction: registration after boot, signature checks, the live counters.

The counters count what *this process* received since it started (they live in
memory, as the contract says); the signing secret comes from the registration
answer and is kept in memory too. Registering the same URL again returns the same
secret, so a restarted app simply registers again.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import sys
import threading
import time

from vspro.meridian import MeridianClient, VendorError
from vspro.store import Store

SIGNATURE_HEADER = "Meridian-Signature"
TOLERANCE_S = 300
"""A signature older (or newer) than this is refused: a replayed capture, not a delivery."""
REGISTER_PAUSES_S = (1, 1, 1, 1)
"""Five quick attempts after boot (1 s apart); after that, one every `REGISTER_BACKOFF_S`."""
REGISTER_BACKOFF_S = 10


def signature_ok(secret: str | None, header: str | None, raw: bytes, now: float) -> bool:
    """``t=<unix>,v1=<hex>``: HMAC-SHA256(secret, ``"<t>."`` + raw body), constant-time."""
    if not secret or not header:
        return False
    stamp, candidates = None, []
    for part in header.split(","):
        name, _, value = part.strip().partition("=")
        if name == "t":
            stamp = value
        elif name == "v1":
            candidates.append(value)
    if stamp is None or not stamp.isdigit() or abs(now - int(stamp)) > TOLERANCE_S:
        return False
    expected = hmac.new(secret.encode(), stamp.encode() + b"." + raw, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, candidate) for candidate in candidates)


class Webhooks:
    """Registration state, the secret, and the four counters of the health endpoint."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._registering = threading.Lock()
        self.secret: str | None = None
        self.webhook_id: str | None = None
        self.counters = {"received": 0, "applied": 0, "ignored": 0, "rejected": 0}

    def snapshot(self) -> dict:
        with self._lock:
            return {"registered": self.secret is not None, **self.counters}

    def _bump(self, name: str) -> None:
        with self._lock:
            self.counters[name] += 1

    # -- registration --------------------------------------------------------
    def register(self, client: MeridianClient, url: str) -> bool:
        """One attempt; True once the vendor verified our endpoint and gave us the secret."""
        try:
            answer = client.register_webhook(url)
        except VendorError as err:
            print(f"vspro: webhook registration failed ({err})", file=sys.stderr, flush=True)
            return False
        with self._lock:
            self.secret, self.webhook_id = answer["secret"], answer.get("id")
        print(f"vspro: webhook {self.webhook_id} registered for {url}", flush=True)
        return True

    def register_in_background(self, client: MeridianClient, url: str) -> None:
        """Keep trying until registered (never blocks the caller, never runs twice at once)."""

        def attempts() -> None:
            if not self._registering.acquire(blocking=False):
                return
            pauses = itertools.chain(REGISTER_PAUSES_S, itertools.repeat(REGISTER_BACKOFF_S))
            try:
                while not self.register(client, url):
                    time.sleep(next(pauses))
            finally:
                self._registering.release()

        threading.Thread(target=attempts, name="vspro-register", daemon=True).start()

    # -- deliveries ----------------------------------------------------------
    def handle(self, store: Store, raw: bytes, header: str | None) -> tuple[int, dict]:
        """Answer one POST to our webhook URL: ``(status, body)``. Never calls the vendor."""
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            body = None
        if isinstance(body, dict) and body.get("type") == "webhook.verify":
            challenge = body.get("challenge")
            if isinstance(challenge, str):
                return 200, {"challenge": challenge}  # the handshake: counts nothing
        self._bump("received")
        if not signature_ok(self.secret, header, raw, time.time()):
            self._bump("rejected")
            return 401, _error("bad_signature", "the Meridian-Signature header does not verify")
        try:
            outcome = store.apply_event(body if isinstance(body, dict) else {})
        except (ValueError, TypeError):
            self._bump("rejected")
            return 400, _error("bad_request", "an event needs an id and a valid payment in data")
        self._bump("applied" if outcome == "applied" else "ignored")
        return 200, {"received": True}


def _error(code: str, message: str) -> dict:
    return {"error": {"code": code, "message": message}}
