"""The Meridian API v3 client: one request per call, a 10-second timeout on each.

Transport failures (refused, dropped before or during the answer, timed out, a body cut
short) all raise `VendorUnavailable`; HTTP statuses come back as answers, because what a
410 or a 412 means is the caller's business. Retries live with the callers too: whether a
request may be repeated, and how, differs (the same cursor; the same idempotency key).
"""

from __future__ import annotations

import http.client
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar
from urllib.parse import quote, urlsplit

TIMEOUT_S = 10.0
"""The docs' own number: every vendor request is bounded by it."""
DEFAULT_API_KEY = "sk_test_meridian"
"""The key the spec hands out; ``MERIDIAN_API_KEY`` overrides it."""
T = TypeVar("T")


class VendorUnavailable(Exception):
    """No HTTP answer came back: the vendor refused, dropped, stalled or cut it short."""


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    """Lower-cased names."""
    body: bytes

    def json(self) -> dict:
        """The body as a JSON object; a body that is not one is a cut-short answer."""
        try:
            value = json.loads(self.body)
        except ValueError as err:
            raise VendorUnavailable(f"unreadable answer: {err}") from err
        if not isinstance(value, dict):
            raise VendorUnavailable("answer is not a JSON object")
        return value


class Meridian:
    """The vendor at ``base_url`` (the ``--vendor`` flag)."""

    def __init__(self, base_url: str, api_key: str | None = None) -> None:
        parts = urlsplit(base_url.rstrip("/"))
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.prefix = parts.path
        self.api_key = api_key or os.environ.get("MERIDIAN_API_KEY") or DEFAULT_API_KEY

    def call(
        self,
        method: str,
        path: str,
        *,
        payload: dict | None = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        """One request and its whole answer."""
        body = None if payload is None else json.dumps(payload).encode()
        sent = {"Authorization": f"Bearer {self.api_key}", "Accept": "application/json"}
        if body is not None:
            sent["Content-Type"] = "application/json"
        sent.update(headers or {})
        conn = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT_S)
        try:
            conn.request(method, self.prefix + path, body=body, headers=sent)
            response = conn.getresponse()
            raw = response.read()
            answer_headers = {name.lower(): value for name, value in response.getheaders()}
            return Answer(response.status, answer_headers, raw)
        except (OSError, http.client.HTTPException) as err:
            raise VendorUnavailable(f"{method} {path}: {err!r}") from err
        finally:
            conn.close()

    def list_page(self, cursor: str | None, etag: str | None) -> Answer:
        path = "/v3/payments" if cursor is None else f"/v3/payments?cursor={quote(cursor)}"
        return self.call("GET", path, headers={"If-None-Match": etag} if etag else None)

    def reversals(self) -> Answer:
        return self.call("GET", "/v3/reversals")

    def payment(self, payment_id: str) -> Answer:
        return self.call("GET", f"/v3/payments/{quote(payment_id)}")

    def write_note(self, payment_id: str, note: str, version: int) -> Answer:
        return self.call(
            "PATCH",
            f"/v3/payments/{quote(payment_id)}",
            payload={"note": note},
            headers={"If-Match": f'"{version}"'},
        )

    def create_payment(self, key: str, payload: dict) -> Answer:
        return self.call("POST", "/v3/payments", payload=payload, headers={"Idempotency-Key": key})

    def register_webhook(self, url: str) -> Answer:
        return self.call("POST", "/v3/webhooks", payload={"url": url})


def patiently(attempt: Callable[[], T], tries: int = 4, first_pause_s: float = 0.25) -> T:
    """``attempt()`` again after a transport failure, up to ``tries`` times, pausing 0.25,
    0.5, 1 s... (capped at 2 s) between: a dropped connection costs one more request, a
    vendor that stays away raises the last `VendorUnavailable`."""
    pause = first_pause_s
    for remaining in range(tries - 1, -1, -1):
        try:
            return attempt()
        except VendorUnavailable:
            if remaining == 0:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 2.0)
    raise AssertionError("unreachable")
