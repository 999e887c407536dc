"""A real HTTP model server for tests: OpenAI Chat Completions and Anthropic Messages.

No model can run on these machines, so the built-in model agent is tested against
this server (the one stand-in docs/agents.md names). It listens on 127.0.0.1, speaks
both wire formats as the official SDKs expect them (``POST /v1/chat/completions``,
``POST /v1/messages``), and answers from a *script*:

- the turn it plays is chosen by the number of assistant messages already in the
  request, so parallel conversations (trials) each walk the script from the start;
- a turn is a dict: ``{"tool": NAME, "args": {...}}`` (one tool call), ``{"tools":
  [{"tool": …, "args": …}, …]}`` (several), ``{"text": "…"}`` (a plain answer, which is
  also how text-mode actions are scripted), ``{"tool": NAME, "raw_arguments": "…"}`` (a
  malformed call), or a callable ``(request_body) -> turn``; past the script's end the
  server answers ``{"text": "done"}``;
- faults come first, from a queue the test fills (`ScriptedModel.fail_next`): an HTTP
  status with an optional ``Retry-After``, or a hang of some seconds (released when the
  server stops).

Every reply carries ``usage`` (input tokens = the request body's bytes // 4, output
tokens = the reply's bytes // 4, at least 1) and the server adds up what it reported,
so a test can assert that the agent's totals are the server's. A request without the
expected key is answered 401 in the provider's own error shape.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Turn = dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]]
MODEL_ID = "scripted-1"


@dataclass
class Fault:
    status: int = 500
    retry_after: str | None = None
    hang_s: float = 0.0
    message: str = "scripted fault"


@dataclass
class ScriptedModel:
    """The server's state; use as a context manager (`start`/`stop`)."""

    script: Sequence[Turn] = ()
    key: str = "sk-test-scripted"
    model: str = MODEL_ID
    requests: list[dict[str, Any]] = field(default_factory=list)
    """Every request: ``{"path", "headers", "body"}`` (body parsed)."""
    input_tokens: int = 0
    output_tokens: int = 0
    """What the server reported in ``usage``, summed over successful replies."""
    faults: list[Fault] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _stopping: threading.Event = field(default_factory=threading.Event)
    _ids: Any = field(default_factory=lambda: itertools.count(1))
    _server: ThreadingHTTPServer | None = None

    def fail_next(self, status: int = 500, retry_after: str | None = None,
                  hang_s: float = 0.0, message: str = "scripted fault") -> None:  # fmt: skip
        """Answer the next request with this fault instead of the script."""
        with self._lock:
            self.faults.append(Fault(status, retry_after, hang_s, message))

    @property
    def port(self) -> int:
        assert self._server is not None
        return self._server.server_address[1]

    @property
    def openai_url(self) -> str:
        """The base URL an OpenAI client takes (``…/v1``)."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def anthropic_url(self) -> str:
        """The base URL an Anthropic client takes (it appends ``/v1/messages``)."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ScriptedModel:
        model = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                model._handle(self)

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def __enter__(self) -> ScriptedModel:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- one request --------------------------------------------------------------

    def _handle(self, http: BaseHTTPRequestHandler) -> None:
        length = int(http.headers.get("content-length") or 0)
        raw = http.rfile.read(length)
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        anthropic = http.path.rstrip("/").endswith("/messages")
        with self._lock:
            self.requests.append({"path": http.path, "headers": dict(http.headers), "body": body})
            fault = self.faults.pop(0) if self.faults else None
        if not http.path.rstrip("/").endswith(("/chat/completions", "/messages")):
            return _send(http, 404, {"error": {"message": f"no route {http.path}"}})
        if not self._authorised(http, anthropic):
            return _send(http, 401, _error(anthropic, "authentication_error",
                                           "invalid api key (scripted)"))  # fmt: skip
        if fault is not None:
            if fault.hang_s:
                self._stopping.wait(fault.hang_s)
                return _send(http, 200, {})  # too late: the client gave up long ago
            headers = {"Retry-After": fault.retry_after} if fault.retry_after else {}
            kind = "rate_limit_error" if fault.status == 429 else "api_error"
            return _send(http, fault.status, _error(anthropic, kind, fault.message), headers)
        turn = self._turn(body, anthropic)
        reply = self._anthropic(turn) if anthropic else self._openai(turn)
        usage_in = max(1, len(raw) // 4)
        usage_out = max(1, len(json.dumps(reply)) // 4)
        if anthropic:
            reply["usage"] = {"input_tokens": usage_in, "output_tokens": usage_out}
        else:
            reply["usage"] = {"prompt_tokens": usage_in, "completion_tokens": usage_out,
                              "total_tokens": usage_in + usage_out}  # fmt: skip
        with self._lock:
            self.input_tokens += usage_in
            self.output_tokens += usage_out
        _send(http, 200, reply)

    def _authorised(self, http: BaseHTTPRequestHandler, anthropic: bool) -> bool:
        bearer = http.headers.get("authorization") == f"Bearer {self.key}"
        if anthropic:  # the Anthropic SDK sends x-api-key or a bearer token, by version
            return bearer or http.headers.get("x-api-key") == self.key
        return bearer

    def _turn(self, body: dict[str, Any], anthropic: bool) -> dict[str, Any]:
        messages = body.get("messages") or []
        played = sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant")
        if played >= len(self.script):
            return {"text": "done"}
        turn = self.script[played]
        return turn(body) if callable(turn) else turn

    def _calls(self, turn: dict[str, Any]) -> list[dict[str, Any]]:
        if "tools" in turn:
            return list(turn["tools"])
        return [turn] if "tool" in turn else []

    def _openai(self, turn: dict[str, Any]) -> dict[str, Any]:
        calls = [
            {"id": f"call_{next(self._ids)}", "type": "function",
             "function": {"name": c["tool"],
                          "arguments": c.get("raw_arguments", json.dumps(c.get("args", {})))}}
            for c in self._calls(turn)
        ]  # fmt: skip
        message: dict[str, Any] = {"role": "assistant", "content": turn.get("text")}
        if calls:
            message["tool_calls"] = calls
        return {
            "id": f"chatcmpl-{next(self._ids)}", "object": "chat.completion", "created": 0,
            "model": self.model,
            "choices": [{"index": 0, "message": message,
                         "finish_reason": "tool_calls" if calls else "stop"}],
        }  # fmt: skip

    def _anthropic(self, turn: dict[str, Any]) -> dict[str, Any]:
        content: list[dict[str, Any]] = []
        if turn.get("text"):
            content.append({"type": "text", "text": turn["text"]})
        for call in self._calls(turn):
            if "raw_arguments" in call:  # Anthropic's input is an object; send a broken one
                tool_input: Any = call["raw_arguments"]
            else:
                tool_input = call.get("args", {})
            content.append({"type": "tool_use", "id": f"toolu_{next(self._ids)}",
                            "name": call["tool"], "input": tool_input})  # fmt: skip
        uses = any(block["type"] == "tool_use" for block in content)
        return {
            "id": f"msg_{next(self._ids)}", "type": "message", "role": "assistant",
            "model": self.model, "content": content,
            "stop_reason": "tool_use" if uses else "end_turn", "stop_sequence": None,
        }  # fmt: skip


def _error(anthropic: bool, kind: str, message: str) -> dict[str, Any]:
    if anthropic:
        return {"type": "error", "error": {"type": kind, "message": message}}
    return {"error": {"message": message, "type": kind, "code": kind}}


def _send(
    http: BaseHTTPRequestHandler, status: int, doc: dict[str, Any],
    headers: dict[str, str] | None = None,
) -> None:  # fmt: skip
    data = json.dumps(doc).encode()
    try:
        http.send_response(status)
        http.send_header("Content-Type", "application/json")
        http.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            http.send_header(name, value)
        http.end_headers()
        http.wfile.write(data)
    except OSError:  # the client hung up (a timeout test)
        pass
