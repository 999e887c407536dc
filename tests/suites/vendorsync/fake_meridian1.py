"""A small fake of the Meridian **v1** vendor for the vendorsync reference tests.

TEMPORARY: it stands in until the Meridian v1 profile of the benchwright mock (being
built on the ``meridian1`` branch) is merged; then these tests start that mock and
this file goes. It follows the public v1 facts (``docs/facts/meridian-v1.md`` there):
247 EUR payments in a scrambled order with mixed UTC offsets, cursor paging (limit 25 by
default, at most 100, a short page at offset 25), per-page ETags with 304, a 429 with
``Retry-After`` in seconds, a 410 on a cursor, then a 429 with an HTTP-date, and creates
keyed by ``Idempotency-Key``. Every request is recorded (with its arrival time) so the
tests can read what the client sent.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import threading
import time
from datetime import UTC, datetime, timedelta, timezone
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

TOTAL = 247
SUM_MINOR = 4_409_197
FIRST = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
OFFSETS = (
    timedelta(hours=2),
    timedelta(hours=-5),
    timedelta(0),
    timedelta(hours=9),
    timedelta(hours=-3),
)
SHORT_OFFSET, SHORT_TAKE = 25, 5


def instant(i: int) -> datetime:
    return FIRST + timedelta(minutes=37 * ((19 * i) % TOTAL))


def make_rows() -> list[dict]:
    rows = []
    for i in range(TOTAL):
        local = instant(i).astimezone(timezone(OFFSETS[i % 5]))
        text = local.isoformat().replace("+00:00", "Z")
        rows.append(
            {
                "id": f"pay_{i:04d}",
                "amount_minor": 1000 + 137 * i,
                "currency": "EUR",
                "created_at": text,
                "status": "settled",
            }
        )
    return rows


def true_order() -> list[str]:
    """The ids oldest first, by instant (the fixture's instants are distinct)."""
    return [f"pay_{i:04d}" for i in sorted(range(TOTAL), key=instant)]


class FakeMeridian1:
    """Start with `start()`, stop with `stop()`; ``trace`` holds one dict per request."""

    def __init__(self, retry_secs: int = 1, create_stalls: int = 0) -> None:
        self.rows = make_rows()
        self.generation = 0
        self.retry_secs = retry_secs
        self.create_stalls = create_stalls
        self.trace: list[dict] = []
        self.keys: dict[str, str] = {}
        self.lock = threading.Lock()
        self.rearm()
        self._server: ThreadingHTTPServer | None = None

    def rearm(self) -> None:
        """Arm the one-shot traps again and restart the request count."""
        with self.lock:
            self.nth = 0
            self.expired = False
            self.date_armed = False

    def mutate(self) -> int:
        """Refund every tenth payment (from the fourth); the ETags all change."""
        with self.lock:
            changed = [row for i, row in enumerate(self.rows) if i % 10 == 3]
            for row in changed:
                row["status"] = "refunded"
            self.generation += 1
        return len(changed)

    def start(self) -> str:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                fake._handle(self, "GET")

            def do_POST(self) -> None:
                fake._handle(self, "POST")

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def lists(self, since: int = 0) -> list[dict]:
        """The list requests recorded from index ``since`` on."""
        return [
            e for e in self.trace[since:] if e["method"] == "GET" and e["path"] == "/v1/payments"
        ]

    # -- requests -----------------------------------------------------------------------

    def _handle(self, h: BaseHTTPRequestHandler, method: str) -> None:
        parts = urlsplit(h.path)
        query = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        length = int(h.headers.get("Content-Length") or 0)
        body = h.rfile.read(length) if length else b""
        line = {
            "t": time.time(),
            "method": method,
            "path": parts.path,
            "query": query,
            "if_none_match": h.headers.get("If-None-Match"),
            "idempotency_key": h.headers.get("Idempotency-Key"),
            "authorization": h.headers.get("Authorization"),
        }
        with self.lock:
            self.trace.append(line)
        if method == "GET" and parts.path == "/v1/payments":
            status, payload, headers = self._list(query, line)
        elif method == "POST" and parts.path == "/v1/payments":
            status, payload, headers = self._create(body, line)
        else:
            status, payload, headers = 404, {"error": "not_found"}, {}
        line["status"] = status
        if line.pop("stall", False):  # created, but answered too late for the client
            time.sleep(1.0)
        data = b"" if status == 304 else json.dumps(payload).encode()
        h.send_response(status)
        for name, value in headers.items():
            h.send_header(name, value)
        if status != 304:
            h.send_header("Content-Type", "application/json")
            h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        with contextlib.suppress(BrokenPipeError):  # a client that timed out has gone
            h.wfile.write(data)

    def _list(self, query: dict, line: dict) -> tuple[int, dict, dict]:
        cursor = query.get("cursor")
        with self.lock:
            self.nth += 1
            if self.nth == 2:
                line["retry_after"] = str(self.retry_secs)
                return 429, {"error": "rate_limited"}, {"Retry-After": str(self.retry_secs)}
            if self.nth == 3 and cursor and not self.expired:
                self.expired = self.date_armed = True
                line["dead_cursor"] = cursor
                return 410, {"error": "cursor_expired"}, {}
            if self.date_armed:
                self.date_armed = False
                moment = math.ceil(time.time() + self.retry_secs)
                line["retry_at"] = moment
                return (
                    429,
                    {"error": "rate_limited"},
                    {"Retry-After": formatdate(moment, usegmt=True)},
                )
            try:
                limit = max(1, min(100, int(query.get("limit", 25))))
            except ValueError:
                limit = 25
            try:
                offset = json.loads(bytes.fromhex(cursor).decode())["o"] if cursor else 0
            except (ValueError, KeyError):
                return 400, {"error": "bad_cursor"}, {}
            take = min(limit, TOTAL - offset, SHORT_TAKE if offset == SHORT_OFFSET else limit)
            tag = hashlib.sha256(f"{self.generation}-{offset}-{take}".encode()).hexdigest()[:16]
            etag = f'"{tag}"'
            if line["if_none_match"] == etag:
                return 304, {}, {"ETag": etag}
            end = offset + take
            following = json.dumps({"o": end}).encode().hex() if end < TOTAL else None
            page = [dict(row) for row in self.rows[offset:end]]
        return 200, {"data": page, "next_cursor": following, "total": TOTAL}, {"ETag": etag}

    def _create(self, body: bytes, line: dict) -> tuple[int, dict, dict]:
        key = line["idempotency_key"]
        if not key:
            return 400, {"error": "idempotency_key_required"}, {}
        payload = json.loads(body or b"{}")
        with self.lock:
            if key in self.keys:
                return 409, {"error": "duplicate", "payment_id": self.keys[key]}, {}
            new_id = f"pay_new_{len(self.keys):04d}"
            self.keys[key] = new_id
            line["stall"] = self.create_stalls > 0
            self.create_stalls -= line["stall"]
        return (
            201,
            {
                "id": new_id,
                "amount_minor": payload.get("amount_minor"),
                "currency": payload.get("currency", "EUR"),
                "status": "pending",
                "created_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            },
            {},
        )
