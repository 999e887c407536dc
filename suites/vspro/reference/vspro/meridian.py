"""MeridianClient: the Meridian API v2 client, written from the vendor's documentation.

Rules it keeps (each one is a trap for a client that did not read the docs):

- every request has a timeout of at most 10 s; a timeout or a refused connection
  is retried (3 times) with the *same* request: same cursor, same idempotency key;
- a 429 is waited out to its ``Retry-After``, in delta-seconds or HTTP-date form
  (clamped to 0-30 s), and nothing is sent before then;
- pages are walked with the opaque ``next_cursor`` at the maximum ``limit`` of 100,
  and only ``next_cursor: null`` ends a walk (a short page is not the end);
- ``410 cursor_expired`` restarts the walk *without* a cursor (at most 3 times);
- every page's ``ETag`` is cached with its body, per cursor, and sent back as
  ``If-None-Match``, so a walk over an unchanged collection is all 304s;
- writes carry ``If-Match: <version>``; a 412 is answered by one refetch and one
  retry, and a second 412 is a `VersionConflict` for the caller to report.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from dataclasses import dataclass
from email.message import Message
from email.utils import parsedate_to_datetime
from http.client import HTTPException
from urllib.error import HTTPError
from urllib.parse import quote, urlencode
from urllib.request import ProxyHandler, Request, build_opener

from vspro.times import parse_instant

PAGE_LIMIT = 100
TIMEOUT_S = 10.0
RETRIES = 3
RETRY_PAUSE_S = 0.25
MAX_WAIT_S = 30.0
MAX_RATE_LIMITS = 8
MAX_RESTARTS = 3
LIST_PATH = "/v2/payments"


class VendorError(Exception):
    """The vendor answered, with an error: HTTP ``status`` and Meridian's ``code``."""

    def __init__(self, status: int, code: str, body: dict | None = None) -> None:
        super().__init__(f"Meridian answered {status} {code}")
        self.status, self.code, self.body = status, code, body or {}


class VendorUnavailable(VendorError):
    """No answer at all: every attempt timed out or could not connect."""

    def __init__(self, reason: str) -> None:
        super().__init__(0, "vendor_unavailable")
        self.reason = reason


class VersionConflict(VendorError):
    """A write still met 412 after its one refetch and retry."""


class _CursorExpired(Exception):
    pass


@dataclass(frozen=True)
class Reply:
    status: int
    headers: Message
    body: bytes

    def json(self) -> dict:
        try:
            value = json.loads(self.body or b"{}")
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}

    @property
    def code(self) -> str:
        code = self.json().get("error")
        return code if isinstance(code, str) else f"http_{self.status}"


def retry_after_seconds(value: str | None, now: float | None = None) -> float:
    """Seconds to wait for a ``Retry-After`` in either form, clamped to 0..30 s."""
    if not value:
        return 1.0
    value = value.strip()
    try:
        wait = float(value)
    except ValueError:
        try:
            wait = parsedate_to_datetime(value).timestamp() - (now or time.time())
        except (TypeError, ValueError, IndexError):
            wait = 1.0
    return min(max(wait, 0.0), MAX_WAIT_S)


def _time_order(row: dict) -> tuple:
    try:
        return (0, parse_instant(row.get("created_at")).timestamp(), str(row.get("id")))
    except ValueError:
        return (1, 0.0, str(row.get("id")))


