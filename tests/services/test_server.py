"""BackgroundServer serves a real socket and releases it."""

from __future__ import annotations

import socket

import httpx
import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from benchwright.errors import HarnessError
from benchwright.services._server import BackgroundServer


def _app() -> Starlette:
    return Starlette(routes=[Route("/ping", lambda request: PlainTextResponse("pong"))])


def test_serves_on_a_free_port_and_stops():
    with BackgroundServer(_app()) as server:
        assert httpx.get(server.base_url + "/ping", timeout=5).text == "pong"
        port = server.port
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"http://127.0.0.1:{port}/ping", timeout=2)


def test_a_taken_port_is_a_harness_error():
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    try:
        with pytest.raises(HarnessError, match="cannot bind"):
            BackgroundServer(_app(), port=holder.getsockname()[1]).start()
    finally:
        holder.close()


def _header_names(server: BackgroundServer) -> list[bytes]:
    reply = httpx.get(server.base_url + "/ping", timeout=5)
    return [name for name, _ in reply.headers.raw]  # as received: h11 keeps the case


def test_verbatim_headers_leave_out_uvicorns_own_server_and_date():
    with BackgroundServer(_app()) as server:
        assert _header_names(server)[:2] == [b"date", b"server"]
    with BackgroundServer(_app(), verbatim_headers=True) as server:
        assert _header_names(server) == [b"content-length", b"content-type"]
