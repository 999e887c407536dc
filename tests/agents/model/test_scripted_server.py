"""The scripted model server answers both official SDKs as their real APIs would."""

from __future__ import annotations

import anthropic
import openai
import pytest

from agents.model.scripted import MODEL_ID, ScriptedModel

SCRIPT = [{"tool": "shell", "args": {"command": "ls"}}, {"text": "all done"}]


def test_openai_sdk_gets_a_tool_call_then_text_and_the_usage_it_reported() -> None:
    with ScriptedModel(SCRIPT) as server:
        client = openai.OpenAI(base_url=server.openai_url, api_key=server.key, max_retries=0)
        first = client.chat.completions.create(
            model="any", messages=[{"role": "user", "content": "go"}]
        )
        call = first.choices[0].message.tool_calls[0]
        assert (call.function.name, call.function.arguments) == ("shell", '{"command": "ls"}')
        second = client.chat.completions.create(model="any", messages=[
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": None, "tool_calls": [call.model_dump()]},
            {"role": "tool", "tool_call_id": call.id, "content": "a.txt"},
        ])  # fmt: skip
        assert second.choices[0].message.content == "all done"
        assert first.model == MODEL_ID
        reported = first.usage.prompt_tokens + second.usage.prompt_tokens
        assert reported == server.input_tokens


def test_anthropic_sdk_gets_tool_use_and_a_bad_key_is_a_401() -> None:
    with ScriptedModel(SCRIPT) as server:
        client = anthropic.Anthropic(base_url=server.anthropic_url, api_key=server.key,
                                     max_retries=0)  # fmt: skip
        reply = client.messages.create(
            model="any", max_tokens=100, messages=[{"role": "user", "content": "go"}]
        )
        assert reply.content[0].type == "tool_use"
        assert reply.content[0].input == {"command": "ls"}
        assert reply.usage.input_tokens == server.input_tokens
        wrong = anthropic.Anthropic(base_url=server.anthropic_url, api_key="nope", max_retries=0)
        with pytest.raises(anthropic.AuthenticationError):
            wrong.messages.create(model="any", max_tokens=10,
                                  messages=[{"role": "user", "content": "go"}])  # fmt: skip


def test_a_scripted_429_carries_retry_after() -> None:
    with ScriptedModel(SCRIPT) as server:
        server.fail_next(429, retry_after="2")
        client = openai.OpenAI(base_url=server.openai_url, api_key=server.key, max_retries=0)
        with pytest.raises(openai.RateLimitError) as caught:
            client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
        assert caught.value.response.headers["retry-after"] == "2"
