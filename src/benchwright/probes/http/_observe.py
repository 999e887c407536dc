"""One HTTP exchange, recorded as data: the common currency of every HTTP probe.

A transport failure is an observation too (``status`` None, ``error`` set), so a
probe never raises because the app misbehaved; only harness faults raise.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import httpx

from benchwright.services.tls import shared_tls_context

DEFAULT_TIMEOUT_S = 10.0


@dataclass(frozen=True, slots=True)
class HttpObservation:
    """What one request saw. Observes only; checks decide what it means."""

    method: str
    path: str
    """The request target as sent, query included."""
    status: int | None
    """None when no response arrived (refused, reset, timed out)."""
    headers: tuple[tuple[str, str], ...]
    """Response headers in wire order, names lower-cased, repeats kept."""
    body: bytes
    started_at: float
    """``time.perf_counter()`` when the request was sent."""
    elapsed_s: float
    """Until the whole body was read (or the request failed)."""
    error: str | None = None

    @property
    def ended_at(self) -> float:
        return self.started_at + self.elapsed_s

    @property
    def elapsed_ms(self) -> float:
        return self.elapsed_s * 1000.0

    @property
    def succeeded(self) -> bool:
        """A 2xx arrived: what the seed's urllib samplers counted as a success."""
        return self.status is not None and 200 <= self.status < 300

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (any case), or None."""
        wanted = name.lower()
        return next((value for key, value in self.headers if key == wanted), None)

    @property
    def content_type(self) -> str | None:
        return self.header("content-type")


def client(base_url: str, timeout_s: float = DEFAULT_TIMEOUT_S) -> httpx.Client:
    """A client for the app: one fresh connection per request, no proxies.

    No keep-alive, as with the seed's urllib samplers: on a reused connection a server
    that writes headers and body in two sends waits out the client's delayed ACK
    (about 40 ms on Linux), which would be charged to the app's p95. Proxies from the
    environment are ignored because the app is on loopback.
    """
    return httpx.Client(
        base_url=base_url,
        timeout=timeout_s,
        trust_env=False,
        limits=httpx.Limits(max_keepalive_connections=0),
        verify=shared_tls_context(),
    )


def fetch(
    http: httpx.Client,
    path: str,
    *,
    method: str = "GET",
    json: Any = None,
    headers: dict[str, str] | None = None,
) -> HttpObservation:
    """Send one request and record it, whatever happens on the wire."""
    started = time.perf_counter()
    try:
        response = http.request(method, path, json=json, headers=headers)
    except httpx.HTTPError as exc:
        return HttpObservation(
            method=method,
            path=path,
            status=None,
            headers=(),
            body=b"",
            started_at=started,
            elapsed_s=time.perf_counter() - started,
            error=f"{type(exc).__name__}: {exc}",
        )
    return HttpObservation(
        method=method,
        path=path,
        status=response.status_code,
        headers=tuple(response.headers.multi_items()),
        body=response.content,
        started_at=started,
        elapsed_s=time.perf_counter() - started,
    )
