"""notifierd assembled: ``POST /notify/events`` and its three read endpoints.

The counters (received, applied, duplicate) are this process's, in memory; the
processed set and the notifications are durable, and they are what exactly-once rests
on. notifierd never calls ledgerd: it only answers.
"""

from __future__ import annotations

import threading
from pathlib import Path

from app.httpkit import JsonServer, Request, invalid, route
from app.notifierd.store import NotifierStore

DEFAULT_LIMIT, MAX_LIMIT = 50, 200


def _events_of(request: Request) -> list[dict]:
    """The batch's events, each with an integer ``seq`` and a string ``type``."""
    events = request.json().get("events")
    if not isinstance(events, list):
        raise invalid([{"path": "events", "code": "required"}], "A list of events is required.")
    errors = []
    for index, event in enumerate(events):
        seq = event.get("seq") if isinstance(event, dict) else None
        if not isinstance(seq, int) or isinstance(seq, bool):
            errors.append({"path": f"events[{index}].seq", "code": "not_an_integer"})
        elif not isinstance(event.get("type"), str):
            errors.append({"path": f"events[{index}].type", "code": "required"})
    if errors:
        raise invalid(errors, "Some events are malformed.")
    return events


class Notifierd:
    """One notifierd process's parts."""

    def __init__(self, db_dir: Path, port: int) -> None:
        self.store = NotifierStore(db_dir)
        self._lock = threading.Lock()
        self.counters = {"received": 0, "applied": 0, "duplicate": 0}
        self.server = JsonServer(
            port,
            [
                route("POST", "/notify/events", self.events),
                route("GET", "/health", self.health),
                route("GET", "/notify/processed", self.processed),
                route("GET", "/notify/notifications", self.notifications),
            ],
        )
        self.port = self.server.server_address[1]

    def start(self) -> None:
        threading.Thread(
            target=self.server.serve_forever, name="notifierd-http", daemon=True
        ).start()

    def events(self, request: Request) -> dict:
        batch = _events_of(request)
        accepted, duplicate = self.store.record(batch)
        with self._lock:
            self.counters["received"] += len(batch)
            self.counters["applied"] += len(accepted)
            self.counters["duplicate"] += len(duplicate)
        return {"accepted": accepted, "duplicate": duplicate}

    def health(self, _request: Request) -> dict:
        with self._lock:
            counters = dict(self.counters)
        return {"status": "ok", **counters, "notifications": self.store.notification_count()}

    def processed(self, request: Request) -> dict:
        return self.store.processed(request.whole("after", 0))

    def notifications(self, request: Request) -> dict:
        limit = min(request.whole("limit", DEFAULT_LIMIT, positive=True), MAX_LIMIT)
        return self.store.notifications(limit, request.whole("offset", 0))
