"""Test clients of the Meridian v3 mock: a webhook consumer and a list walker that do what
the docs ask, each with knobs that make it do one documented thing wrong, and the
shared store they both write (upsert by version, as a correct app does)."""

from __future__ import annotations

import contextlib
import itertools
import json
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from benchwright.services._server import BackgroundServer
from benchwright.services.meridian_v3 import API_KEY, MeridianV3Mock, V3Timing, verify

FAST = V3Timing(
    retry_after_secs=1,
    create_hold_secs=1.0,
    delivery_timeout=3.0,
    delivery_attempts=2,
    delivery_backoff_secs=0.05,
    handshake_timeout=3.0,
    barrier_timeout=10.0,
)
"""Delays shrunk so a whole first walk takes a few seconds."""
AUTH = {"Authorization": f"Bearer {API_KEY}"}
TICKS = itertools.count(1)
"""One clock for the walker and the consumer: the order things happened in this process."""
MAX_REQUESTS = 600
"""Every walk is bounded: 192 pages and a handful of faults need far fewer."""


@contextlib.contextmanager
def serving(seed: int = 0, trace=None) -> Iterator[MeridianV3Mock]:
    with MeridianV3Mock(seed, timing=FAST, trace_path=trace) as mock:
        yield mock


def client(mock: MeridianV3Mock) -> httpx.Client:
    return httpx.Client(base_url=mock.base_url, headers=AUTH, timeout=10.0)


@dataclass
class Store:
    """What the app holds: payments by id, reversals by id; a row is only replaced by a
    higher version (never blind-written)."""

    rows: dict[str, dict] = field(default_factory=dict)
    reversals: dict[str, dict] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def upsert(self, row: dict) -> bool:
        with self.lock:
            held = self.rows.get(row["id"])
            if held is not None and held["version"] >= row["version"]:
                return False
            self.rows[row["id"]] = row
            return True


@dataclass
class Consumer:
    """A webhook receiver: verifies the signature over the raw bytes, dedupes event ids,
    applies by version and stages transaction groups until complete."""

    store: Store
    secret: str = ""
    echo_challenge: bool = True
    answer: int = 200
    """The status a verified event gets (anything but 2xx: the app refusing deliveries)."""
    pace: Callable[[dict], Awaitable[None]] | None = None
    """Awaited with each event before it is answered: a test's hook to hold the vendor's
    delivery until something it is waiting for has happened."""
    counters: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(("received", "applied", "ignored", "rejected"), 0)
    )
    arrivals: list[tuple[int, dict, bytes, str]] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    staged: dict[str, list[dict]] = field(default_factory=dict)

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/hook", self.handle, methods=["POST"])])

    async def handle(self, request: Request) -> JSONResponse:
        body = await request.body()
        event = json.loads(body)
        if event.get("type") == "webhook.verify":
            return JSONResponse({"challenge": event["challenge"] if self.echo_challenge else "x"})
        header = request.headers.get("meridian-signature", "")
        self.arrivals.append((next(TICKS), event, body, header))
        self.counters["received"] += 1
        if self.pace is not None:
            await self.pace(event)
        if not verify(self.secret, header, body):
            self.counters["rejected"] += 1
            return JSONResponse({"error": "bad_signature"}, status_code=401)
        if self.answer != 200:
            return JSONResponse({}, status_code=self.answer)
        if event["id"] in self.seen:
            self.counters["ignored"] += 1
            return JSONResponse({})
        self.seen.add(event["id"])
        txn = event["txn"]
        if txn is None:
            self._apply(event)
            return JSONResponse({})
        group = self.staged.setdefault(txn["id"], [])
        group.append(event)
        if len(group) == txn["of"]:
            for part in self.staged.pop(txn["id"]):
                self._apply(part)
        return JSONResponse({})

    def _apply(self, event: dict) -> None:
        data = event["data"]
        if event["type"] == "reversal.created":
            self.store.reversals[data["id"]] = data
            self.counters["applied"] += 1
        else:
            self.counters["applied" if self.store.upsert(data) else "ignored"] += 1


@contextlib.contextmanager
def consumer_for(
    mock: MeridianV3Mock,
    store: Store | None = None,
    pace: Callable[[dict], Awaitable[None]] | None = None,
) -> Iterator[Consumer]:
    """A consumer listening and registered with ``mock``."""
    state = Consumer(store or Store(), pace=pace)
    with BackgroundServer(state.app()) as server, client(mock) as http:
        answer = http.post("/v3/webhooks", json={"url": server.base_url + "/hook"})
        assert answer.status_code == 200, answer.text
        state.secret = answer.json()["secret"]
        yield state


@dataclass
class Walker:
    """Walks ``GET /v3/payments`` as the docs say, unless told otherwise.

    ``after_error``/``after_drop``: ``same`` (the documented resume) or ``restart``;
    ``wait``: honour ``Retry-After``; ``rule`` for a 304 whose generation differs:
    ``obey`` (refetch once, unconditionally), ``loop`` (repeat the conditional request)
    or ``ignore`` (keep the stale copy as current).
    """

    http: httpx.Client
    store: Store = field(default_factory=Store)
    after_error: str = "same"
    after_drop: str = "same"
    wait: bool = True
    rule: str = "obey"
    etags: dict[int, str] = field(default_factory=dict)
    next_cursors: dict[int, str | None] = field(default_factory=dict)
    generation: str | None = None
    pages: list[tuple[int, int]] = field(default_factory=list)
    """(tick at which the page's 200 arrived, page number), in arrival order."""
    requests: int = 0

    def walk(self, conditional: bool = False) -> int:
        """One walk to ``next_cursor: null``; the pages answered 200."""
        cursor, page, served, repeats = None, 1, 0, 0
        while self.requests < MAX_REQUESTS:
            self.requests += 1
            headers = (
                {"If-None-Match": self.etags[page]} if conditional and page in self.etags else {}
            )
            try:
                answer = self.http.get(
                    "/v3/payments", params={"cursor": cursor} if cursor else {}, headers=headers
                )
            except httpx.TransportError:
                cursor, page = (cursor, page) if self.after_drop == "same" else (None, 1)
                continue
            if answer.status_code == 500:
                if self.wait:
                    time.sleep(float(answer.headers["retry-after"]))
                cursor, page = (cursor, page) if self.after_error == "same" else (None, 1)
                continue
            if answer.status_code == 410:
                cursor, page = None, 1
                continue
            if answer.status_code == 304:
                if answer.headers["x-collection-generation"] != self.generation:
                    if self.rule == "obey":
                        del self.etags[page]
                        continue
                    if self.rule == "loop" and (repeats := repeats + 1) <= 5:
                        continue
                cursor, page, repeats = self.next_cursors[page], page + 1, 0
            else:
                assert answer.status_code == 200, answer.text
                body = answer.json()
                self.pages.append((next(TICKS), page))
                served += 1
                for row in body["data"]:
                    self.store.upsert(row)
                self.etags[page] = answer.headers["etag"]
                self.generation = answer.headers["x-collection-generation"]
                self.next_cursors[page] = cursor = body["next_cursor"]
                page += 1
            if cursor is None:
                return served
        raise AssertionError(f"the walk did not end within {MAX_REQUESTS} requests")
