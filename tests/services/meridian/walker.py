"""A scripted Meridian client whose good and bad habits are switches.

With the defaults it is the perfect client the ledgers should reward: limit
100, waits out both ``Retry-After`` forms, restarts without a cursor on 410,
times out a held request and retries it. Each switch turns one habit off.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime

import httpx


def retry_after_seconds(value: str) -> float:
    """Both documented forms: delta-seconds or an HTTP-date."""
    try:
        return float(value)
    except ValueError:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())


@dataclass
class Walker:
    base_url: str
    limit: int = 100
    honour_seconds: bool = True
    honour_date: bool = True
    restart_on_410: bool = True
    timeout: float = 5.0
    retry_on_timeout: bool = True
    max_requests: int = 200
    path: str = "/v2/payments"
    """The list endpoint (``/v1/payments`` for the v1 mock)."""
    requests: int = 0
    rows: dict[str, dict] = field(default_factory=dict)

    def walk(self) -> dict[str, dict]:
        """Fetch every visible row; bounded by ``max_requests``."""
        cursor: str | None = None
        with httpx.Client(base_url=self.base_url, timeout=self.timeout) as http:
            while self.requests < self.max_requests:
                self.requests += 1
                params = {"limit": self.limit} | ({"cursor": cursor} if cursor else {})
                try:
                    reply = http.get(self.path, params=params)
                except httpx.TimeoutException:
                    if not self.retry_on_timeout:
                        raise
                    continue
                if reply.status_code == 429:
                    self._wait(reply.headers["Retry-After"])
                    continue
                if reply.status_code == 410:
                    cursor = None if self.restart_on_410 else cursor
                    continue
                reply.raise_for_status()
                body = reply.json()
                self.rows.update({row["id"]: row for row in body["data"]})
                cursor = body["next_cursor"]
                if cursor is None:
                    return self.rows
        raise AssertionError(f"walk did not finish in {self.max_requests} requests")

    def _wait(self, header: str) -> None:
        is_date = not header.replace(".", "").isdigit()
        if self.honour_date if is_date else self.honour_seconds:
            time.sleep(retry_after_seconds(header))


def list_lines(lines: list[dict]) -> list[dict]:
    """The list requests among trace lines, in arrival order."""
    return [line for line in lines if line["method"] == "GET" and line["path"] == "/v2/payments"]


def skip_traps(mock) -> None:
    """Start a phase and spend its trap slots, for tests about plain paging."""
    mock.mark_phase("plain")
    with mock.store.lock:
        mock.store.traps.nth = 10
