"""Sorting SDK errors: Retry-After in both forms, and the OpenAI SDK's errors sorted as the
Anthropic SDK's are (the OpenAI provider shares `from_sdk_error`)."""

from __future__ import annotations

from datetime import UTC, datetime

import openai
import pytest

from agents.model.scripted import ScriptedModel
from benchwright.agents.model.faults import from_sdk_error, retry_after_s
from benchwright.agents.model.wire import ModelFault, ModelRefused

NOW = datetime(2026, 10, 21, 7, 28, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [
        ({"Retry-After": "2"}, 2.0),
        ({"retry-after": "0.5"}, 0.5),
        ({"Retry-After": "Wed, 21 Oct 2026 07:28:30 GMT"}, 30.0),
        ({"Retry-After": "Wed, 21 Oct 2026 07:27:00 GMT"}, 0.0),  # in the past: now
        ({"retry-after-ms": "1500", "Retry-After": "9"}, 1.5),  # the finer one wins
        ({"Retry-After": "soon"}, None),
        ({"Retry-After": "-3"}, None),
        ({"Retry-After": "inf"}, None),
        ({}, None),
    ],
)
def test_retry_after_reads_delta_seconds_and_http_dates(
    headers: dict[str, str], seconds: float | None
) -> None:
    assert retry_after_s(headers, now=NOW) == seconds


def call(server: ScriptedModel, key: str) -> None:
    client = openai.OpenAI(base_url=server.openai_url, api_key=key, max_retries=0)
    client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])


def sorted_error(server: ScriptedModel, key: str) -> ModelFault | ModelRefused:
    with pytest.raises(openai.APIError) as caught:
        call(server, key)
    return from_sdk_error(caught.value, openai, server.openai_url)


def test_openai_sdk_errors_sort_the_same_way() -> None:
    with ScriptedModel() as server:
        server.fail_next(429, retry_after="4", message="slow down")
        fault = sorted_error(server, server.key)
        refused = sorted_error(server, "sk-wrong")
    assert isinstance(fault, ModelFault)
    assert (fault.status, fault.retry_after_s, fault.message) == (429, 4.0, "slow down")
    assert isinstance(refused, ModelRefused)
    assert (refused.status, refused.message) == (401, "invalid api key (scripted)")


def test_an_error_that_is_not_the_sdks_is_raised_as_is() -> None:
    with pytest.raises(KeyError):
        from_sdk_error(KeyError("bug"), openai, "http://x")
