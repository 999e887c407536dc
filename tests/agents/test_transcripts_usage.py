"""Token usage and model kept from Claude Code and Codex transcripts: `trajectory import`
and the ``claude-code``/``codex`` presets' stdout, in each CLI's own line format."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchwright.agents.presets import PRESETS

ROOT = "/home/dev/proj"
SONNET = "claude-sonnet-4-20250514"


def claude_line(msg_id: str, block: dict[str, Any], usage: dict[str, Any], **fields: Any) -> dict:
    """One line of a Claude Code session: one content block of API message ``msg_id``, with
    the message's usage repeated, as Claude Code writes every block of a message."""
    message = {"id": msg_id, "type": "message", "role": "assistant", "model": SONNET,
               "content": [block], "stop_reason": None, "usage": usage}  # fmt: skip
    return {"parentUuid": None, "isSidechain": False, "type": "assistant", "cwd": ROOT,
            "sessionId": "s-1", "version": "1.0.98", "message": message,
            "requestId": f"req_{msg_id}", **fields}  # fmt: skip


def claude_usage(inp: int, write: int, read: int, out: int) -> dict[str, Any]:
    return {"input_tokens": inp, "cache_creation_input_tokens": write,
            "cache_read_input_tokens": read, "output_tokens": out,
            "service_tier": "standard"}  # fmt: skip