class MeridianClient:
    """One vendor account: base URL, API key, and the ETag cache of the list walk."""

    def __init__(self, base_url: str, api_key: str, timeout: float = TIMEOUT_S) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = min(timeout, TIMEOUT_S)
        self._opener = build_opener(ProxyHandler({}))  # the vendor is local: never a proxy
        self._etags: dict[str | None, tuple[str, dict]] = {}
        self._etag_lock = threading.Lock()

    # -- reading -------------------------------------------------------------
    def fetch_all_payments(self) -> list[dict]:
        """Every payment, deduplicated by id (highest version wins), in time order."""
        rows: dict[str, dict] = {}
        for _ in range(MAX_RESTARTS + 1):
            cursor: str | None = None
            try:
                while True:
                    page = self._page(cursor)
                    for row in page["data"]:
                        if not isinstance(row, dict):
                            continue  # the store refuses malformed rows; skip them here too
                        known = rows.get(row.get("id"))
                        if known is None or row.get("version", 0) >= known.get("version", 0):
                            rows[row.get("id")] = row
                    cursor = page.get("next_cursor")
                    if not cursor:
                        return sorted(rows.values(), key=_time_order)
            except _CursorExpired:
                continue  # restart from the beginning, without the dead cursor
        raise VendorError(410, "cursor_expired")

    def get_payment(self, payment_id: str) -> dict | None:
        """The vendor's current copy of one payment, or None when it does not exist."""
        reply = self._request("GET", f"{LIST_PATH}/{quote(payment_id, safe='')}")
        if reply.status == 404:
            return None
        if reply.status != 200:
            raise VendorError(reply.status, reply.code, reply.json())
        return reply.json()

    def total_count(self) -> int:
        """The vendor's visible total. One list request: it counts against the rate limit."""
        reply = self._request("GET", LIST_PATH, query={"limit": 1})
        if reply.status != 200:
            raise VendorError(reply.status, reply.code, reply.json())
        return int(reply.json().get("total", 0))

    # -- writing -------------------------------------------------------------
    def create_payment(self, payment: dict, idempotency_key: str | None = None) -> dict:
        """Create one payment; a retry reuses the key, and 409 duplicate counts as created."""
        key = idempotency_key or f"vspro-{uuid.uuid4().hex}"
        reply = self._request("POST", LIST_PATH, body=payment, headers={"Idempotency-Key": key})
        if reply.status == 201:
            return reply.json()
        if reply.status == 409 and reply.code == "duplicate":
            payment_id = str(reply.json().get("payment_id", ""))
            return self.get_payment(payment_id) or {"id": payment_id}
        raise VendorError(reply.status, reply.code, reply.json())

    def create_batch(self, items: list[dict]) -> dict:
        """Up to 20 creates, each with its own idempotency key: ``{results, succeeded, failed}``.

        Items are independent: a failed item is reported, never resent.
        """
        items = [
            item if item.get("idempotency_key") else {**item, "idempotency_key": uuid.uuid4().hex}
            for item in items
        ]
        reply = self._request("POST", f"{LIST_PATH}/batch", body={"items": items})
        if reply.status != 200:
            raise VendorError(reply.status, reply.code, reply.json())
        return reply.json()

    def update_payment(self, payment_id: str, fields: dict, version: int) -> dict:
        """PATCH with ``If-Match``; on 412 refetch, re-apply, retry once; then give up."""
        reply = self._patch(payment_id, fields, version)
        if reply.status == 412:
            fresh = self.get_payment(payment_id)
            if fresh is None:
                raise VendorError(404, "not_found")
            reply = self._patch(payment_id, fields, int(fresh["version"]))
            if reply.status == 412:
                raise VersionConflict(412, "version_conflict", reply.json())
        if reply.status != 200:
            raise VendorError(reply.status, reply.code, reply.json())
        return reply.json()

    def register_webhook(self, url: str) -> dict:
        """Register (idempotent by URL) our endpoint; the vendor verifies it first."""
        reply = self._request("POST", "/v2/webhooks", body={"url": url})
        if reply.status != 200 or not isinstance(reply.json().get("secret"), str):
            raise VendorError(reply.status, reply.code, reply.json())
        return reply.json()

    # -- plumbing ------------------------------------------------------------
    def _patch(self, payment_id: str, fields: dict, version: int) -> Reply:
        path = f"{LIST_PATH}/{quote(payment_id, safe='')}"
        return self._request("PATCH", path, body=fields, headers={"If-Match": str(version)})

    def _page(self, cursor: str | None) -> dict:
        query: dict = {"limit": PAGE_LIMIT}
        if cursor:
            query["cursor"] = cursor
        with self._etag_lock:
            cached = self._etags.get(cursor)
        headers = {"If-None-Match": cached[0]} if cached else {}
        reply = self._request("GET", LIST_PATH, query=query, headers=headers)
        if reply.status == 304 and cached:
            return cached[1]
        if reply.status == 200:
            page = reply.json()
            if not isinstance(page.get("data"), list):
                raise VendorError(502, "bad_page", page)
            etag = reply.headers.get("ETag")
            if etag:
                with self._etag_lock:
                    self._etags[cursor] = (etag, page)
            return page
        if cursor and (reply.status == 410 or reply.code == "bad_cursor"):
            with self._etag_lock:
                self._etags.pop(cursor, None)
            raise _CursorExpired
        raise VendorError(reply.status, reply.code, reply.json())

    def _request(
        self,
        method: str,
        path: str,
        *,
        query: dict | None = None,
        body: dict | None = None,
        headers: dict | None = None,
    ) -> Reply:
        """Send until answered: retry timeouts and refused connections, wait out 429s."""
        failures = rate_limited = 0
        while True:
            try:
                reply = self._send(method, path, query, body, headers or {})
            except (OSError, HTTPException) as exc:
                failures += 1
                if failures > RETRIES:
                    raise VendorUnavailable(f"{method} {path}: {exc}") from exc
                if not _is_timeout(exc):
                    time.sleep(RETRY_PAUSE_S)
                continue  # a timed-out request is resent at once, unchanged
            if reply.status == 429 and rate_limited < MAX_RATE_LIMITS:
                rate_limited += 1
                time.sleep(retry_after_seconds(reply.headers.get("Retry-After")) + 0.05)
                continue
            if reply.status >= 500 and failures < RETRIES:
                failures += 1
                time.sleep(RETRY_PAUSE_S * failures)
                continue
            return reply

    def _send(
        self, method: str, path: str, query: dict | None, body: dict | None, headers: dict
    ) -> Reply:
        url = self.base_url + path + (f"?{urlencode(query)}" if query else "")
        request = Request(
            url,
            method=method,
            headers={
                "Authorization": f"Bearer {self.api_key}",
                "Accept": "application/json",
                "User-Agent": "vspro/1.0",
                **({"Content-Type": "application/json"} if body is not None else {}),
                **headers,
            },
        )
        data = None if body is None else json.dumps(body).encode()
        try:
            with self._opener.open(request, data=data, timeout=self.timeout) as response:
                return Reply(response.status, response.headers, response.read())
        except HTTPError as err:
            with err:
                return Reply(err.code, err.headers, err.read())


def _is_timeout(exc: BaseException) -> bool:
    return isinstance(exc, TimeoutError) or isinstance(getattr(exc, "reason", None), TimeoutError)
