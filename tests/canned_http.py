"""Canned wire observations for the executed-app suites' check tests: one response, its
body read as wire JSON, a refused request."""

from __future__ import annotations

import json
from typing import Any

from benchwright.probes.http import HttpObservation, JsonRead, parse_wire_json

JSON = "application/json"


def http(
    status: int | None,
    content: bytes = b"",
    ctype: str = JSON,
    path: str = "/",
    *,
    elapsed: float = 0.005,
    error: str | None = None,
) -> HttpObservation:
    headers = (("content-type", ctype),) if status is not None else ()
    return HttpObservation("GET", path, status, headers, content, 0.0, elapsed, error)


def jr(
    value: Any,
    status: int | None = 200,
    ctype: str = JSON,
    path: str = "/api",
    *,
    raw: bytes | None = None,
    elapsed: float = 0.005,
) -> JsonRead:
    """A JsonRead whose body is ``value`` serialised (or ``raw`` bytes as sent)."""
    content = raw if raw is not None else json.dumps(value).encode()
    obs = http(status, content, ctype, path, elapsed=elapsed)
    return JsonRead(obs, parse_wire_json(content))


def refused(path: str = "/api") -> JsonRead:
    obs = http(None, path=path, error="ConnectError: refused")
    return JsonRead(obs, parse_wire_json(b""))
