"""From an SDK's exception to the wire's two errors: worth retrying, or not.

Both official SDKs (``openai``, ``anthropic``) raise the same three kinds of error (they
are generated from one template): ``APIStatusError`` (the server answered 4xx/5xx),
``APITimeoutError`` (no answer within the call's timeout) and ``APIConnectionError``
(no answer at all). `from_sdk_error` sorts them once, for every provider, so the retry
policy (`benchwright.agents.model.retry`) and the INFRA verdict never depend on which
SDK raised:

- `ModelFault` (may succeed if tried again): 408, 409, 429, every 5xx (529 is
  Anthropic's "overloaded"), a timeout, a connection dropped mid-call;
- `ModelRefused` (will not, as configured): every other 4xx (401 bad key, 403, 404
  unknown model or path, 400 a request the endpoint rejects), a connection refused or a
  host that does not resolve.

Either carries the endpoint's own message (``error.message`` of its JSON body, else the
start of the body), never the request, so a key sent in a header cannot leak into it.
"""

from __future__ import annotations

import email.utils
from collections.abc import Mapping
from datetime import UTC, datetime
from types import ModuleType

from benchwright.agents.model.wire import ModelFault, ModelRefused

RETRYABLE_STATUS = frozenset({408, 409, 429})
"""4xx statuses that say "not now" rather than "never" (as both SDKs' own retry policy)."""
MESSAGE_CHARS = 500
"""The most of an endpoint's message kept: enough to read, never a whole HTML page."""


def from_sdk_error(exc: Exception, sdk: ModuleType, endpoint: str) -> ModelFault | ModelRefused:
    """Sort one exception raised by ``sdk`` (the ``openai`` or ``anthropic`` module).

    Raises:
        Exception: ``exc`` itself when it is not one of the SDK's API errors (a bug,
            never to be turned into a verdict about the endpoint).
    """
    if isinstance(exc, sdk.APIStatusError):
        status = exc.status_code
        message = _endpoint_message(exc)
        if status in RETRYABLE_STATUS or status >= 500:
            return ModelFault(endpoint, message, status, retry_after_s(exc.response.headers))
        return ModelRefused(endpoint, message, status)
    if isinstance(exc, sdk.APITimeoutError):
        return ModelFault(endpoint, "no answer within the call's timeout")
    if isinstance(exc, sdk.APIConnectionError):
        cause = _root_cause(exc)
        if _never_connected(exc):
            return ModelRefused(endpoint, f"unreachable: {cause}")
        return ModelFault(endpoint, f"connection lost: {cause}")
    raise exc


def retry_after_s(headers: Mapping[str, str], now: datetime | None = None) -> float | None:
    """What the server asked to wait, in seconds, or None when it did not say.

    Reads ``retry-after-ms`` (sent by OpenAI and Anthropic) first, then ``Retry-After``
    in both of RFC 9110's forms: delta-seconds (``"2"``) and an HTTP-date (``"Wed, 21 Oct
    2026 07:28:00 GMT"``, measured from ``now``, the wall clock by default). A date in the
    past is 0; a value that is neither form is ignored (None), never guessed at.
    """
    lowered = {name.lower(): value for name, value in headers.items()}
    millis = _non_negative(lowered.get("retry-after-ms"))
    if millis is not None:
        return millis / 1000
    value = lowered.get("retry-after")
    if value is None:
        return None
    seconds = _non_negative(value)
    if seconds is not None:
        return seconds
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:  # an HTTP-date is GMT by definition
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def _non_negative(value: str | None) -> float | None:
    try:
        number = float(value) if value is not None else None
    except ValueError:
        return None
    if number is None or number != number or number < 0 or number == float("inf"):
        return None
    return number


def _endpoint_message(exc: Exception) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return error["message"][:MESSAGE_CHARS]
    response = getattr(exc, "response", None)
    text = getattr(response, "text", "") or str(exc)
    return " ".join(text.split())[:MESSAGE_CHARS]


def _causes(exc: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in chain:
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def _root_cause(exc: BaseException) -> str:
    return str(_causes(exc)[-1]) or type(_causes(exc)[-1]).__name__


def _never_connected(exc: BaseException) -> bool:
    """True when the connection was never made (refused, no such host), as opposed to
    one lost mid-call. The HTTP layer under the SDK is ``httpx`` or its successor by SDK
    version, so its ``ConnectError`` is recognised by name, and the OS's own refusal
    below it by type."""
    return any(
        type(cause).__name__ == "ConnectError" or isinstance(cause, ConnectionRefusedError)
        for cause in _causes(exc)
    )
