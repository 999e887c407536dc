"""One fake app, served for real on loopback, that every HTTP probe test talks to."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from benchwright.services._server import BackgroundServer


def _raw_json(body: bytes, status: int = 200) -> Response:
    """Bytes exactly as given: JSONResponse would re-encode what the test wants to send."""
    return Response(body, status_code=status, media_type="application/json")


def _flaky(every: int):
    """Answers 500 on every ``every``-th request and 200 otherwise."""
    count = {"n": 0}

    async def endpoint(request: Request) -> Response:
        count["n"] += 1
        if count["n"] % every == 0:
            return JSONResponse({"error": {"code": "boom"}}, status_code=500)
        return JSONResponse({"ok": True})

    return endpoint


_answered = {"slow": 0}


async def _slow(request: Request) -> Response:
    await asyncio.sleep(float(request.query_params.get("s", "0.05")))
    _answered["slow"] += 1
    return JSONResponse({"rows": [{"id": i} for i in range(3)]})


async def _slow_answered(request: Request) -> Response:
    """How many slow requests were answered so far: an operation can end after the
    readers' first few reads, whenever their threads got going."""
    return JSONResponse(_answered)


async def _echo(request: Request) -> Response:
    return JSONResponse({"method": request.method, "got": await request.json()}, status_code=201)


async def _validate(request: Request) -> Response:
    limit = request.query_params.get("limit", "50")
    if not limit.isdigit():
        return JSONResponse({"error": {"code": "bad_limit", "message": "limit"}}, status_code=400)
    return JSONResponse({"limit": int(limit)})


def fake_app() -> Starlette:
    return Starlette(
        routes=[
            Route("/ok", lambda r: JSONResponse({"ok": True}, headers={"X-Trace": "t1"})),
            Route("/always500", lambda r: JSONResponse({"error": "x"}, status_code=500)),
            Route("/every2", _flaky(2)),
            Route("/every3", _flaky(3)),
            Route("/slow", _slow),
            Route("/slow/answered", _slow_answered),
            Route("/echo", _echo, methods=["POST"]),
            Route("/validate", _validate),
            Route("/float", lambda r: _raw_json(b'{"amount": 1.5}')),
            Route("/int", lambda r: _raw_json(b'{"amount": 150}')),
            Route(
                "/rows",
                lambda r: _raw_json(
                    b'{"rows": [{"amount_minor": 1500}, {"amount_minor": 1500.0}]}'
                ),
            ),
            Route("/html", lambda r: PlainTextResponse("<p>hi</p>", media_type="text/html")),
            Route("/notjson", lambda r: _raw_json(b"{'single': quotes}")),
            Route("/sync", _slow, methods=["POST"]),
            Route("/peer", lambda r: JSONResponse({"port": r.client.port if r.client else None})),
        ]
    )


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with BackgroundServer(fake_app()) as server:
        yield server.base_url
