"""The page's own API calls as the browser saw them answered: the causal half of a
journey's evidence (a click that changed the DOM without a write is not a completed
step)."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from benchwright.suites.sb7.browser.flows.views import NO_ANSWER, DraftCall
from benchwright.suites.sb7.context import ROLES, Tokens


@dataclass
class CallLog:
    """Every answered request of the page whose path matches ``pattern``. Playwright
    calls the listener on the lane's thread; the lock keeps a read consistent anyway."""

    pattern: re.Pattern[str]
    tokens: Tokens
    calls: list[DraftCall] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def attach(self, page: Any) -> CallLog:
        page.on("response", lambda response: self._record(response.request, response.status))
        page.on("requestfailed", lambda request: self._record(request, NO_ANSWER))
        return self

    def _record(self, request: Any, status: int) -> None:
        """One call the page sent: answered with ``status``, or `NO_ANSWER` when the
        request failed (aborted by the page, refused, reset) -- a sent request, not none."""
        path = urlsplit(request.url).path
        if not self.pattern.search(path):
            return
        call = DraftCall(request.method, path, status,
                         self._role(request.headers.get("authorization")))  # fmt: skip
        with self.lock:
            self.calls.append(call)

    def _role(self, header: str | None) -> str | None:
        if not header:
            return None
        token = header.removeprefix("Bearer ").strip()
        return next((r for r in ROLES if getattr(self.tokens, r) == token), "other")

    def snapshot(self) -> tuple[DraftCall, ...]:
        with self.lock:
            return tuple(self.calls)

    def answered(self, method: str, path: re.Pattern[str], role: str | None = None) -> bool:
        """A ``method`` call to a matching path answered 2xx (as ``role``, when given)."""
        return any(c.method == method and path.search(c.path) and 200 <= c.status < 300
                   and (role is None or c.bearer == role) for c in self.snapshot())  # fmt: skip

    def status_of(self, method: str, path: re.Pattern[str]) -> int | None:
        """The status of the first matching call (None: the page never sent one;
        `NO_ANSWER`: it sent one that failed)."""
        return next((c.status for c in self.snapshot()
                     if c.method == method and path.search(c.path)), None)  # fmt: skip
