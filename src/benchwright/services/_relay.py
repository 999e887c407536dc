"""Byte relays across the edge of a sandboxed app's network namespace.

A sandboxed app has a network namespace of its own: a private loopback that no
other grading shares, so every grading can serve the vendor at the address the
entrant was told (``127.0.0.1:9003``) at once. Connections cross the edge as
Unix sockets in a bridge directory bound into the sandbox (services/_bridge.py
is the grader's side):

- ``vendor.sock``: inside, this module listens on the vendor's port and relays
  each connection to it; outside, the grader relays it to the mock's real port;
- ``app.sock``: outside, the grader listens on the app's leased port and relays
  each connection to it; inside, this module connects it to the app's port and
  answers one `READY` byte first, so the outside can tell a port nobody has
  bound (a refusal) from an app that hung up.

A half-close is passed on as a half-close, so each side sees what a direct TCP
connection would show; a relay ends when both directions have ended or one
fails, and closes both ends.

Run as a script it is the sandbox's side: ``python _relay.py BRIDGE VENDOR_PORT
APP_PORT -- APP_ARGV...`` binds both listeners, leaves a relay process behind
(reparented to the namespace's init, so it is not the app's child), and execs the
app. Either port may be ``-`` (none): an agent building against the vendor has no
port of its own to offer, only the vendor to reach (``BRIDGE PORT - -- AGENT_ARGV``).
Either may also list several ``PORT=SOCKET`` items: routes out to more than the vendor
(a service dialing its peer service), and more ports of the app's own relayed in (a
process serving two services at once).
Standard library only: benchwright itself is not importable in there.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import socket
import struct
import sys
from collections.abc import Awaitable, Callable

VENDOR_SOCKET = "vendor.sock"
APP_SOCKET = "app.sock"
READY = b"+"
"""Sent by the inside relay once the app's port accepted the connection."""
CHUNK = 65536
CONNECT_TIMEOUT_S = 5.0
NO_PORT = "-"
"""In place of a port on the command line: no relay on that side."""

Ends = tuple[asyncio.StreamReader, asyncio.StreamWriter]
Opener = Callable[[], Awaitable[Ends]]
Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def _copy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy until EOF, then pass the EOF on."""
    while data := await reader.read(CHUNK):
        writer.write(data)
        await writer.drain()
    if writer.can_write_eof():
        writer.write_eof()


async def pipe(one: Ends, other: Ends) -> None:
    """Relay both directions until both end (or one fails); then close both ends."""
    tasks = [
        asyncio.ensure_future(_copy(one[0], other[1])),
        asyncio.ensure_future(_copy(other[0], one[1])),
    ]
    try:
        await asyncio.gather(*tasks)
    except (OSError, RuntimeError):
        pass  # a reset or a write after close: the connection is over either way
    finally:
        for task in tasks:
            task.cancel()
        for writer in (one[1], other[1]):
            writer.close()


def reset(writer: asyncio.StreamWriter) -> None:
    """Close with an RST (linger 0): what a client sees when the peer behind us refused."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.close()


class Relays:
    """Listeners that relay each accepted connection to a peer; closes every one of them."""

    def __init__(self) -> None:
        self._servers: list[asyncio.Server] = []
        self._tasks: set[asyncio.Task[None]] = set()

    async def serve(self, sock: socket.socket, handler: Handler, limit: int = 2**16) -> None:
        """Serve each connection accepted on the bound ``sock`` with ``handler``; `close`
        and `drop` end the ones still being served (``limit``: the reader's line limit)."""

        async def tracked(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            task = asyncio.current_task()
            assert task is not None
            self._tasks.add(task)
            try:
                await handler(reader, writer)
            except asyncio.CancelledError:
                # `close` ended this relay: finish quietly. Python 3.11's server callback
                # asks a cancelled handler for its exception, which raises and prints a
                # traceback per open connection on every teardown.
                return
            finally:
                writer.close()  # also when cancelled before the peer answered
                self._tasks.discard(task)

        if sock.family == socket.AF_UNIX:
            server = await asyncio.start_unix_server(tracked, sock=sock, limit=limit)
        else:
            server = await asyncio.start_server(tracked, sock=sock, limit=limit)
        self._servers.append(server)

    async def listen(self, sock: socket.socket, open_peer: Opener, greeting: bytes = b"") -> None:
        """Relay connections accepted on the bound ``sock`` to ``open_peer()``, writing
        ``greeting`` to the accepted side once the peer is connected."""

        async def relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                peer = await asyncio.wait_for(open_peer(), CONNECT_TIMEOUT_S)
            except (OSError, asyncio.IncompleteReadError):  # TimeoutError is an OSError
                reset(writer)
                return
            writer.write(greeting)
            await pipe((reader, writer), peer)

        await self.serve(sock, relay)

    async def drop(self) -> None:
        """End every relayed connection (both ends closed); keep listening."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        """Stop listening and end every relayed connection."""
        for server in self._servers:
            server.close()
        await self.drop()
        for server in self._servers:
            await server.wait_closed()
        await asyncio.sleep(0)  # the transports' own close callbacks run before we return


def tcp_listener(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def unix_listener(path: str) -> socket.socket:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)  # the previous boot's
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(path)
    sock.listen(128)
    return sock


def outward(spec: str) -> list[tuple[int, str]]:
    """``VENDOR_PORT`` of the command line: ``-``, or comma-separated ``PORT`` (relayed to
    `VENDOR_SOCKET`) or ``PORT=SOCKET`` items (a socket of the bridge directory)."""
    return _items(spec, VENDOR_SOCKET)


def inward(spec: str) -> list[tuple[int, str]]:
    """``APP_PORT`` of the command line: ``-``, or comma-separated ``PORT`` (served on
    `APP_SOCKET`) or ``PORT=SOCKET`` items: each socket of the bridge directory leads to
    that port of the app's."""
    return _items(spec, APP_SOCKET)


def _items(spec: str, default: str) -> list[tuple[int, str]]:
    if spec == NO_PORT:
        return []
    items = [item.partition("=") for item in spec.split(",")]
    return [(int(port), name or default) for port, _, name in items]


async def _inside(
    out: list[tuple[socket.socket, str]], into: list[tuple[socket.socket, int]], bridge: str
) -> None:
    relays = Relays()
    for sock, name in out:
        path = os.path.join(bridge, name)
        await relays.listen(sock, lambda path=path: asyncio.open_unix_connection(path))
    for sock, port in into:
        await relays.listen(sock, functools.partial(asyncio.open_connection, "127.0.0.1", port),
                            READY)  # fmt: skip
    await asyncio.Event().wait()  # until the namespace ends: its init kills us with the app


def main(argv: list[str]) -> None:
    """Bind the listeners, leave the relay running, exec the app (see the module doc)."""
    bridge, vendor_port, app_port, separator, *command = argv
    if separator != "--" or not command:
        sys.exit("usage: _relay.py BRIDGE VENDOR_PORT[=SOCKET],...|- "
                 "APP_PORT[=SOCKET],...|- -- ARGV...")  # fmt: skip
    out = [(tcp_listener("127.0.0.1", p), name) for p, name in outward(vendor_port)]
    into = [(unix_listener(os.path.join(bridge, name)), p) for p, name in inward(app_port)]
    child = os.fork()
    if child == 0:  # a grandchild serves, so the app is not its parent
        if os.fork() == 0:
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)  # the app's log is the app's own
            try:
                asyncio.run(_inside(out, into, bridge))
            finally:
                os._exit(1)
        os._exit(0)
    os.waitpid(child, 0)
    for sock, _ in [*out, *into]:
        sock.close()
    os.execvp(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
