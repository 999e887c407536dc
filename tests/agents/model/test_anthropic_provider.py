"""The Anthropic provider against a real Messages endpoint (the scripted server) through
the official SDK: the history's shape on the wire, what is read back, how faults sort."""

from __future__ import annotations

import email.utils
import socket
import time
from collections.abc import Iterator

import pytest

from agents.model.scripted import MODEL_ID, ScriptedModel
from benchwright.agents.model.anthropic_provider import DEFAULT_MAX_TOKENS, AnthropicProvider
from benchwright.agents.model.wire import (
    Message,
    ModelFault,
    ModelRefused,
    ToolCall,
    ToolSpec,
    Usage,
)

GO = [Message("user", "go")]
SHELL = ToolSpec("shell", "run a command", {"type": "object", "properties": {}})
TWO_CALLS = {"tools": [{"tool": "shell", "args": {"command": "ls"}},
                       {"tool": "shell", "args": {"command": "pwd"}}]}  # fmt: skip


@pytest.fixture(scope="module")
def running() -> Iterator[ScriptedModel]:
    with ScriptedModel() as started:
        yield started


@pytest.fixture
def server(running: ScriptedModel) -> ScriptedModel:
    """One server for the module (starting one costs more than the tests), reset."""
    running.requests.clear()
    running.faults.clear()
    running.script = ()
    running.input_tokens = running.output_tokens = 0
    return running


def provider(server: ScriptedModel, key: str | None = None) -> AnthropicProvider:
    return AnthropicProvider(server.anthropic_url, key or server.key, "claude-test")


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_tool_calls_come_back_neutral_with_the_servers_usage_and_model(
    server: ScriptedModel,
) -> None:
    server.script = [TWO_CALLS]
    reply = provider(server).complete(
        [Message("system", "be brief"), Message("user", "go")], [SHELL], {}, 10
    )
    assert [(c.name, c.parsed()) for c in reply.tool_calls] == [
        ("shell", {"command": "ls"}), ("shell", {"command": "pwd"})
    ]  # fmt: skip
    assert reply.usage == Usage(server.input_tokens, server.output_tokens)
    assert (reply.model, reply.finish) == (MODEL_ID, "tool_use")
    assert reply.endpoint == server.anthropic_url
    body = server.requests[0]["body"]
    assert body["system"] == "be brief"
    assert body["messages"] == [{"role": "user", "content": [{"type": "text", "text": "go"}]}]
    assert body["tools"] == [{"name": "shell", "description": "run a command",
                              "input_schema": {"type": "object", "properties": {}}}]  # fmt: skip
    assert body["max_tokens"] == DEFAULT_MAX_TOKENS


def test_the_results_of_one_turn_travel_in_one_user_turn_before_any_user_text(
    server: ScriptedModel,
) -> None:
    calls = (ToolCall("toolu_1", "shell", '{"command": "ls"}'),
             ToolCall("toolu_2", "shell", '{"command": "pwd"}'))  # fmt: skip
    history = [
        Message("user", "go"),
        Message("assistant", "looking", calls),
        Message("tool", "a.txt", tool_call_id="toolu_1"),
        Message("tool", "/w", tool_call_id="toolu_2"),
        Message("user", "(older outputs were elided)"),
    ]
    server.script = [TWO_CALLS, {"text": "all done"}]
    reply = provider(server).complete(history, [SHELL], {}, 10)
    assert (reply.text, reply.tool_calls, reply.finish) == ("all done", (), "end_turn")
    sent = server.requests[0]["body"]["messages"]
    assert [turn["role"] for turn in sent] == ["user", "assistant", "user"]
    assert sent[1]["content"] == [
        {"type": "text", "text": "looking"},
        {"type": "tool_use", "id": "toolu_1", "name": "shell", "input": {"command": "ls"}},
        {"type": "tool_use", "id": "toolu_2", "name": "shell", "input": {"command": "pwd"}},
    ]
    assert sent[2]["content"] == [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "a.txt"},
        {"type": "tool_result", "tool_use_id": "toolu_2", "content": "/w"},
        {"type": "text", "text": "(older outputs were elided)"},
    ]


