"""Raw-socket instruments for the wire tests: httpx and Starlette would normalise header case.

`exchange` sends one request and returns the status line, the header lines as
sent (name case and order kept) and the body bytes. `RawReceiver` is a tiny
webhook endpoint on 127.0.0.1 that records every request the same way and echoes
the registration challenge.
"""

from __future__ import annotations

import json
import re
import socket
import socketserver
import threading
from dataclasses import dataclass
from urllib.parse import urlsplit

DATE_RE = re.compile(r"[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT")
SERVER_RE = re.compile(r"BaseHTTP/0\.6 Python/3\.\d+\.\d+")


@dataclass(frozen=True)
class Message:
    """One HTTP message as it crossed the socket."""

    first_line: str
    fields: list[tuple[str, str]]
    body: bytes

    def value(self, name: str) -> str:
        """A field's value, looked up case-insensitively (the names are asserted apart)."""
        return next(v for k, v in self.fields if k.lower() == name.lower())

    def masked(self) -> list[tuple[str, str]]:
        """The fields with ``Date``/``Server`` values replaced once their format is checked."""
        out = []
        for name, value in self.fields:
            if name == "Date":
                assert DATE_RE.fullmatch(value), value
                value = "<date>"
            elif name == "Server":
                assert SERVER_RE.fullmatch(value), value
                value = "<server>"
            out.append((name, value))
        return out


def _read_message(sock: socket.socket) -> Message:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"connection closed inside the head: {data!r}")
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    first, *lines = head.decode("latin-1").split("\r\n")
    fields = [(name, value) for name, value in (line.split(": ", 1) for line in lines)]
    message = Message(first, fields, b"")
    length = int(message.value("Content-Length"))
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return Message(first, fields, body)


def exchange(
    base_url: str, method: str, target: str, fields: dict[str, str] | None = None, body: bytes = b""
) -> Message:
    """Send one HTTP/1.1 request on a fresh connection; return the response as sent."""
    url = urlsplit(base_url)
    lines = [f"{method} {target} HTTP/1.1", f"Host: {url.netloc}"]
    lines += [f"{k}: {v}" for k, v in (fields or {}).items()]
    if body:
        lines.append(f"Content-Length: {len(body)}")
    request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        sock.sendall(request)
        return _read_message(sock)


class RawReceiver(socketserver.ThreadingTCPServer):
    """A webhook endpoint recording each request's exact lines; a context manager."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.received: list[Message] = []
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/hook"

    def __enter__(self) -> RawReceiver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        self.server_close()


class _Handler(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        message = _read_message(self.request)
        self.server.received.append(message)
        event = json.loads(message.body)
        answer = {"challenge": event["challenge"]} if "challenge" in event else {"ok": True}
        body = json.dumps(answer).encode()
        head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        head += f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        self.request.sendall(head.encode() + body)
