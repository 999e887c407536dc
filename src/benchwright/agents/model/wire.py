"""What the model loop and a provider exchange: messages, tool calls, replies, faults.

The loop (`benchwright.agents.model.loop`) speaks only these types; a provider
(`openai_provider`, `anthropic_provider`) translates them to one wire format through
that vendor's official SDK, and wrappers (`retry`, `fleet`) are providers too. So the
loop, its limits and its records never depend on which API answered.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

Role = Literal["system", "user", "assistant", "tool"]


class BadToolCall(ValueError):
    """A tool call the loop cannot run (arguments not a JSON object, unknown tool): it is
    answered to the model as an error, never raised past the loop."""


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool offered to the model: its name, what it does, its JSON-schema parameters."""

    name: str
    description: str
    parameters: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One call the model asked for; ``arguments`` is the text it sent, unparsed."""

    id: str
    name: str
    arguments: str

    def parsed(self) -> dict[str, Any]:
        """The arguments as an object.

        Raises:
            BadToolCall: they are not a JSON object.
        """
        try:
            value = json.loads(self.arguments or "{}")
        except ValueError as exc:
            raise BadToolCall(f"the arguments of {self.name!r} are not JSON: {exc}") from None
        if not isinstance(value, dict):
            raise BadToolCall(f"the arguments of {self.name!r} must be a JSON object")
        return value


@dataclass(frozen=True, slots=True)
class Message:
    """One turn of the conversation, provider-neutral.

    ``tool`` messages answer the call ``tool_call_id``; ``assistant`` messages carry the
    calls the model made, so a provider can send the history back in its own shape.
    """

    role: Role
    content: str
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens one call cost, as the server reported them (never estimated)."""

    input_tokens: int = 0
    output_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens, self.output_tokens + other.output_tokens
        )


@dataclass(frozen=True, slots=True)
class Reply:
    """What one successful call returned."""

    text: str
    tool_calls: tuple[ToolCall, ...]
    usage: Usage
    model: str
    """The model id the server says answered (may differ from the one asked for)."""
    finish: str
    """The server's stop reason (``stop``, ``tool_calls``, ``end_turn``, ``length`` …)."""
    endpoint: str
    """The base URL that answered (never a key)."""
    latency_s: float = 0.0
    attempts: int = 1
    """Calls it took, retries included (`benchwright.agents.model.retry`)."""


class Provider(Protocol):
    """One endpoint speaking one wire format."""

    endpoint: str
    """The base URL calls go to (for records and fleets; never holds a key)."""

    def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec] | None,
        params: Mapping[str, Any],
        timeout_s: float,
    ) -> Reply:
        """One call. ``tools`` None: text mode (no native tool calling offered).

        Raises:
            ModelFault: the call may succeed if tried again (429, 5xx, timeout, reset).
            ModelRefused: it will not (bad key, unknown model, unreachable endpoint).
        """
        ...


@dataclass
class ModelFault(Exception):
    """A call that failed in a way worth retrying."""

    endpoint: str
    message: str
    status: int | None = None
    retry_after_s: float | None = None
    """What the server's ``Retry-After`` asked for, when it sent one."""
    attempts: int = 1
    """Calls made before giving up, retries included (set by `retry` and `fleet`)."""

    def __str__(self) -> str:
        code = f"{self.status} " if self.status is not None else ""
        return f"{self.endpoint}: {code}{self.message}"


@dataclass
class ModelRefused(Exception):
    """A call that cannot succeed as configured: the trial ends as INFRA, not FAIL, with
    the endpoint's own message."""

    endpoint: str
    message: str
    status: int | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    attempts: int = 1
    """Calls made before giving up (a fleet tries each endpoint; set by `fleet`)."""

    def __str__(self) -> str:
        code = f"{self.status} " if self.status is not None else ""
        return f"{self.endpoint}: {code}{self.message}"
