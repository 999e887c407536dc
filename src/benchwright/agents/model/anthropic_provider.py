"""The Anthropic Messages API as a `Provider`, through the official ``anthropic`` SDK.

The Messages API differs from Chat Completions in ways the loop must never see: the
system prompt is a parameter, not a turn; a tool call is a ``tool_use`` block of the
assistant's content and its result a ``tool_result`` block of the *next user turn* (so
the results of one turn's several calls travel together in one user message, and a
user note after them joins that same turn: the API wants user and assistant turns to
alternate); ``max_tokens`` is required. This module translates the neutral `Message`
history both ways and nothing else: one SDK call per `complete`, the SDK's own retries
off (`benchwright.agents.model.retry` owns retrying, so attempts are counted once).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

import anthropic

from benchwright.agents.model.config import public_url
from benchwright.agents.model.faults import from_sdk_error
from benchwright.agents.model.wire import (
    Message,
    ModelRefused,
    Reply,
    ToolCall,
    ToolSpec,
    Usage,
)

DEFAULT_BASE_URL = "https://api.anthropic.com"
DEFAULT_MAX_TOKENS = 4096
"""Output tokens per call unless ``params["max_tokens"]`` says otherwise: the API
requires a value, and 4096 is within every Claude model's output limit (the oldest,
Claude 3 Haiku, stops at 4096)."""
OWN_FIELDS = frozenset({"model", "messages", "system", "tools", "stream"})
"""Request fields the provider sets itself: a parameter may not replace them (``stream``
would turn the answer into events this provider does not read)."""
EMPTY_TURN = "(no text)"
"""Sent for an assistant turn that had neither text nor tool calls: the API refuses
empty content, and dropping the turn would break the alternation of roles."""


class AnthropicProvider:
    """One Anthropic Messages endpoint.

    Args (in the order every provider class takes them, ``Class(base_url, api_key,
    model)``):
        base_url: the endpoint without ``/v1/messages`` (the SDK appends it), e.g.
            `DEFAULT_BASE_URL`.
        api_key: held by the SDK client only, never recorded (``endpoint`` is the URL
            alone); None: calls are refused (the Messages API always wants a key), so
            the caller alone decides where keys come from.
        model: the model id asked for (``claude-sonnet-4-5``); the reply says which
            answered.
    """

    def __init__(self, base_url: str, api_key: str | None, model: str) -> None:
        self.model = model
        self.endpoint = public_url(base_url.rstrip("/"))
        self._client = (
            anthropic.Anthropic(base_url=base_url, api_key=api_key, max_retries=0)
            if api_key
            else None
        )

    def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec] | None,
        params: Mapping[str, Any],
        timeout_s: float,
    ) -> Reply:
        if self._client is None:
            raise ModelRefused(self.endpoint, "no API key (set ANTHROPIC_API_KEY)")
        if clashes := sorted(OWN_FIELDS & set(params)):
            raise ModelRefused(self.endpoint, f"not a model parameter: {', '.join(clashes)}")
        system, turns = to_anthropic(messages)
        extra = dict(params)
        max_tokens = int(extra.pop("max_tokens", DEFAULT_MAX_TOKENS))
        request: dict[str, Any] = {"model": self.model, "max_tokens": max_tokens,
                                   "messages": turns}  # fmt: skip
        if system:
            request["system"] = system
        if tools is not None:
            request["tools"] = [
                {"name": t.name, "description": t.description, "input_schema": dict(t.parameters)}
                for t in tools
            ]
        started = time.monotonic()
        try:
            # Other parameters (temperature, top_p, stop_sequences …) travel in the body
            # as given: the endpoint judges them, whatever this SDK version's signature.
            answer = self._client.messages.create(**request, extra_body=extra, timeout=timeout_s)
        except anthropic.APIError as exc:
            raise from_sdk_error(exc, anthropic, self.endpoint) from None
        return _reply(answer, self.endpoint, time.monotonic() - started)


def to_anthropic(messages: Sequence[Message]) -> tuple[str, list[dict[str, Any]]]:
    """The system prompt and the turns of a neutral history, in the Messages API's shape.

    System messages are joined into the system prompt; tool results and user text that
    follow one another merge into one user turn (results first, as the API requires).
    """
    system = "\n\n".join(m.content for m in messages if m.role == "system")
    turns: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "system":
            continue
        role = "assistant" if message.role == "assistant" else "user"
        blocks = _blocks(message)
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"].extend(blocks)
        else:
            turns.append({"role": role, "content": blocks})
    for turn in turns:  # stable: results keep their order, and so does the text
        turn["content"].sort(key=lambda block: block["type"] != "tool_result")
    return system, turns


def _blocks(message: Message) -> list[dict[str, Any]]:
    if message.role == "tool":
        return [{"type": "tool_result", "tool_use_id": message.tool_call_id or "",
                 "content": message.content}]  # fmt: skip
    blocks: list[dict[str, Any]] = []
    if message.content:
        blocks.append({"type": "text", "text": message.content})
    for call in message.tool_calls:
        blocks.append({"type": "tool_use", "id": call.id, "name": call.name,
                       "input": _input_object(call.arguments)})  # fmt: skip
    return blocks or [{"type": "text", "text": EMPTY_TURN}]


def _input_object(arguments: str) -> dict[str, Any]:
    """A call's input as the object the API requires. A malformed call (answered to the
    model as an error by the loop) is sent back with an empty input: its text is in the
    error the model was shown."""
    try:
        value = json.loads(arguments or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _reply(answer: Any, endpoint: str, latency_s: float) -> Reply:
    texts: list[str] = []
    calls: list[ToolCall] = []
    for block in answer.content:
        if block.type == "text":
            texts.append(block.text)
        elif block.type == "tool_use":
            raw = block.input
            arguments = raw if isinstance(raw, str) else json.dumps(raw)
            calls.append(ToolCall(block.id, block.name, arguments))
    usage = answer.usage
    # Cached prompt tokens are reported apart from input_tokens; all of them were input.
    input_tokens = (
        usage.input_tokens
        + (getattr(usage, "cache_creation_input_tokens", 0) or 0)
        + (getattr(usage, "cache_read_input_tokens", 0) or 0)
    )
    return Reply(
        text="".join(texts),
        tool_calls=tuple(calls),
        usage=Usage(input_tokens, usage.output_tokens),
        model=answer.model,
        finish=answer.stop_reason or "",
        endpoint=endpoint,
        latency_s=latency_s,
    )
