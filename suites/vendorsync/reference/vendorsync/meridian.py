"""The Meridian v1 client: every request the app sends to the vendor goes through here.

What the vendor documentation asks of a client, and where it is done:

- cursor paging at the largest page (`PAGE_LIMIT`), ended only by ``next_cursor: null``;
- ``429`` waits the ``Retry-After`` it carries, in seconds or as an HTTP-date
  (`retry_after_seconds`), then repeats the same request;
- ``410 cursor_expired`` restarts the walk without a cursor (`_CursorExpired`);
- each page's ``ETag`` goes back as ``If-None-Match``, so a re-sync of unchanged data is
  answered ``304`` and served from the copy kept here (`_pages`);
- every request has a timeout of at most 10 s and is retried after a timeout or a 5xx;
- a create carries its ``Idempotency-Key``, and a retry reuses it; ``409 duplicate`` is
  the success path of a retry.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import Message
from email.utils import parsedate_to_datetime
from http.client import HTTPException
from typing import Any
from urllib.error import HTTPError, URLError
from urllib.parse import urlencode
from urllib.request import Request, urlopen

from vendorsync.times import epoch_micros

TIMEOUT_S = 10.0
"""The ceiling the spec sets for every vendor request."""
PAGE_LIMIT = 100
"""The vendor's largest page: fewer requests, fewer chances to meet a rate limit."""
MAX_ATTEMPTS = 4
"""Tries per request after timeouts, dropped connections and 5xx answers."""
MAX_RATE_WAITS = 20
"""429s tolerated for one request before the sync gives up."""
MAX_RESTARTS = 5
"""Walks restarted after an expired cursor before the sync gives up."""
RETRY_AFTER_MAX_S = 60.0
LIST_PATH = "/v1/payments"


class VendorError(Exception):
    """The vendor could not be reached, or did not answer as documented."""


class VendorRejected(VendorError):
    """A 4xx that repeating the request cannot fix (for example an invalid create)."""

    def __init__(self, status: int, code: str) -> None:
        super().__init__(f"vendor answered {status} {code}")
        self.status = status
        self.code = code


class _CursorExpired(Exception):
    """The walk's cursor died: start again from the first page."""


@dataclass(frozen=True, slots=True)
class _Answer:
    status: int
    headers: Message
    body: bytes

    def json(self) -> Any:
        try:
            return json.loads(self.body)
        except ValueError as exc:
            raise VendorError(f"vendor answered {self.status} without JSON") from exc

    def error_code(self) -> str:
        try:
            return str(json.loads(self.body).get("error", ""))
        except (ValueError, AttributeError):
            return ""


def retry_after_seconds(value: str | None, now: datetime | None = None) -> float:
    """How long a ``Retry-After`` header says to wait, in either of its two forms.

    Delta-seconds (``2``) or an HTTP-date (``Wed, 01 Apr 2026 10:00:02 GMT``); a missing
    or unreadable header means one second, and no wait is longer than a minute.
    """
    if value is None or not value.strip():
        return 1.0
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = parsedate_to_datetime(text)
        except (TypeError, ValueError):
            return 1.0
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - (now or datetime.now(UTC))).total_seconds()
    if seconds != seconds:  # NaN
        return 1.0
    return min(max(seconds, 0.0), RETRY_AFTER_MAX_S)


