"""The model agent in process: tools attacked, limits, context elision, text fallback, INFRA."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from builders import make_task

from agents.model.scripted import ScriptedModel
from benchwright.agents import AgentOutcome, AgentRequest
from benchwright.agents.model import changes
from benchwright.agents.model.agent import ModelAgent
from benchwright.agents.model.config import build_config
from benchwright.agents.model.loop import ELIDED, capped
from benchwright.agents.model.text_actions import parse_actions
from benchwright.agents.model.tools import Toolbox
from benchwright.agents.model.wire import BadToolCall
from benchwright.execution.trial import TrialOptions, run_trial
from benchwright.model import Phase, Trajectory
from benchwright.workspace import Workspace, WorkspaceCaps, replay

KEY_ENV = "BW_LOOP_TEST_KEY"


def _request(tmp_path: Path, budget: float = 60) -> AgentRequest:
    workspace, scratch = tmp_path / "ws", tmp_path / "scratch"
    workspace.mkdir(parents=True)
    scratch.mkdir()
    (workspace / "a.txt").write_text("one\ntwo\nthree\n")
    task = make_task([{"type": "file_exists", "path": "a.txt"}], id="t1")
    return AgentRequest(task, Phase("main", "do it"), True, workspace, budget,
                        scratch / "answer.txt", scratch, logs=tmp_path / "logs")  # fmt: skip


def _run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: list[Any], budget: float = 60,
    server: ScriptedModel | None = None, **flags: Any,
) -> tuple[AgentOutcome, ScriptedModel]:  # fmt: skip
    server = server or ScriptedModel(script)
    with server:
        monkeypatch.setenv(KEY_ENV, server.key)
        config = build_config("model:openai/scripted", base_urls=[server.openai_url],
                              api_key_env=KEY_ENV, **flags)  # fmt: skip
        outcome = ModelAgent(config.spec, config).run(_request(tmp_path, budget))
    return outcome, server


def _toolbox(tmp_path: Path) -> Toolbox:
    return Toolbox(_request(tmp_path), deadline=float("inf"), shell_timeout_s=30)


# -- the editor on a hostile workspace ---------------------------------------------


def test_the_editor_never_leaves_the_workspace_or_follows_a_planted_link(tmp_path: Path) -> None:
    tools = _toolbox(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret").write_text("do not read")
    (tmp_path / "ws" / "docs").symlink_to(outside)
    (tmp_path / "ws" / "link.txt").symlink_to(outside / "secret")
    for path in ("../outside/secret", str(outside / "secret"), "/etc/passwd"):
        with pytest.raises(BadToolCall, match="outside the workspace"):
            tools.run("editor", {"command": "view", "path": path})
    seen = tools.run("editor", {"command": "view", "path": "docs/secret"})
    assert "do not read" not in seen.output and "no regular file" in seen.output
    edit = {"command": "str_replace", "path": "link.txt", "old_str": "do", "new_str": "did"}
    assert tools.run("editor", edit).output.startswith("error:")
    tools.run("editor", {"command": "create", "path": "docs/secret", "file_text": "owned"})
    assert (outside / "secret").read_text() == "do not read"  # the link was replaced, not used
    assert (tmp_path / "ws" / "docs" / "secret").read_text() == "owned"
    assert not (tmp_path / "ws" / "docs").is_symlink()


def test_the_editor_views_ranges_and_refuses_an_ambiguous_replacement(tmp_path: Path) -> None:
    tools = _toolbox(tmp_path)
    view = tools.run("editor", {"command": "view", "path": "a.txt", "view_range": [2, 3]})
    assert view.output == "     2\ttwo\n     3\tthree"
    (tmp_path / "ws" / "b.txt").write_text("x x")
    refused = tools.run("editor", {"command": "str_replace", "path": "b.txt",
                                   "old_str": "x", "new_str": "y"})  # fmt: skip
    assert "found 2 times" in refused.output and refused.steps[0]["tool"] == "failed:str_replace"
    with pytest.raises(BadToolCall, match="missing argument 'new_str'"):
        tools.run("editor", {"command": "str_replace", "path": "b.txt", "old_str": "x"})
    with pytest.raises(BadToolCall, match="unknown tool 'rm'"):
        tools.run("rm", {})
    with pytest.raises(BadToolCall, match="does not keep"):
        tools.run("editor", {"command": "create", "path": ".git/hooks/x", "file_text": ""})


def test_a_binary_file_a_command_writes_is_recorded_as_unreplayable(tmp_path: Path) -> None:
    tools = _toolbox(tmp_path)
    command = (
        "printf '\\377\\376' > blob.bin; echo hi > t.txt; rm a.txt; "
        "mkdir -p .pytest_cache; echo c > .pytest_cache/x"
    )  # a cache is not recorded
    done = tools.run("shell", {"command": command})
    kinds = [(s["type"], s["args"].get("path")) for s in done.steps[1:]]
    assert kinds == [("file_unrecorded", "blob.bin"), ("file_edit", "t.txt"),
                     ("file_delete", "a.txt")]  # fmt: skip
    view = Workspace({"a.txt": b"one\n"})
    errors = replay(view, Trajectory(tuple(done.steps)))
    assert [e.path for e in errors] == ["blob.bin"] and "not recorded" in errors[0].reason
    assert view.files == {"t.txt": b"hi\n"}


def test_a_phase_records_file_content_up_to_its_quota(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(changes, "RECORD_PHASE_BYTES", 12)
    tools = _toolbox(tmp_path)
    first = tools.run("shell", {"command": "echo 1234567 > one.txt"})  # 8 bytes
    second = tools.run("shell", {"command": "echo 1234567 > two.txt"})  # 8 more: past 12
    assert first.steps[1]["args"]["content"] == "1234567\n"
    assert (second.steps[1]["type"], second.steps[1]["reason"]) == (
        "file_unrecorded", "phase quota spent")  # fmt: skip


# -- the loop ------------------------------------------------------------------------


def test_a_workspace_past_its_file_cap_ends_the_phase_at_once(tmp_path, monkeypatch) -> None:
    """The stat snapshot around a command stops at the cap, so its cost is bounded."""
    script = [{"tool": "shell", "args": {"command": "touch f1 f2 f3 f4 f5 f6"}}] * 3
    with ScriptedModel(script) as server:
        monkeypatch.setenv(KEY_ENV, server.key)
        config = build_config("model:openai/scripted", base_urls=[server.openai_url],
                              api_key_env=KEY_ENV)  # fmt: skip
        request = replace(_request(tmp_path), caps=WorkspaceCaps(files=4))
        outcome = ModelAgent(config.spec, config).run(request)
    assert outcome.error == WorkspaceCaps(files=4).files_reason() and len(server.requests) == 1


def test_max_turns_ends_the_loop_as_a_limit_not_an_error(tmp_path, monkeypatch) -> None:
    script = [{"tool": "shell", "args": {"command": "true"}}] * 5
    outcome, server = _run(tmp_path, monkeypatch, script, max_turns=2)
    assert outcome.error is None and outcome.exit_code == 0 and outcome.answer is None
    assert outcome.metadata["model_agent_stop"] == "limit: max turns (2) reached"
    assert len(server.requests) == 2 and outcome.metadata["tool_steps"] == 2


def test_max_tokens_counts_the_servers_usage(tmp_path, monkeypatch) -> None:
    script = [{"tool": "shell", "args": {"command": "true"}}] * 5
    outcome, server = _run(tmp_path, monkeypatch, script, max_tokens=1)
    assert outcome.metadata["model_agent_stop"].startswith("limit: max tokens (1) reached")
    assert len(server.requests) == 1


def test_max_cost_without_a_known_price_is_said_not_enforced(tmp_path, monkeypatch) -> None:
    script = [{"tool": "submit", "args": {"answer": "x"}}]
    outcome, _ = _run(tmp_path, monkeypatch, script, max_cost=0.01)
    assert outcome.answer == "x" and outcome.metadata["usage"]["cost_usd"] is None
    assert outcome.metadata["model_agent_notes"] == ["max_cost_not_enforced"]


def test_the_phase_budget_ends_a_long_command_and_the_loop_as_budget(tmp_path, monkeypatch):
    script = [{"tool": "shell", "args": {"command": "sleep 30"}}]
    outcome, _ = _run(tmp_path, monkeypatch, script, budget=2)
    assert outcome.error is not None and outcome.error.startswith("budget: phase main")
    assert outcome.timed_out and outcome.exit_code is None


def test_a_reply_without_an_action_is_answered_with_a_reminder(tmp_path, monkeypatch) -> None:
    script = [{"text": "thinking"}, {"tool": "submit", "args": {"answer": "42"}}]
    outcome, server = _run(tmp_path, monkeypatch, script)
    assert outcome.answer == "42" and (tmp_path / "scratch" / "answer.txt").read_text() == "42"
    assert "No action was taken" in server.requests[1]["body"]["messages"][-1]["content"]


def test_the_oldest_tool_outputs_are_elided_and_the_model_told(tmp_path, monkeypatch) -> None:
    big = {"tool": "shell", "args": {"command": "head -c 3000 /dev/zero | tr '\\0' x"}}
    script = [big, big, big, {"tool": "submit", "args": {"answer": "ok"}}]
    outcome, _ = _run(tmp_path, monkeypatch, script)
    assert "context_elided" not in outcome.metadata.get("model_agent_notes", [])
    with ScriptedModel(script) as small:  # the same run within 7,000 characters
        monkeypatch.setenv(KEY_ENV, small.key)
        config = replace(build_config("model:openai/scripted", base_urls=[small.openai_url],
                                      api_key_env=KEY_ENV), context_chars=7_000)  # fmt: skip
        elided = ModelAgent(config.spec, config).run(_request(tmp_path / "2"))
    last = [m["content"] for m in small.requests[-1]["body"]["messages"] if m["role"] == "tool"]
    assert last[0] == ELIDED and "x" * 3000 in last[-1]
    assert elided.answer == "ok" and "context_elided" in elided.metadata["model_agent_notes"]


def test_auto_mode_falls_back_to_text_when_the_server_rejects_tools(tmp_path, monkeypatch):
    server = ScriptedModel([{"text": "```submit\nfrom text\n```"}])
    server.fail_next(400, message="this model does not support tools")
    outcome, _ = _run(tmp_path, monkeypatch, [], server=server)
    assert outcome.answer == "from text" and outcome.error is None
    assert "tools" in server.requests[0]["body"] and "tools" not in server.requests[1]["body"]
    assert any(s["type"] == "tools_fallback" for s in outcome.steps)


def test_a_refused_key_ends_the_phase_as_infra_with_the_endpoints_message(tmp_path, monkeypatch):
    server = ScriptedModel([{"text": "x"}], key="sk-the-right-one")
    with server:
        monkeypatch.setenv(KEY_ENV, "sk-a-wrong-one")
        config = build_config("model:openai/scripted", base_urls=[server.openai_url],
                              api_key_env=KEY_ENV)  # fmt: skip
        outcome = ModelAgent(config.spec, config).run(_request(tmp_path))
    assert outcome.error == f"infra: {server.openai_url}: 401 invalid api key (scripted)"
    assert outcome.exit_code is None and outcome.metadata["model_calls"] == 1


def test_a_key_an_endpoint_echoes_is_redacted_from_the_error_and_the_records(tmp_path, monkeypatch):
    server = ScriptedModel([{"text": "x"}], key="sk-echoed-0123456789")
    server.fail_next(403, message="key sk-echoed-0123456789 may not use this model")
    outcome, _ = _run(tmp_path, monkeypatch, [], server=server)
    assert outcome.error == f"infra: {server.openai_url}: 403 key [redacted] may not use this model"
    live = Path(outcome.metadata["live_trajectory"]).read_text()
    assert "[redacted]" in live and "sk-echoed" not in live + json.dumps(outcome.steps)


def test_the_live_trajectory_is_the_steps_between_a_header_and_the_totals(tmp_path, monkeypatch):
    script = [{"tool": "shell", "args": {"command": "echo hi > b.txt"}},
              {"tool": "submit", "args": {"answer": "done"}}]  # fmt: skip
    outcome, _ = _run(tmp_path, monkeypatch, script)
    lines = [json.loads(line) for line in
             Path(outcome.metadata["live_trajectory"]).read_text().splitlines()]  # fmt: skip
    assert lines[0]["format"] == "benchwright-model-agent"
    assert lines[1:-2] == list(outcome.steps)
    assert lines[-2]["metadata"]["usage"] == outcome.metadata["usage"]
    assert lines[-1] == {"type": "answer", "answer": "done"}


# -- text actions and output caps ----------------------------------------------------


def test_text_actions_are_the_named_fenced_blocks_in_order() -> None:
    text = ("Let me look.\n```python\nprint('not run')\n```\n```bash\nls -l `pwd`\n```\n"
            '```editor\n{"command": "view", "path": "a"}\n```\n```editor\n{broken\n```\n'
            "```submit\nline 1\nline 2\n```")  # fmt: skip
    calls = parse_actions(text, 3)
    assert [c.name for c in calls] == ["shell", "editor", "editor", "submit"]
    assert calls[0].parsed() == {"command": "ls -l `pwd`"} and calls[0].id == "text-3-2"
    assert calls[1].parsed() == {"command": "view", "path": "a"}
    with pytest.raises(BadToolCall, match="not JSON"):
        calls[2].parsed()
    assert calls[3].parsed() == {"answer": "line 1\nline 2"}


def test_tool_output_is_capped_to_its_head_and_tail() -> None:
    text = "a" * 600 + "b" * 600
    out = capped(text, 200)
    assert out.startswith("a" * 100) and out.endswith("b" * 100) and "1000 characters elided" in out
    assert capped("short", 200) == "short"


def test_a_two_phase_trial_adds_up_what_both_phases_spent(tmp_path, monkeypatch) -> None:
    """Each phase is a conversation of its own; the trial's metadata is their sum."""
    task = replace(make_task([{"type": "file_exists", "path": "b.txt"}], id="two"),
                   phases=(Phase("one", "first"), Phase("two", "second")))  # fmt: skip
    script = [{"tool": "shell", "args": {"command": "echo x >> b.txt"}},
              {"tool": "submit", "args": {"answer": "ok"}}]  # fmt: skip
    with ScriptedModel(script) as server:
        monkeypatch.setenv(KEY_ENV, server.key)
        config = build_config("model:openai/scripted", base_urls=[server.openai_url],
                              api_key_env=KEY_ENV)  # fmt: skip
        result = run_trial(task, "correctness", ModelAgent(config.spec, config), 1,
                           TrialOptions(model=config))  # fmt: skip
    assert result.verdict == "passed", result.error
    metadata = result.trajectory["metadata"]
    usage = {"input_tokens": server.input_tokens, "output_tokens": server.output_tokens}
    assert metadata["usage"] == {**usage, "cost_usd": None}
    assert (metadata["model_calls"], metadata["tool_steps"]) == (4, 4)
    assert metadata["endpoints"] == [server.openai_url]
