"""A harness listener on the app's ``GET /api/stream`` (Server-Sent Events): connected
before a burst so the app's fan-out is live while the readers race it, and counting what
came through. A raw socket read with ``select`` keeps every wait bounded (a blocking
``readline`` on a quiet stream would not return) and lets the phase stop it at once."""

from __future__ import annotations

import json
import select
import socket
import threading
from urllib.parse import urlsplit

from benchwright.suites.sb7.perf_obs import StreamListen

PATH = "/api/stream"
POLL_S = 0.1
HEAD_LIMIT = 16_384
"""A response head larger than this is not an SSE stream's."""


class Listener:
    """``with Listener(base_url, timeout_s) as heard: ...``; then ``heard.result(ids)``."""

    def __init__(self, base_url: str, timeout_s: float) -> None:
        parts = urlsplit(base_url)
        self._address = (parts.hostname or "127.0.0.1", parts.port or 80)
        self._timeout_s = timeout_s
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._status: int | None = None
        self._messages = 0
        self._ids: set[str] = set()
        self._error: str | None = None
        self._connected = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sse-listener", daemon=True)

    def __enter__(self) -> Listener:
        self._thread.start()
        self._connected.wait(self._timeout_s)
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join(self._timeout_s)

    def heard(self, ids: set[str]) -> int:
        """How many of ``ids`` came through the stream so far."""
        with self._lock:
            return len(ids & self._ids)

    def result(self, ids: set[str]) -> StreamListen:
        with self._lock:
            return StreamListen(self._status, self._messages, len(ids & self._ids), self._error)

    def _run(self) -> None:
        try:
            with socket.create_connection(self._address, timeout=self._timeout_s) as sock:
                # HTTP/1.0: the answer cannot be chunked, so its body is the events as sent
                sock.sendall(f"GET {PATH} HTTP/1.0\r\nHost: {self._address[0]}\r\n"
                             "Accept: text/event-stream\r\n\r\n".encode())  # fmt: skip
                self._read(sock)
        except OSError as exc:
            with self._lock:
                self._error = f"{type(exc).__name__}: {exc}"
        finally:
            self._connected.set()

    def _read(self, sock: socket.socket) -> None:
        """Read until stopped or closed: the head's status, then one event per blank line."""
        buffer, head = b"", True
        while not self._stop.is_set():
            ready, _, _ = select.select([sock], [], [], POLL_S)
            if not ready:
                continue
            chunk = sock.recv(65_536)
            if not chunk:
                return
            buffer += chunk
            if head:
                if b"\r\n\r\n" not in buffer:
                    if len(buffer) > HEAD_LIMIT:
                        return
                    continue
                raw, buffer = buffer.split(b"\r\n\r\n", 1)
                self._status_from(raw)
                head = False
                self._connected.set()
            buffer = self._events(buffer.replace(b"\r\n", b"\n"))

    def _status_from(self, raw: bytes) -> None:
        words = raw.split(b"\r\n", 1)[0].split()
        with self._lock:
            self._status = int(words[1]) if len(words) > 1 and words[1].isdigit() else None

    def _events(self, buffer: bytes) -> bytes:
        """Count each whole event's ``data:`` message and its payment ids; the rest waits."""
        *events, rest = buffer.split(b"\n\n")
        for event in events:
            data = b"\n".join(line[5:].strip() for line in event.split(b"\n")
                              if line.startswith(b"data:"))  # fmt: skip
            if not data:
                continue
            ids = _batch_ids(data)
            if ids is None:
                continue  # a heartbeat, or not a batch
            with self._lock:
                self._messages += 1
                self._ids |= ids
        return rest


def _batch_ids(data: bytes) -> set[str] | None:
    """The payment ids of one batch message (None when it is not one)."""
    try:
        found = json.loads(data)
    except ValueError:
        return None
    records = found.get("records") if isinstance(found, dict) else None
    if not isinstance(records, list):
        return None
    return {r["id"] for r in records if isinstance(r, dict) and isinstance(r.get("id"), str)}