class MeridianClient:
    """One vendor account. Thread-safe: the page cache is guarded by a lock."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        timeout: float = TIMEOUT_S,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._base = base_url.rstrip("/")
        self._key = api_key
        self._timeout = min(timeout, TIMEOUT_S)
        self._sleep = sleep
        self._pages: dict[str, tuple[str, dict]] = {}
        """The last body of each page by the cursor that asked for it, with its ETag."""
        self._lock = threading.Lock()

    # -- the three methods the spec names -------------------------------------------------

    def fetch_all_payments(self) -> list[dict]:
        """Every payment once, oldest first by instant (ties by id)."""
        for _ in range(MAX_RESTARTS + 1):
            try:
                rows = self._walk()
            except _CursorExpired:
                continue
            return sorted(rows, key=lambda row: (epoch_micros(row["created_at"]), row["id"]))
        raise VendorError(f"the cursor expired on {MAX_RESTARTS + 1} walks in a row")

    def total_count(self) -> int:
        """The size of the vendor's whole collection, as the vendor reports it."""
        answer = self._request("GET", LIST_PATH, {"limit": "1"})
        if answer.status != 200:
            raise VendorError(f"total: vendor answered {answer.status}")
        total = answer.json().get("total")
        if not isinstance(total, int) or isinstance(total, bool):
            raise VendorError(f"total: vendor sent {total!r}")
        return total

    def create_payment(self, amount_minor: int, currency: str, idempotency_key: str) -> str:
        """Create one payment and return its id; the same key always returns the same id."""
        if not isinstance(amount_minor, int) or isinstance(amount_minor, bool):
            raise ValueError(f"amount_minor must be an integer, got {amount_minor!r}")
        if not idempotency_key:
            raise ValueError("an idempotency key is required")
        body = json.dumps({"amount_minor": amount_minor, "currency": currency}).encode()
        answer = self._request(
            "POST",
            LIST_PATH,
            body=body,
            headers={"Idempotency-Key": idempotency_key, "Content-Type": "application/json"},
        )
        if answer.status == 201:
            return str(answer.json()["id"])
        if answer.status == 409 and answer.error_code() == "duplicate":
            return str(answer.json()["payment_id"])
        raise VendorRejected(answer.status, answer.error_code())

    # -- paging ---------------------------------------------------------------------------

    def _walk(self) -> list[dict]:
        by_id: dict[str, dict] = {}
        cursor: str | None = None
        seen: set[str] = set()
        while True:
            page = self._page(cursor)
            for row in page["data"]:
                by_id[row["id"]] = _payment(row)
            cursor = page.get("next_cursor")
            if cursor is None:
                return list(by_id.values())
            if cursor in seen:
                raise VendorError("the vendor sent a cursor twice in one walk")
            seen.add(cursor)

    def _page(self, cursor: str | None) -> dict:
        """One page, from the vendor or, when it answers 304, from the kept copy."""
        key = cursor or ""
        query = {"limit": str(PAGE_LIMIT)} | ({"cursor": cursor} if cursor else {})
        with self._lock:
            kept = self._pages.get(key)
        headers = {"If-None-Match": kept[0]} if kept else {}
        answer = self._request("GET", LIST_PATH, query, headers=headers)
        if answer.status == 304 and kept:
            return kept[1]
        if answer.status == 410:
            with self._lock:
                self._pages.pop(key, None)
            raise _CursorExpired
        if answer.status != 200:
            raise VendorError(f"list: vendor answered {answer.status} {answer.error_code()}")
        body = answer.json()
        if not isinstance(body, dict) or not isinstance(body.get("data"), list):
            raise VendorError("list: the page has no data array")
        etag = answer.headers.get("ETag")
        if etag:
            with self._lock:
                self._pages[key] = (etag, body)
        return body

    # -- transport ------------------------------------------------------------------------

    def _request(
        self,
        method: str,
        path: str,
        query: dict[str, str] | None = None,
        *,
        headers: dict[str, str] | None = None,
        body: bytes | None = None,
    ) -> _Answer:
        """Send until the vendor gives an answer worth returning (2xx, 304 or a 4xx).

        429 waits as told and repeats; a timeout, a dropped connection or a 5xx repeats
        after a short backoff, the same request byte for byte (so a create keeps its key).
        """
        url = self._base + path + (f"?{urlencode(query)}" if query else "")
        sent = {"Authorization": f"Bearer {self._key}", "Accept": "application/json"}
        sent |= headers or {}
        failures = rate_waits = 0
        while True:
            request = Request(url, data=body, method=method, headers=sent)
            try:
                with urlopen(request, timeout=self._timeout) as response:
                    return _Answer(response.status, response.headers, response.read())
            except HTTPError as err:
                answer = _Answer(err.code, err.headers, err.read())
                if err.code == 429 and rate_waits < MAX_RATE_WAITS:
                    rate_waits += 1
                    self._sleep(retry_after_seconds(err.headers.get("Retry-After")))
                    continue
                if err.code < 500 or failures + 1 >= MAX_ATTEMPTS:
                    return answer
                failures += 1
            except (URLError, HTTPException, OSError) as exc:
                failures += 1
                if failures >= MAX_ATTEMPTS:
                    raise VendorError(f"{method} {path}: {exc}") from exc
            self._sleep(min(0.25 * 2**failures, 4.0))


def _payment(row: dict) -> dict:
    """The five fields the app keeps, with the money checked to be an integer."""
    amount = row.get("amount_minor")
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise VendorError(f"payment {row.get('id')!r}: amount_minor is not an integer")
    return {
        "id": str(row["id"]),
        "amount_minor": amount,
        "currency": str(row["currency"]),
        "created_at": str(row["created_at"]),
        "status": str(row["status"]),
    }
