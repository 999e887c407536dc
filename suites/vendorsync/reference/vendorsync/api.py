"""The HTTP server: the JSON API of the spec's section 6 and the three static files.

Every answer, error or not, is JSON except the page's own files; that includes the
errors `http.server` would otherwise write as HTML (a malformed request line, for one),
which is why `send_error` is overridden.
"""

from __future__ import annotations

import json
import re
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from vendorsync.meridian import MeridianClient, VendorError
from vendorsync.store import Store
from vendorsync.times import now_utc

DEFAULT_LIMIT = 25
MAX_LIMIT = 100
WHOLE_NUMBER = re.compile(r"[0-9]+", re.ASCII)
WEB = Path(__file__).parent / "web"
STATIC_TYPES = {
    "index.html": "text/html; charset=utf-8",
    "styles.css": "text/css; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
}
STATIC_PATHS = {"/": "index.html", "/index.html": "index.html"} | {
    f"/{name}": name for name in STATIC_TYPES
}


class BadRequest(ValueError):
    """A query parameter the spec says to refuse."""


class App:
    """What the handlers share: the store, the vendor client, and the sync lock."""

    def __init__(self, store: Store, client: MeridianClient) -> None:
        self.store = store
        self.client = client
        self._sync_lock = threading.Lock()
        """One sync at a time: a second request waits, then syncs (cheaply, by ETag)."""
        self.static = {name: (WEB / name).read_bytes() for name in STATIC_TYPES}

    def health(self) -> dict:
        return {"status": "ok", "payments": self.store.count(), "last_sync": self.store.last_sync()}

    def payments(self, query: dict[str, list[str]]) -> dict:
        limit = min(_whole(query, "limit", DEFAULT_LIMIT), MAX_LIMIT)
        if limit == 0:
            raise BadRequest("limit")
        offset = _whole(query, "offset", 0)
        # The page's status filter (spec §7). Not a parameter of §6.3, so absent or empty
        # it changes nothing; given, ``total`` counts the filtered rows (the pager's need).
        status = query.get("status", [""])[0] or None
        rows, total = self.store.page(limit, offset, status)
        return {"data": rows, "total": total, "limit": limit, "offset": offset}

    def summary(self) -> dict:
        return self.store.summary()

    def sync(self) -> dict:
        with self._sync_lock:
            payments = self.client.fetch_all_payments()
            inserted = self.store.upsert_many(payments)
            self.store.set_last_sync(now_utc())
            return {"fetched": len(payments), "inserted": inserted, "total": self.store.count()}


def _whole(query: dict[str, list[str]], name: str, default: int) -> int:
    """The parameter as a whole number, ``default`` when absent, `BadRequest` otherwise."""
    values = query.get(name)
    if values is None:
        return default
    if not WHOLE_NUMBER.fullmatch(values[0]):
        raise BadRequest(name)
    return int(values[0])


ROUTES = {
    "/api/health": ("GET", lambda app, _query: app.health()),
    "/api/payments": ("GET", lambda app, query: app.payments(query)),
    "/api/summary": ("GET", lambda app, _query: app.summary()),
    "/api/sync": ("POST", lambda app, _query: app.sync()),
}


class Handler(BaseHTTPRequestHandler):
    """Routes one request; the `App` is the server's ``app`` attribute."""

    protocol_version = "HTTP/1.1"
    server: Server

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_HEAD(self) -> None:
        self._dispatch("HEAD")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def do_PUT(self) -> None:
        self._dispatch("PUT")

    def do_PATCH(self) -> None:
        self._dispatch("PATCH")

    def do_DELETE(self) -> None:
        self._dispatch("DELETE")

    def _dispatch(self, method: str) -> None:
        self._drain()
        parts = urlsplit(self.path)
        query = parse_qs(parts.query, keep_blank_values=True)
        app = self.server.app
        if parts.path in STATIC_PATHS:
            if method not in ("GET", "HEAD"):
                return self._json(405, {"error": "method_not_allowed"}, allow="GET, HEAD")
            name = STATIC_PATHS[parts.path]
            return self._send(200, app.static[name], STATIC_TYPES[name])
        route = ROUTES.get(parts.path)
        if route is None:
            return self._json(404, {"error": "not_found"})
        allowed, handle = route
        if method != allowed and not (method == "HEAD" and allowed == "GET"):
            return self._json(405, {"error": "method_not_allowed"}, allow=allowed)
        try:
            body = handle(app, query)
        except BadRequest:
            return self._json(400, {"error": "bad_request"})
        except VendorError as exc:
            print(f"vendorsync: sync failed: {exc}", file=sys.stderr, flush=True)
            return self._json(502, {"error": "vendor_unavailable"})
        except Exception as exc:  # the contract is a JSON 500, never a dropped connection
            print(f"vendorsync: {method} {parts.path} failed: {exc!r}", file=sys.stderr, flush=True)
            return self._json(500, {"error": "internal_error"})
        return self._json(200, body)

    def _drain(self) -> None:
        """Read a request body nobody uses, so the connection stays in step."""
        length = self.headers.get("Content-Length")
        if length and length.isdigit():
            self.rfile.read(int(length))

    def _json(self, status: int, body: dict, allow: str | None = None) -> None:
        extra = {"Allow": allow} if allow else {}
        data = json.dumps(body).encode()
        self._send(status, data, "application/json", extra)

    def _send(
        self, status: int, data: bytes, content_type: str, extra: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """`http.server`'s own errors (bad request line, unknown method) as JSON too."""
        self.close_connection = True
        try:
            error = HTTPStatus(code).phrase.lower().replace(" ", "_")
        except ValueError:
            error = "error"
        self._json(code, {"error": error})

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the harness keeps stdout for boot failures, not an access log."""


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, app: App, host: str, port: int) -> None:
        self.app = app
        super().__init__((host, port), Handler)


def make_server(app: App, host: str, port: int) -> Server:
    """A bound, listening server (call ``serve_forever`` to answer)."""
    return Server(app, host, port)
