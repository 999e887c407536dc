"""The OpenAI provider against the scripted server: replies, usage, and every fault mapped."""

from __future__ import annotations

import socket

import pytest

from agents.model.scripted import MODEL_ID, ScriptedModel
from benchwright.agents.model.openai_provider import OpenAIProvider
from benchwright.agents.model.tools import TOOLS
from benchwright.agents.model.wire import Message, ModelFault, ModelRefused, ToolCall

PROMPT = [Message("system", "be brief"), Message("user", "go")]


def test_a_reply_carries_the_tool_calls_usage_model_and_endpoint() -> None:
    with ScriptedModel([{"tool": "shell", "args": {"command": "ls"}}]) as server:
        provider = OpenAIProvider(server.openai_url, server.key, "asked-for")
        reply = provider.complete(PROMPT, TOOLS, {"temperature": 0, "seed": 7}, 10)
        body = server.requests[0]["body"]
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [("shell", '{"command": "ls"}')]
    assert (reply.model, reply.finish, reply.endpoint) == (
        MODEL_ID,
        "tool_calls",
        server.openai_url,
    )
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (
        server.input_tokens, server.output_tokens)  # fmt: skip
    assert body["model"] == "asked-for" and body["temperature"] == 0 and body["seed"] == 7
    assert [t["function"]["name"] for t in body["tools"]] == ["shell", "editor", "submit"]


def test_history_goes_back_in_the_wire_shape_and_text_mode_sends_no_tools() -> None:
    call = ToolCall("call_9", "shell", '{"command": "ls"}')
    history = [*PROMPT, Message("assistant", "", (call,)),
               Message("tool", "a.txt", tool_call_id="call_9")]  # fmt: skip
    with ScriptedModel([{"text": "fine"}, {"text": "again"}]) as server:
        reply = OpenAIProvider(server.openai_url, server.key, "m").complete(history, None, {}, 10)
        sent = server.requests[0]["body"]
    assert "tools" not in sent and reply.text == "again"  # one assistant turn played already
    assert sent["messages"][2]["tool_calls"][0]["function"] == {
        "name": "shell",
        "arguments": '{"command": "ls"}',
    }
    assert sent["messages"][3] == {"role": "tool", "tool_call_id": "call_9", "content": "a.txt"}


@pytest.mark.parametrize(("status", "retry_after", "wait"), [(429, "7", 7.0), (503, None, None)])
def test_429_and_5xx_are_faults_worth_retrying_with_retry_after(status, retry_after, wait) -> None:
    with ScriptedModel([{"text": "x"}]) as server:
        server.fail_next(status, retry_after=retry_after, message="slow down")
        with pytest.raises(ModelFault) as caught:
            OpenAIProvider(server.openai_url, server.key, "m").complete(PROMPT, None, {}, 10)
        assert len(server.requests) == 1  # the SDK's own retries are off
    assert (caught.value.status, caught.value.retry_after_s) == (status, wait)
    assert caught.value.message == "slow down"


def test_a_bad_key_is_refused_with_the_endpoints_own_message() -> None:
    with ScriptedModel([{"text": "x"}]) as server, pytest.raises(ModelRefused) as caught:
        OpenAIProvider(server.openai_url, "sk-wrong", "m").complete(PROMPT, None, {}, 10)
    assert caught.value.status == 401 and caught.value.message == "invalid api key (scripted)"
    assert str(caught.value).startswith(server.openai_url)


def test_nothing_listening_is_refused_and_a_hung_call_times_out() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(ModelRefused, match="unreachable"):
        OpenAIProvider(f"http://127.0.0.1:{port}/v1", "k", "m").complete(PROMPT, None, {}, 5)
    with ScriptedModel([{"text": "x"}]) as server:
        server.fail_next(hang_s=30)
        with pytest.raises(ModelFault, match="no answer within"):
            OpenAIProvider(server.openai_url, server.key, "m").complete(PROMPT, None, {}, 0.5)
