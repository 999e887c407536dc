"""Request/response helpers shared by the mock's routes: the public vendor's bytes on the wire.

The public vendor is a stdlib ``http.server`` handler. Every answer it sends is
``send_response`` (status line, ``Server``, ``Date``), then the route's own headers
(``ETag``, ``Retry-After``) in the order it passes them, then ``Content-Type`` and
``Content-Length`` (only ``Content-Length: 0`` when there is no body), then the
default ``json.dumps`` bytes. An entrant's client may depend on any of that (a
plain dict keyed ``"ETag"``, a parser that expects ``", "``), so the mock writes
exactly those lines: Starlette would lower-case the names and uvicorn would add
its own ``server``/``date``, which the mock's server is told not to do.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

JSON = "application/json"
SERVER = f"{BaseHTTPRequestHandler.server_version} {BaseHTTPRequestHandler.sys_version}"
"""What a stdlib handler on this interpreter sends as ``Server``: ``BaseHTTP/0.6 Python/3.x.y``."""


class VendorResponse(Response):
    """A response whose header lines are exactly the given ones, in their case and order."""

    def __init__(
        self,
        status: int,
        body: bytes | None = None,
        *,
        headers: Mapping[str, str] | None = None,
        content_type: str = JSON,
    ) -> None:
        super().__init__(status_code=status)
        lines = [("Server", SERVER), ("Date", formatdate(time.time(), usegmt=True))]
        lines += list((headers or {}).items())
        if body is None:
            lines.append(("Content-Length", "0"))
        else:
            lines += [("Content-Type", content_type), ("Content-Length", str(len(body)))]
        self.body = body or b""
        self.raw_headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in lines]


def reply(payload: Any, status: int = 200, *, headers: Mapping[str, str] | None = None) -> Response:
    """``payload`` as the public vendor serialises it: default `json.dumps` (", ", ": ", ASCII)."""
    return VendorResponse(status, json.dumps(payload).encode(), headers=headers)


def error(status: int, code: str, **extra: Any) -> Response:
    """The vendor's flat error body: ``{"error": code}`` plus any extra fields."""
    return reply({"error": code, **extra}, status)


async def json_object(request: Request) -> dict:
    """The body as a JSON object; anything else (absent, invalid, a list) is ``{}``."""
    try:
        body = json.loads(await request.body() or b"null")
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def first_query(request: Request) -> dict[str, str]:
    """The first value of each query key, as the trace records it."""
    query: dict[str, str] = {}
    for key, value in request.query_params.multi_items():
        query.setdefault(key, value)
    return query
