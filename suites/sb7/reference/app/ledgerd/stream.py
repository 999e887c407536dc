"""``GET /api/stream``: Server-Sent Events of committed payment changes.

Each commit that changed payments is published once (under the write lock, so in commit
order) to every connected subscriber as one message, ``{"batch": n, "records": [...]}``,
with ``n`` counting up per connection. A ``heartbeat`` event opens the stream and repeats
while it is quiet, so a client (and a proxy) can tell a live idle stream from a dead one.
Each subscriber has its own thread (the server is threaded) and its own queue: a slow
reader never slows a commit.
"""

from __future__ import annotations

import json
import queue
import threading

from app.httpkit import JsonHandler
from app.times import now_utc

HEARTBEAT_S = 10.0


class Hub:
    """The subscribers' queues."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queues: set[queue.SimpleQueue[list[dict]]] = set()

    def publish(self, records: list[dict]) -> None:
        with self._lock:
            for subscriber in self._queues:
                subscriber.put(records)

    def serve(self, handler: JsonHandler) -> None:
        """Hold ``handler``'s connection open as one subscriber until the client leaves."""
        mine: queue.SimpleQueue[list[dict]] = queue.SimpleQueue()
        with self._lock:
            self._queues.add(mine)
        handler.close_connection = True
        try:
            handler.send_response(200)
            handler.send_header("Content-Type", "text/event-stream")
            handler.send_header("Cache-Control", "no-cache")
            handler.send_header("Connection", "close")
            handler.end_headers()
            self._pump(handler, mine)
        except OSError:
            pass  # the subscriber went away
        finally:
            with self._lock:
                self._queues.discard(mine)

    def _pump(self, handler: JsonHandler, mine: queue.SimpleQueue[list[dict]]) -> None:
        batch = 0
        _send(handler, "event: heartbeat\ndata: " + json.dumps({"at": now_utc()}))
        while True:
            try:
                records = mine.get(timeout=HEARTBEAT_S)
            except queue.Empty:
                _send(handler, "event: heartbeat\ndata: " + json.dumps({"at": now_utc()}))
                continue
            batch += 1
            _send(handler, "data: " + json.dumps({"batch": batch, "records": records}))


def _send(handler: JsonHandler, message: str) -> None:
    handler.wfile.write(message.encode() + b"\n\n")
    handler.wfile.flush()