def test_text_mode_offers_no_tools_and_params_reach_the_body(server: ScriptedModel) -> None:
    server.script = [{"text": "```bash\nls\n```"}]
    reply = provider(server).complete(
        [Message("user", "go")], None, {"max_tokens": 123, "temperature": 0}, 10
    )
    assert reply.text == "```bash\nls\n```"
    body = server.requests[0]["body"]
    assert "tools" not in body and "system" not in body
    assert (body["max_tokens"], body["temperature"]) == (123, 0)


def test_a_malformed_tool_input_reaches_the_loop_as_is_and_goes_back_as_an_object(
    server: ScriptedModel,
) -> None:
    server.script = [{"tool": "shell", "raw_arguments": "{not json"}]
    first = provider(server).complete([Message("user", "go")], [SHELL], {}, 10)
    call = first.tool_calls[0]
    assert call.arguments == "{not json"
    provider(server).complete(
        [Message("user", "go"), Message("assistant", "", (call,)),
         Message("tool", "error: arguments are not JSON", tool_call_id=call.id)],
        [SHELL], {}, 10,
    )  # fmt: skip
    resent = server.requests[1]["body"]["messages"][1]["content"]
    assert resent == [{"type": "tool_use", "id": call.id, "name": "shell", "input": {}}]


@pytest.mark.parametrize("status", [429, 500, 503, 529])
def test_rate_limits_and_server_errors_are_faults_with_the_endpoints_message(
    server: ScriptedModel, status: int
) -> None:
    server.fail_next(status, retry_after="7", message=f"busy ({status})")
    with pytest.raises(ModelFault) as caught:
        provider(server).complete(GO, None, {}, 10)
    assert (caught.value.status, caught.value.retry_after_s) == (status, 7.0)
    assert caught.value.message == f"busy ({status})"


def test_retry_after_as_an_http_date_is_read_as_seconds_from_now(server: ScriptedModel) -> None:
    when = email.utils.formatdate(time.time() + 120, usegmt=True)
    server.fail_next(429, retry_after=when)
    with pytest.raises(ModelFault) as caught:
        provider(server).complete(GO, None, {}, 10)
    # The date has one-second resolution and the call took a moment: near 120, not exact.
    assert caught.value.retry_after_s is not None and 100 < caught.value.retry_after_s <= 120


def test_a_bad_key_is_refused_with_the_servers_message_and_never_shows_the_key(
    server: ScriptedModel,
) -> None:
    with pytest.raises(ModelRefused) as caught:
        provider(server, key="sk-wrong-secret").complete(GO, None, {}, 10)
    assert (caught.value.status, caught.value.message) == (401, "invalid api key (scripted)")
    assert "sk-wrong-secret" not in str(caught.value)


def test_an_unknown_model_is_refused(server: ScriptedModel) -> None:
    server.fail_next(404, message="model: claude-nope not found")
    with pytest.raises(ModelRefused) as caught:
        provider(server).complete(GO, None, {}, 10)
    assert (caught.value.status, caught.value.message) == (404, "model: claude-nope not found")


def test_an_unreachable_endpoint_is_refused() -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    with pytest.raises(ModelRefused) as caught:
        AnthropicProvider(url, "k", "m").complete(GO, None, {}, 10)
    assert caught.value.endpoint == url
    assert "unreachable" in caught.value.message and "refused" in caught.value.message


def test_a_hung_call_ends_at_its_timeout_as_a_fault(server: ScriptedModel) -> None:
    server.fail_next(hang_s=60)
    with pytest.raises(ModelFault) as caught:
        provider(server).complete(GO, None, {}, 0.5)
    assert caught.value.status is None and "timeout" in caught.value.message


def test_no_key_is_refused_before_any_call(server: ScriptedModel) -> None:
    with pytest.raises(ModelRefused, match="no API key"):
        AnthropicProvider(server.anthropic_url, None, "m").complete(GO, None, {}, 5)
    assert server.requests == []


def test_a_parameter_may_not_replace_what_the_provider_sends(server: ScriptedModel) -> None:
    with pytest.raises(ModelRefused, match="not a model parameter: messages, stream"):
        provider(server).complete(GO, None, {"stream": True, "messages": []}, 10)
    assert server.requests == []
