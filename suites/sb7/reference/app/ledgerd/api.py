"""ledgerd's routes: the JSON API, the page's four files, the stream and the webhook."""

from __future__ import annotations

import sqlite3
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from app.httpkit import ApiError, Reply, Request, Route, json_reply, not_found, route
from app.ledgerd import queries
from app.ledgerd.ledger import Ledger
from app.ledgerd.meridian import VendorUnavailable
from app.ledgerd.notes import write_note
from app.ledgerd.sync import SyncFailed

if TYPE_CHECKING:
    from app.ledgerd.service import Ledgerd

WEB = Path(__file__).resolve().parent.parent / "web"
STATIC = {
    "index.html": "text/html; charset=utf-8",
    "styles.css": "text/css; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "viz.js": "text/javascript; charset=utf-8",
}
DEFAULT_LIMIT, MAX_LIMIT = 50, 200
EVENTS_DEFAULT_LIMIT, EVENTS_MAX_LIMIT = 100, 1000
PROXY_TIMEOUT_S = 3.0
T = TypeVar("T")


class PerGeneration(Generic[T]):
    """An answer computed at most once per `Ledger.generation`: the whole-collection
    reads (the summary's money, the viz columns) are recomputed only after a commit
    changed what they read, and each is one snapshot, so a cached answer is never half a
    transaction."""

    def __init__(self, ledger: Ledger, compute: Callable[[sqlite3.Connection], T]) -> None:
        self.ledger, self.compute = ledger, compute
        self._lock = threading.Lock()
        self._cached: tuple[int, T] | None = None

    def get(self) -> T:
        with self._lock:
            generation = self.ledger.generation
            if self._cached is None or self._cached[0] != generation:
                with self.ledger.db.read() as conn:
                    self._cached = (generation, self.compute(conn))
            return self._cached[1]


class Api:
    """The handlers, over one running `Ledgerd`."""

    def __init__(self, service: Ledgerd) -> None:
        self.service = service
        self.ledger = service.ledger
        self._viz = PerGeneration(
            self.ledger, lambda conn: json_reply(queries.viz_records(conn)).body
        )
        self._money = PerGeneration(self.ledger, queries.money)

    def static(self, request: Request) -> Reply:
        name = request.params[0] or "index.html"
        return Reply((WEB / name).read_bytes(), content_type=STATIC[name])

    def health(self, _request: Request) -> dict:
        with self.ledger.db.read() as conn:
            count, last = queries.payment_count(conn), queries.last_sync(conn)
        return {
            "status": "ok",
            "payments": count,
            "last_sync": last,
            "webhook": self.service.webhooks.snapshot(),
        }

    def payments(self, request: Request) -> dict:
        limit = min(request.whole("limit", DEFAULT_LIMIT, positive=True), MAX_LIMIT)
        offset = request.whole("offset", 0)
        status = request.choice("status", queries.STATUSES)
        currency = request.choice("currency", queries.CURRENCIES)
        sort = request.choice("sort", tuple(queries.SORTS)) or "created_at"
        with self.ledger.db.read() as conn:
            return queries.payments_page(conn, limit, offset, status, currency, sort)

    def payment(self, request: Request) -> dict:
        with self.ledger.db.read() as conn:
            found = queries.payment(conn, request.params[0])
        if found is None:
            raise not_found("No such payment.")
        return found

    def summary(self, _request: Request) -> dict:
        with self.ledger.db.read() as conn:
            last = queries.last_sync(conn)
        return {**self._money.get(), "last_sync": last}

    def buckets(self, _request: Request) -> dict:
        with self.ledger.db.read() as conn:
            return queries.buckets(conn)

    def viz_records(self, _request: Request) -> Reply:
        return Reply(self._viz.get())

    def sync(self, _request: Request) -> dict:
        try:
            return self.service.syncer.run()
        except (VendorUnavailable, SyncFailed) as err:
            raise ApiError(
                502, "vendor_unavailable", f"Meridian is unavailable ({err}); local data is kept."
            ) from None

    def note(self, request: Request) -> dict:
        return write_note(self.ledger, self.service.vendor, request)

    def events(self, request: Request) -> dict:
        self.service.tokens.caller(request, "maker", "checker", "admin")
        after = request.whole("after", 0)
        limit = min(request.whole("limit", EVENTS_DEFAULT_LIMIT, positive=True), EVENTS_MAX_LIMIT)
        with self.ledger.db.read() as conn:
            return queries.events(conn, after, limit)

    def outbox_status(self, _request: Request) -> dict:
        return self.service.relay.status()

    def notifications(self, request: Request) -> Reply:
        limit = request.whole("limit", DEFAULT_LIMIT, positive=True)
        offset = request.whole("offset", 0)
        url = f"{self.service.notifier_url}/notify/notifications?limit={limit}&offset={offset}"
        try:
            with urllib.request.urlopen(url, timeout=PROXY_TIMEOUT_S) as response:
                return Reply(response.read())
        except (OSError, urllib.error.URLError, ValueError):
            raise ApiError(
                502, "notifier_unreachable", "The notifier is not answering; retrying."
            ) from None

    def stream(self, request: Request) -> None:
        self.service.hub.serve(request.handler)


def routes(service: Ledgerd) -> list[Route]:
    api, drafts = Api(service), service.drafts
    static = "/(|" + "|".join(name.replace(".", r"\.") for name in STATIC) + ")"
    return [
        route("GET", static, api.static),
        route("GET", "/api/health", api.health),
        route("GET", "/api/payments", api.payments),
        route("GET", "/api/payments/([^/]+)", api.payment),
        route("POST", "/api/payments/([^/]+)/note", api.note),
        route("GET", "/api/summary", api.summary),
        route("GET", "/api/buckets", api.buckets),
        route("POST", "/api/sync", api.sync),
        route("POST", "/api/webhooks/meridian", service.webhooks.deliver),
        route("GET", "/api/events", api.events),
        route("GET", "/api/outbox/status", api.outbox_status),
        route("GET", "/api/notifications", api.notifications),
        route("GET", "/api/viz/records", api.viz_records),
        route("GET", "/api/stream", api.stream),
        route("POST", "/api/drafts", drafts.create),
        route("GET", "/api/drafts", drafts.list),
        route("GET", "/api/drafts/([^/]+)", drafts.get),
        route("POST", "/api/drafts/([^/]+)/submit", drafts.submit),
        route("POST", "/api/drafts/([^/]+)/approve", drafts.approve),
        route("POST", "/api/drafts/([^/]+)/reject", drafts.reject),
    ]
