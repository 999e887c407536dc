"""An allow-listing egress proxy for a sandboxed agent: HTTP ``CONNECT`` to listed hosts only.

A live agent CLI (a preset) building against the vendor in its own network namespace
still needs its model provider's API. The namespace has no route out; the bridge's
``egress.sock`` (relayed in on `EGRESS_PORT`, set as ``HTTPS_PROXY``) is the only way,
and it tunnels only ``CONNECT host:port`` to a host on the allow-list (``host`` means
port 443; ``host:port`` exactly that port). Anything else is answered with an error and
closed: a plain-HTTP proxy request (405), a host not listed (403), a malformed or
oversized head (400). The name is resolved here, outside: the sandbox needs no DNS.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable

from benchwright.services._relay import pipe

EGRESS_SOCKET = "egress.sock"
EGRESS_PORT = 3128
"""Where the relay inside answers for the proxy (``HTTPS_PROXY=http://127.0.0.1:3128``)."""
HEAD_LIMIT = 8192
HEAD_TIMEOUT_S = 10.0
CONNECT_TIMEOUT_S = 10.0


def allow_list(hosts: Iterable[str]) -> frozenset[tuple[str, int]]:
    """``host`` or ``host:port`` entries as (lower-case host, port); 443 when none given.

    Raises:
        ValueError: an entry with an empty host or a port that is not a number.
    """
    allowed = set()
    for entry in hosts:
        host, _, port = entry.strip().rpartition(":") if ":" in entry else (entry, "", "443")
        if not host.strip() or not port.isdigit():
            raise ValueError(f"egress host {entry!r}: want HOST or HOST:PORT")
        allowed.add((host.strip().lower(), int(port)))
    return frozenset(allowed)


async def handle(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, allowed: frozenset[tuple[str, int]]
) -> None:
    """Serve one client connection: a tunnel to an allowed host, else an error."""
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT_S)
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, OSError):
        return await _answer(writer, 400, "a request head ending in a blank line, at most 8 KiB")
    method, _, rest = head.split(b"\r\n", 1)[0].decode("latin-1").partition(" ")
    target = rest.split(" ", 1)[0]
    if method.upper() != "CONNECT":
        return await _answer(writer, 405, "this proxy only tunnels CONNECT host:port")
    host, _, port = target.rpartition(":")
    if not port.isdigit() or (host.lower(), int(port)) not in allowed:
        return await _answer(writer, 403, f"{target} is not on this agent's egress allow-list")
    try:
        peer = await asyncio.wait_for(asyncio.open_connection(host, int(port)), CONNECT_TIMEOUT_S)
    except OSError as exc:  # TimeoutError included
        return await _answer(writer, 502, f"cannot reach {target}: {exc}")
    writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
    await pipe((reader, writer), peer)


async def _answer(writer: asyncio.StreamWriter, status: int, why: str) -> None:
    reasons = {400: "Bad Request", 403: "Forbidden", 405: "Method Not Allowed", 502: "Bad Gateway"}
    body = (why + "\n").encode()
    head = (f"HTTP/1.1 {status} {reasons[status]}\r\nContent-Type: text/plain\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n")  # fmt: skip
    writer.write(head.encode() + body)
    with contextlib.suppress(OSError):
        await writer.drain()
    writer.close()
