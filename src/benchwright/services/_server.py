"""Serve an ASGI app on 127.0.0.1 from a background thread, for as long as a grading needs it.

The socket is bound before the server starts (port 0 = the kernel picks a free
port), so there is no window in which another process can take the port, and
readiness is the server's own ``started`` flag, never a sleep.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from typing import Any

import uvicorn

from benchwright.errors import HarnessError

START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 10.0
_POLL_S = 0.01


class BackgroundServer:
    """An ASGI app served by uvicorn in a daemon thread; a context manager."""

    def __init__(
        self,
        app: Any,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        verbatim_headers: bool = False,
        proxy_headers: bool = True,
        http_protocol: type[asyncio.Protocol] | None = None,
    ) -> None:
        """Prepare to serve ``app``; nothing is bound until `start`.

        Args:
            app: the ASGI app.
            host: the address to bind.
            port: the port to bind (0: the kernel picks a free one).
            verbatim_headers: put the app's header lines on the wire exactly as it
                gives them: uvicorn adds no ``server``/``date`` of its own, and the h11
                protocol is pinned, because it writes names in the case given where
                httptools (uvicorn's choice when installed) lower-cases them. The
                Meridian mock needs this to send the public vendor's exact lines.
            proxy_headers: uvicorn's default: believe ``X-Forwarded-For`` from a
                127.0.0.1 peer. False leaves the socket peer in ``request.client`` (the
                board decides whom to believe itself).
            http_protocol: uvicorn's HTTP protocol class to use instead of its own choice
                (an h11 one when ``verbatim_headers``): for a server that must act on the
                connection itself, as a vendor mock closing one unanswered does.
        """
        self._app = app
        self._host = host
        self._port = port
        self._verbatim = verbatim_headers
        self._proxy_headers = proxy_headers
        self._http_protocol = http_protocol
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.port: int | None = None

    @property
    def base_url(self) -> str:
        if self.port is None:
            raise HarnessError("server not started")
        return f"http://{self._host}:{self.port}"

    def start(self) -> str:
        """Bind, serve, wait until accepting; return the base URL."""
        # IPPROTO_TCP, not 0: asyncio disables Nagle only for sockets created with it, and
        # without that every response waits ~40 ms on the client's delayed acknowledgement.
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self._host, self._port))
        except OSError as exc:
            sock.close()
            raise HarnessError(f"cannot bind {self._host}:{self._port}: {exc}") from exc
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            self._app,
            log_level="warning",
            lifespan="off",
            access_log=False,
            server_header=not self._verbatim,
            date_header=not self._verbatim,
            http=self._http_protocol or ("h11" if self._verbatim else "auto"),
            proxy_headers=self._proxy_headers,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise HarnessError(f"server on port {self.port} did not start")
            time.sleep(_POLL_S)
        return self.base_url

    def stop(self) -> None:
        """Ask the server to exit and wait for its thread (bounded)."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(STOP_TIMEOUT_S)
        self._server = self._thread = None

    def __enter__(self) -> BackgroundServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
