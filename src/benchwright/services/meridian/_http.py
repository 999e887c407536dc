"""Small request/response helpers shared by the mock's routes."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse


def error(status: int, code: str, **extra: Any) -> JSONResponse:
    """The vendor's flat error body: ``{"error": code}`` plus any extra fields."""
    return JSONResponse({"error": code, **extra}, status_code=status)


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