def bash(id_: str, command: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": id_, "name": "Bash", "input": {"command": command}}


SESSION = [
    {"type": "user", "cwd": ROOT, "sessionId": "s-1", "version": "1.0.98",
     "message": {"role": "user", "content": "run the tests"}},
    # message 1: three blocks on three lines, its usage repeated on each (output grows)
    claude_line("msg_01", {"type": "thinking", "thinking": "hm"}, claude_usage(4, 1000, 0, 1)),
    claude_line("msg_01", {"type": "text", "text": "Running."}, claude_usage(4, 1000, 0, 1)),
    claude_line("msg_01", bash("t1", "pytest -q"), claude_usage(4, 1000, 0, 60)),
    {"type": "user", "cwd": ROOT, "message": {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t1", "content": "3 passed"}]}},
    claude_line("msg_02", {"type": "text", "text": "All pass."}, claude_usage(7, 50, 1000, 20)),
    # a sub-agent's call is a model call too
    claude_line("msg_03", bash("t2", "ls"), claude_usage(3, 0, 200, 9), isSidechain=True),
    # Claude Code's own message: no model was called
    {"type": "assistant", "cwd": ROOT, "message": {
        "id": "synth-1", "model": "<synthetic>", "role": "assistant",
        "content": [{"type": "text", "text": "No response requested."}],
        "usage": claude_usage(0, 0, 0, 0)}},
]  # fmt: skip
SESSION_USAGE = {"input_tokens": 14 + 1050 + 1200, "output_tokens": 89, "cost_usd": None,
                 "cache_creation_input_tokens": 1050, "cache_read_input_tokens": 1200}  # fmt: skip


def test_a_claude_code_session_counts_each_api_message_once(imported):
    document, trajectory = imported("claude-code", SESSION)
    meta = document["metadata"]
    assert meta["model"] == SONNET
    assert meta["model_calls"] == 3
    assert meta["usage"] == SESSION_USAGE
    assert [c.command for c in trajectory.commands()] == ["pytest -q", "ls"]


def test_the_result_line_gives_claude_codes_own_totals_and_cost():
    """``claude -p --output-format stream-json``: what the claude-code preset reads."""
    final = {"type": "result", "subtype": "success", "is_error": False, "num_turns": 3,
             "result": "done", "session_id": "s-1", "total_cost_usd": 0.0421,
             "usage": claude_usage(30, 1050, 1200, 95)}  # fmt: skip
    init = {"type": "system", "subtype": "init", "cwd": ROOT, "session_id": "s-1",
            "model": SONNET, "tools": ["Bash"]}  # fmt: skip
    stdout = "\n".join(json.dumps(line) for line in [init, *SESSION[1:6], final]) + "\n"
    parsed = PRESETS["claude-code"].parser(stdout, Path(ROOT), Path("/nonexistent"))
    assert parsed.answer == "done"
    assert parsed.metadata["usage"] == {
        "input_tokens": 30 + 1050 + 1200, "output_tokens": 95, "cost_usd": 0.0421,
        "cache_creation_input_tokens": 1050, "cache_read_input_tokens": 1200}  # fmt: skip
    assert parsed.metadata["model_calls"] == 2 and parsed.metadata["model"] == SONNET


def token_count(info: dict[str, Any] | None) -> dict[str, Any]:
    return {"timestamp": "2025-10-01T10:00:05Z", "type": "event_msg",
            "payload": {"type": "token_count", "info": info,
                        "rate_limits": {"primary": {"used_percent": 7.0}}}}  # fmt: skip


def codex_total(inp: int, cached: int, out: int, reasoning: int) -> dict[str, Any]:
    usage = {"input_tokens": inp, "cached_input_tokens": cached, "output_tokens": out,
             "reasoning_output_tokens": reasoning, "total_tokens": inp + out}  # fmt: skip
    return {"total_token_usage": usage, "last_token_usage": usage, "model_context_window": 272000}


def codex_item(payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": "2025-10-01T10:00:00Z", "type": "response_item", "payload": payload}


ROLLOUT = [
    {"type": "session_meta", "payload": {"id": "r-1", "cwd": ROOT, "cli_version": "0.46.0"}},
    {"type": "turn_context", "payload": {"cwd": ROOT, "model": "gpt-5-codex"}},
    token_count(None),  # rate limits only, before any call
    codex_item({"type": "function_call", "name": "shell", "call_id": "c1",
                "arguments": json.dumps({"command": ["bash", "-lc", "ls"]})}),
    token_count(codex_total(5000, 4000, 120, 64)),
    token_count(codex_total(5000, 4000, 120, 64)),  # the same total again: no new call
    token_count(codex_total(11000, 9000, 300, 100)),
    codex_item({"type": "message", "role": "assistant",
                "content": [{"type": "output_text", "text": "done"}]}),
]  # fmt: skip


def test_a_codex_rollout_keeps_its_last_cumulative_total_and_counts_its_changes(imported):
    document, _ = imported("codex", ROLLOUT)
    meta = document["metadata"]
    assert meta["model"] == "gpt-5-codex"
    assert meta["model_calls"] == 2
    assert meta["usage"] == {"input_tokens": 11000, "output_tokens": 300, "cost_usd": None,
                             "cached_input_tokens": 9000,
                             "reasoning_output_tokens": 100}  # fmt: skip


def test_a_resumed_codex_rollout_adds_its_segments(imported):
    resumed = [*ROLLOUT, token_count(codex_total(2000, 0, 40, 0))]  # the total starts over
    document, _ = imported("codex", resumed)
    assert document["metadata"]["usage"]["input_tokens"] == 13000
    assert document["metadata"]["usage"]["output_tokens"] == 340
    assert document["metadata"]["model_calls"] == 3


def test_codex_exec_json_keeps_the_last_turns_thread_total():
    """``codex exec --json``: what the codex preset reads; each ``turn.completed`` carries
    the thread's total so far."""
    lines = [
        {"type": "thread.started", "thread_id": "th1"},
        {"type": "turn.started"},
        {"type": "item.completed", "item": {"id": "item_0", "type": "agent_message",
                                            "text": "first"}},
        {"type": "turn.completed",
         "usage": {"input_tokens": 24763, "cached_input_tokens": 24448, "output_tokens": 122}},
        {"type": "turn.started"},
        {"type": "item.completed", "item": {"id": "item_1", "type": "agent_message",
                                            "text": "done"}},
        {"type": "turn.completed",
         "usage": {"input_tokens": 50000, "cached_input_tokens": 49000, "output_tokens": 300}},
    ]  # fmt: skip
    stdout = "\n".join(json.dumps(line) for line in lines) + "\n"
    parsed = PRESETS["codex"].parser(stdout, Path(ROOT), Path("/nonexistent"))
    assert parsed.answer == "done"
    assert parsed.metadata["usage"] == {"input_tokens": 50000, "output_tokens": 300,
                                        "cost_usd": None, "cached_input_tokens": 49000,
                                        "reasoning_output_tokens": 0}  # fmt: skip
    assert "model_calls" not in parsed.metadata  # the stream does not say


@pytest.mark.parametrize(
    ("bad", "error"),
    [({"output_tokens": "60"}, "line 4: usage.output_tokens: not a token count: '60'"),
     ({"output_tokens": True}, "line 4: usage.output_tokens: not a token count: True"),
     ({"input_tokens": -1}, "line 4: usage.input_tokens: not a token count: -1"),
     ({"input_tokens": 2**63},
      "line 4: usage.input_tokens: not a token count: 9223372036854775808")],
)  # fmt: skip
def test_a_malformed_count_makes_usage_unknown_not_wrong_and_keeps_the_steps(imported, bad, error):
    usage = {**claude_usage(4, 1000, 0, 60), **bad}
    lines = [*SESSION[:3], claude_line("msg_01", bash("t1", "pytest -q"), usage), *SESSION[4:]]
    document, trajectory = imported("claude-code", lines)
    assert "usage" not in document["metadata"] and "model_calls" not in document["metadata"]
    assert document["metadata"]["usage_error"] == error
    assert [c.command for c in trajectory.commands()] == ["pytest -q", "ls"]


@pytest.mark.parametrize("cost", [-0.5, "0.04", float("inf")])
def test_a_cost_that_is_not_a_non_negative_number_makes_usage_unknown(cost):
    final = {"type": "result", "subtype": "success", "result": "done",
             "total_cost_usd": cost, "usage": claude_usage(1, 0, 0, 1)}  # fmt: skip
    stdout = "\n".join(json.dumps(line) for line in [*SESSION[1:4], final]) + "\n"
    parsed = PRESETS["claude-code"].parser(stdout, Path(ROOT), Path("/nonexistent"))
    assert "usage" not in parsed.metadata
    assert parsed.metadata["usage_error"].startswith("line 4: total_cost_usd: not a cost")
