"""The OpenAI Chat Completions wire, through the official ``openai`` SDK.

The same wire serves LM Studio, Ollama, vLLM, llama.cpp's server, OpenRouter and most
hosted open-model APIs, so this one provider covers them. It makes exactly one HTTP
request per `complete` (the SDK's own retries are off: `retry` is the one place that
decides about trying again) and translates what went wrong into the two faults the
loop knows: `ModelFault` (worth retrying) and `ModelRefused` (the trial ends as INFRA,
with the endpoint's own words).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Mapping, Sequence
from email.utils import parsedate_to_datetime
from typing import Any

import openai

from benchwright.agents.model.config import public_url
from benchwright.agents.model.wire import (
    Message,
    ModelFault,
    ModelRefused,
    Reply,
    ToolCall,
    ToolSpec,
    Usage,
)

RETRYABLE = frozenset({408, 409, 429})
"""Besides every 5xx: a request timeout, a conflict (a busy server), a rate limit."""
MESSAGE_CHARS = 500
"""Of an endpoint's error message kept in a fault (a proxy may answer a whole HTML page)."""
NO_KEY = "no-key"
"""Sent as the bearer token to a key-less local server (the SDK insists on one)."""


class OpenAIProvider:
    """One Chat Completions endpoint: ``endpoint`` is its base URL (``…/v1``)."""

    def __init__(self, endpoint: str, api_key: str | None, model: str) -> None:
        self.endpoint = public_url(endpoint)
        self.model = model
        self._client = openai.OpenAI(base_url=endpoint, api_key=api_key or NO_KEY, max_retries=0)

    def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec] | None,
        params: Mapping[str, Any],
        timeout_s: float,
    ) -> Reply:
        body: dict[str, Any] = {**params, "model": self.model,
                                "messages": [_wire_message(m) for m in messages]}  # fmt: skip
        if tools is not None:
            body["tools"] = [_wire_tool(t) for t in tools]
        started = time.perf_counter()
        try:
            response = self._client.chat.completions.create(**body, timeout=timeout_s)
        except openai.APIStatusError as exc:
            raise self._status_fault(exc) from None
        except openai.APITimeoutError:
            raise ModelFault(self.endpoint, f"no answer within {timeout_s:g}s") from None
        except openai.APIConnectionError as exc:
            raise self._connection_fault(exc) from None
        latency = time.perf_counter() - started
        if not response.choices:
            raise ModelFault(self.endpoint, "the reply holds no choices")
        choice = response.choices[0]
        calls = tuple(
            ToolCall(call.id, call.function.name, call.function.arguments or "")
            for call in choice.message.tool_calls or ()
            if call.type == "function"
        )
        usage = response.usage
        return Reply(
            text=choice.message.content or "",
            tool_calls=calls,
            usage=Usage(usage.prompt_tokens or 0, usage.completion_tokens or 0)
            if usage
            else Usage(),
            model=response.model or self.model,
            finish=choice.finish_reason or "",
            endpoint=self.endpoint,
            latency_s=latency,
        )

    def _status_fault(self, exc: openai.APIStatusError) -> ModelFault | ModelRefused:
        status = exc.status_code
        message = _message(exc)
        if status in RETRYABLE or status >= 500:
            wait = retry_after_s(exc.response.headers.get("retry-after"))
            return ModelFault(self.endpoint, message, status, wait)
        return ModelRefused(self.endpoint, message, status)

    def _connection_fault(self, exc: openai.APIConnectionError) -> ModelFault | ModelRefused:
        """Refused or unreachable: nothing listens there (INFRA); cut off mid-call: retry.

        The SDK wraps its HTTP library's error (whose module name varies by SDK version),
        so the connect phase is recognised by the chain of causes, not by one class."""
        chain = list(_causes(exc))
        connect = [e for e in chain if type(e).__name__ == "ConnectError"
                   or isinstance(e, ConnectionRefusedError | socket.gaierror)]  # fmt: skip
        if connect:
            return ModelRefused(self.endpoint, f"cannot connect: {connect[0]}")
        return ModelFault(self.endpoint, f"connection lost: {chain[-1] if chain else exc}")


def _causes(exc: BaseException) -> list[BaseException]:
    found: list[BaseException] = []
    cause = exc.__cause__ or exc.__context__
    while cause is not None and cause not in found:
        found.append(cause)
        cause = cause.__cause__ or cause.__context__
    return found


def _wire_message(message: Message) -> dict[str, Any]:
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    doc: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.tool_calls:
        doc["content"] = message.content or None
        doc["tool_calls"] = [
            {"id": c.id, "type": "function",
             "function": {"name": c.name, "arguments": c.arguments}}
            for c in message.tool_calls
        ]  # fmt: skip
    return doc


def _wire_tool(tool: ToolSpec) -> dict[str, Any]:
    return {"type": "function", "function": {"name": tool.name, "description": tool.description,
                                             "parameters": dict(tool.parameters)}}  # fmt: skip


def _message(exc: openai.APIStatusError) -> str:
    """The endpoint's own message: ``error.message`` of its JSON, else its text."""
    body = exc.body
    if isinstance(body, Mapping):
        error = body.get("error", body)
        text = error.get("message") if isinstance(error, Mapping) else error
        if isinstance(text, str) and text:
            return text[:MESSAGE_CHARS]
    return (exc.response.text or exc.message)[:MESSAGE_CHARS]


def retry_after_s(header: str | None) -> float | None:
    """``Retry-After`` in seconds: a number of seconds or an HTTP date; None if absent or
    unreadable (the retry wrapper bounds what it honours)."""
    if not header:
        return None
    try:
        return max(0.0, float(header))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(header).timestamp() - time.time())
    except (TypeError, ValueError):
        return None
