"""Answer only requests addressed to this server's own names (DNS rebinding).

A page on ``evil.example`` can point its own name at 127.0.0.1 once loaded; the
browser then sends its scripts' requests to the local viewer or board as same-origin
requests, ``Host: evil.example:8000``, and reads every answer. Checking the ``Host``
header closes that: a server of ours answers only the names it was bound to, and any
other name gets 421 with no data.

The names are host names without a port (a rebinding page cannot choose the port's
meaning, only the name): `LOOPBACK_NAMES`, plus the address the server binds when it is
a name or a specific address, plus what the user allows (``--allowed-host``). ``*``
allows any name, for a server behind a proxy that checks names itself.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Collection, Iterable

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
ANY = "*"


def allowed_names(bind_host: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The names a server bound to ``bind_host`` answers to: loopback names, the bound
    name itself unless it is a wildcard (``0.0.0.0``, ``::``), and ``extra``."""
    names = {*LOOPBACK_NAMES, *extra}
    if not _is_wildcard(bind_host):
        names.add(bind_host)
    return frozenset(_plain(n) for n in names)


def host_name(header: str) -> str | None:
    """The name in a ``Host`` header, lower-case, without port or IPv6 brackets; None
    when the header is malformed."""
    value = header.strip().lower()
    if value.startswith("["):
        inside, bracket, rest = value[1:].partition("]")
        if not bracket or (rest and not _is_port(rest)):
            return None
        return inside or None
    name, colon, port = value.rpartition(":") if ":" in value else (value, "", "")
    if colon and (not _is_port(":" + port) or ":" in name):
        return None
    return name or None


class HostGuard:
    """ASGI middleware: 400 for a request without a readable ``Host``, 421 for a ``Host``
    outside ``allowed`` (both name the header, neither reaches the app)."""

    def __init__(self, app: ASGIApp, allowed: Collection[str]) -> None:
        self.app = app
        self.any = ANY in allowed
        self.allowed = frozenset(_plain(n) for n in allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.any or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        header = Headers(scope=scope).get("host")
        name = host_name(header) if header is not None else None
        if name is None:
            answer = PlainTextResponse("Host header: missing or malformed", status_code=400)
        elif name not in self.allowed:
            answer = PlainTextResponse(
                f"Host header: this server does not answer to {name[:100]!r} "
                f"(it answers to {', '.join(sorted(self.allowed))}; --allowed-host adds a name)",
                status_code=421,
            )
        else:
            await self.app(scope, receive, send)
            return
        await answer(scope, receive, send)


def _plain(name: str) -> str:
    """A configured name as `host_name` reads one (``[::1]`` -> ``::1``, any case)."""
    if name == ANY:
        return name
    return host_name(name) or name.strip().lower()


def _is_port(text: str) -> bool:
    return text.startswith(":") and text[1:].isascii() and text[1:].isdigit()


def _is_wildcard(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False
