"""Acting on connections, not just requests: refuse every one while down, close one
unanswered on schedule.

An ASGI app can only answer; a vendor that "drops the connection before any bytes"
must close the socket itself. `Gate` keeps the transport of every open connection
(uvicorn's h11 protocol, subclassed by `gated_protocol`), so a handler can close its
own request's connection (`Dropped`), and `set_down` can close them all.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from starlette.responses import Response
from starlette.types import Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

DISCONNECT_WAIT_S = 2.0


class Gate:
    """The open connections of one server and whether it is down."""

    def __init__(self, refused: Callable[[tuple[str, int] | None], None]) -> None:
        """``refused(client)`` is called for each connection closed because it is down."""
        self.down = False
        self._refused = refused
        self._open: dict[tuple[str, int], tuple[asyncio.Transport, asyncio.AbstractEventLoop]] = {}
        self._lock = threading.Lock()

    def opened(self, client: tuple[str, int] | None, transport, loop) -> None:
        """Keep an accepted connection, or refuse it while down."""
        if self.down or client is None:
            self.refuse(client, transport)
            return
        with self._lock:
            self._open[client] = (transport, loop)

    def refuse(self, client: tuple[str, int] | None, transport) -> None:
        """Close a connection unanswered, because the vendor is down."""
        self.closed(client)
        self._refused(client)
        transport.close()

    def closed(self, client: tuple[str, int] | None) -> None:
        with self._lock:
            self._open.pop(client, None)  # type: ignore[arg-type]

    def close(self, client: tuple[str, int] | None) -> bool:
        """Close one connection from the server's loop thread; False if it is not open."""
        with self._lock:
            entry = self._open.get(client)  # type: ignore[arg-type]
        if entry is None:
            return False
        entry[0].close()
        return True

    def set_down(self, down: bool) -> None:
        """Down: close every open connection (from its loop's thread) and every new one."""
        self.down = down
        if down:
            with self._lock:
                entries = list(self._open.values())
            for transport, loop in entries:
                loop.call_soon_threadsafe(transport.close)


def gated_protocol(gate: Gate) -> type[H11Protocol]:
    """uvicorn's h11 protocol, reporting its connections to ``gate`` and refusing
    requests on a kept-alive connection while the gate is down."""

    class GatedH11Protocol(H11Protocol):
        def connection_made(self, transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            gate.opened(self.client, transport, self.loop)

        def connection_lost(self, exc: Exception | None) -> None:
            gate.closed(self.client)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if gate.down:
                gate.refuse(self.client, self.transport)
                return
            super().data_received(data)

    return GatedH11Protocol


class Dropped(Response):
    """No answer at all: the request's connection is closed before a byte is written."""

    def __init__(self, gate: Gate) -> None:
        super().__init__(status_code=499)
        self._gate = gate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self._gate.close(scope.get("client")):
            return
        try:  # wait until the server has seen the close, so it never answers instead
            async with asyncio.timeout(DISCONNECT_WAIT_S):
                while (await receive())["type"] != "http.disconnect":
                    pass
        except TimeoutError:
            pass
