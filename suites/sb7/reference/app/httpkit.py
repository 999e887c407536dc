"""The HTTP layer both services share: routing, the one error envelope, JSON replies.

Every answer is JSON except the static files and the event stream, including the errors
`http.server` would otherwise write as HTML (a malformed request line, for one): that is
why `send_error` is overridden. The server is threaded, so a slow request (a sync waiting
on the vendor, an open event stream) never parks the others.
"""

from __future__ import annotations

import json
import re
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

JSON_TYPE = "application/json"
INTEGER = re.compile(r"-?[0-9]+", re.ASCII)


class ApiError(Exception):
    """An error answer: status, envelope code, a human sentence, optional field errors."""

    def __init__(
        self, status: int, code: str, message: str, field_errors: list[dict] | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.field_errors = field_errors

    def envelope(self) -> dict:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.field_errors is not None:
            error["field_errors"] = self.field_errors
        return {"error": error}


def invalid(field_errors: list[dict], message: str = "The request is invalid.") -> ApiError:
    """A validation failure: 400 ``bad_request`` with its ``field_errors``."""
    return ApiError(400, "bad_request", message, field_errors)


def not_found(message: str = "No such resource.") -> ApiError:
    return ApiError(404, "not_found", message)


@dataclass
class Reply:
    """What a route answers with, before it is written."""

    body: bytes
    status: int = 200
    content_type: str = JSON_TYPE
    headers: dict[str, str] = field(default_factory=dict)


def json_reply(payload: object, status: int = 200) -> Reply:
    return Reply(json.dumps(payload, separators=(",", ":")).encode(), status)


@dataclass
class Request:
    """One parsed request as a route sees it."""

    handler: JsonHandler
    method: str
    path: str
    query: dict[str, list[str]]
    params: tuple[str, ...]
    body: bytes

    def header(self, name: str) -> str | None:
        return self.handler.headers.get(name)

    def json(self) -> dict:
        """The body as a JSON object, or a 400 envelope."""
        try:
            value = json.loads(self.body or b"null")
        except ValueError:
            raise ApiError(400, "bad_request", "The body is not valid JSON.") from None
        if not isinstance(value, dict):
            raise ApiError(400, "bad_request", "The body must be a JSON object.")
        return value

    def whole(self, name: str, default: int, *, positive: bool = False) -> int:
        """Query parameter ``name`` as a whole number (``default`` when absent).

        A non-integer is ``not_an_integer``; a negative one (or zero where ``positive``)
        is ``not_positive``: both 400 with a field error naming the parameter.
        """
        values = self.query.get(name)
        if not values:
            return default
        text = values[0].strip()
        if not INTEGER.fullmatch(text):
            raise invalid([{"path": name, "code": "not_an_integer"}], f"{name} must be an integer.")
        value = int(text)
        if value < 0 or (positive and value == 0):
            raise invalid([{"path": name, "code": "not_positive"}], f"{name} is out of range.")
        return value

    def choice(self, name: str, allowed: tuple[str, ...]) -> str | None:
        """Query parameter ``name`` if given (empty counts as absent), one of ``allowed``."""
        value = (self.query.get(name) or [""])[0]
        if not value:
            return None
        if value not in allowed:
            raise invalid([{"path": name, "code": "unsupported"}], f"Unknown {name} {value!r}.")
        return value


Handler = Callable[[Request], "Reply | dict | None"]
"""A route: a `Reply`, a dict (a 200 JSON answer), or None when it wrote the answer itself."""


@dataclass(frozen=True)
class Route:
    method: str
    pattern: re.Pattern[str]
    handler: Handler


def route(method: str, pattern: str, handler: Handler) -> Route:
    """A route for ``method`` on paths matching ``pattern`` in full."""
    return Route(method, re.compile(pattern), handler)


class JsonHandler(BaseHTTPRequestHandler):
    """Dispatches to the server's routes; every failure becomes the envelope."""

    protocol_version = "HTTP/1.1"
    server: JsonServer

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def do_PUT(self) -> None:
        self._dispatch("PUT")

    def do_PATCH(self) -> None:
        self._dispatch("PATCH")

    def do_DELETE(self) -> None:
        self._dispatch("DELETE")

    def _dispatch(self, method: str) -> None:
        body = self._read_body()
        parts = urlsplit(self.path)
        try:
            reply = self._route(method, parts.path, parse_qs(parts.query), body)
        except ApiError as err:
            reply = json_reply(err.envelope(), err.status)
        except Exception:  # a bug must still answer with the envelope, and be visible
            traceback.print_exc(file=sys.stderr)
            reply = json_reply(
                {"error": {"code": "internal_error", "message": "The server failed."}}, 500
            )
        if reply is not None:
            self.write(reply)

    def _route(
        self, method: str, path: str, query: dict[str, list[str]], body: bytes
    ) -> Reply | None:
        allowed = False
        for candidate in self.server.routes:
            match = candidate.pattern.fullmatch(path)
            if match is None:
                continue
            if candidate.method != method:
                allowed = True
                continue
            request = Request(self, method, path, query, match.groups(), body)
            answer = candidate.handler(request)
            return json_reply(answer) if isinstance(answer, dict) else answer
        if allowed:
            raise ApiError(405, "bad_request", f"{method} is not allowed on {path}.")
        raise not_found(f"No route for {path}.")

    def _read_body(self) -> bytes:
        length = self.headers.get("Content-Length")
        if not length or not length.isdigit():
            return b""
        return self.rfile.read(int(length))

    def write(self, reply: Reply) -> None:
        """Send ``reply`` in full (headers, length, body)."""
        try:
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(reply.body)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(reply.body)
        except OSError:
            self.close_connection = True  # the client went away; nothing left to tell it

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """`http.server`'s own errors (bad request line, oversized header) as the envelope."""
        self.close_connection = True
        status = HTTPStatus(code)
        code_name = "not_found" if code == 404 else "bad_request"
        self.write(json_reply({"error": {"code": code_name, "message": status.phrase}}, code))

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: a request log per read would drown the errors that matter."""


class JsonServer(ThreadingHTTPServer):
    """A threaded server on 127.0.0.1 with a route table."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, port: int, routes: list[Route]) -> None:
        self.routes = routes
        super().__init__(("127.0.0.1", port), JsonHandler)
