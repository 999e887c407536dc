"""The mock's outbound POSTs (handshake, deliveries), sent as the public vendor sends them.

The public vendor posts with ``urllib.request``: its request line and header lines
(``Accept-Encoding: identity``, ``Content-Length``, ``Host``, ``User-Agent:
Python-urllib/3.x``, ``Content-Type``, ``Meridian-Signature``, ``Connection: close``,
in that order and case) are what an entrant's receiver was built against, so the
mock uses the same client rather than imitating it. Proxies from the environment
are ignored: a delivery to the app under test never leaves the host.
"""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from http.client import HTTPException

_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@dataclass(frozen=True)
class Answer:
    """What came back: the status (0 when there was no HTTP answer) and body, or the error."""

    status: int
    body: bytes
    error: str | None
    ms: float


def post_json(
    url: str, body: bytes, timeout: float, headers: Mapping[str, str] | None = None
) -> Answer:
    """POST ``body`` (already serialised: these are the bytes signed) as ``application/json``."""
    request = urllib.request.Request(
        url,
        data=body,
        method="POST",
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    started = time.monotonic()
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            status, answer, problem = response.status, response.read(), None
    except urllib.error.HTTPError as exc:  # a non-2xx answer is still an answer
        status, answer, problem = exc.code, exc.read(), None
    except (OSError, HTTPException, ValueError) as exc:  # URLError is an OSError
        status, answer, problem = 0, b"", f"{type(exc).__name__}: {exc}"
    return Answer(status, answer, problem, round((time.monotonic() - started) * 1000, 1))
