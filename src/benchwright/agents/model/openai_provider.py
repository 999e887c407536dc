"""The OpenAI Chat Completions wire, through the official ``openai`` SDK.

The same wire serves LM Studio, Ollama, vLLM, llama.cpp's server, OpenRouter and most
hosted open-model APIs, so this one provider covers them. It makes exactly one HTTP
request per `complete` (the SDK's own retries are off: `retry` is the one place that
decides about trying again) and translates what went wrong into the two faults the
loop knows: `ModelFault` (worth retrying) and `ModelRefused` (the trial ends as INFRA,
with the endpoint's own words), sorted by `faults.from_sdk_error` as every provider's are.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import openai

from benchwright.agents.model.config import public_url
from benchwright.agents.model.faults import from_sdk_error
from benchwright.agents.model.wire import (
    Message,
    ModelFault,
    Reply,
    ToolCall,
    ToolSpec,
    Usage,
)

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
        except openai.OpenAIError as exc:
            raise from_sdk_error(exc, openai, self.endpoint) from None
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
