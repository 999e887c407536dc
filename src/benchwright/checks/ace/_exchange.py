"""One recorded HTTP conversation with the stack: every request a scenario makes, kept for F6.

A scenario speaks through a `Recorder`; every answer it gets is appended to
``exchanges`` before the scenario looks at it, so F6 (which runs last) grades exactly
what the server said, including the answers that made a scenario fail.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx

from benchwright.checks.ace._stack import REQUEST_TIMEOUT_S
from benchwright.services.tls import shared_tls_context


class Finding(Exception):
    """The stack fell short of a scenario; the message is the FAIL row's one-line detail."""


@dataclass(frozen=True, slots=True)
class Exchange:
    """One request and the answer it got."""

    method: str
    template: str
    """The contract's path template, e.g. ``/accounts/{accountId}/deposits``."""
    path: str
    """The concrete path requested (no query string)."""
    status: int
    body: Any
    """The parsed JSON body, or the raw text when it was not JSON."""

    @property
    def call(self) -> str:
        return f"{self.method} {self.path}"

    def field(self, name: str) -> Any:
        """``body[name]``, or a Finding naming the call and the missing field."""
        if not isinstance(self.body, dict) or name not in self.body:
            raise Finding(f"{self.call} -> {self.status}: no {name!r} in {_short(self.body)}")
        return self.body[name]

    def expect(self, *statuses: int) -> Exchange:
        """This exchange, or a Finding when its status is not one of ``statuses``."""
        if self.status not in statuses:
            wanted = " or ".join(str(s) for s in statuses)
            raise Finding(f"{self.call}: expected {wanted}, got {self.status} {_short(self.body)}")
        return self

    def to_dict(self) -> dict[str, Any]:
        return {"method": self.method, "path": self.path, "status": self.status,
                "body": self.body}  # fmt: skip


class Recorder:
    """An HTTP client bound to one base URL that records every exchange."""

    def __init__(self, base_url: str, timeout_s: float = REQUEST_TIMEOUT_S) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout_s = timeout_s
        self.exchanges: list[Exchange] = []
        self._client = httpx.Client(base_url=self.base_url, timeout=timeout_s,
                                    verify=shared_tls_context())  # fmt: skip

    def close(self) -> None:
        self._client.close()

    def call(
        self,
        method: str,
        template: str,
        *,
        body: Any = None,
        query: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
        **ids: str,
    ) -> Exchange:
        """``method template`` with ``{name}`` filled from ``ids`` (URL-quoted).

        Raises:
            Finding: the server could not be reached or did not answer in time.
        """
        path = template.format(**{name: quote(value, safe="") for name, value in ids.items()})
        url = self.base_url + path
        try:
            response = self._client.request(method, path, json=body, params=query, headers=headers)
        except httpx.ConnectError:
            raise Finding(f"connection refused at {url}") from None
        except httpx.TimeoutException:
            raise Finding(f"no answer within {self.timeout_s:g} s at {url}") from None
        except httpx.TransportError as exc:
            raise Finding(f"transport error at {url}: {exc}") from None
        exchange = Exchange(method, template, path, response.status_code, _parsed(response.text))
        self.exchanges.append(exchange)
        return exchange


def _parsed(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _short(body: Any, limit: int = 120) -> str:
    text = json.dumps(body) if not isinstance(body, str) else repr(body)
    return text if len(text) <= limit else text[: limit - 3] + "..."
