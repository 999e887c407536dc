"""Presets for Claude Code, Codex, aider and goose: their commands, and parsers on their output.

The CLIs cannot run here, so each parser is tested on a transcript written in
that CLI's format, and each preset's command on the argv it would run.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchwright.agents import PRESETS, build_agent
from benchwright.agents.command import PLACEHOLDER, parse_template
from benchwright.model import Trajectory

WS = "/tmp/bw/workspace"


def _argv(name: str) -> list[str]:
    values = {"prompt": "P q", "prompt_file": "/s/p.txt", "workspace": WS, "scratch": "/s"}
    words = parse_template(PRESETS[name].template)
    return [PLACEHOLDER.sub(lambda m: values[m.group(1)], w) for w in words]


@pytest.mark.parametrize(
    ("name", "argv"),
    [
        ("claude-code", ["claude", "-p", "P q", "--output-format", "stream-json", "--verbose",
                         "--permission-mode", "bypassPermissions"]),
        ("codex", ["codex", "exec", "--json", "--sandbox", "workspace-write",
                   "--skip-git-repo-check", "P q"]),
        ("goose", ["goose", "run", "--no-session", "--output-format", "stream-json",
                   "--text", "P q"]),
    ],
)  # fmt: skip
def test_preset_commands(name, argv):
    assert _argv(name) == argv
    assert build_agent(name, []).spec == name


def test_aider_keeps_its_history_outside_the_workspace_and_never_commits():
    argv = _argv("aider")
    assert argv[:3] == ["aider", "--message", "P q"]
    assert {"--yes-always", "--no-auto-commits", "--no-gitignore"} <= set(argv)
    assert argv[argv.index("--chat-history-file") + 1] == "/s/aider.chat.md"


def _stream(*lines: dict) -> str:
    return "banner text that is not JSON\n" + "\n".join(json.dumps(x) for x in lines) + "\n"


def _parse(name: str, stdout: str, scratch: Path = Path("/nonexistent")):
    parsed = PRESETS[name].parser(stdout, Path(WS), scratch)
    return parsed, Trajectory(tuple(parsed.steps), answer=parsed.answer)


def test_claude_code_stream_json():
    stdout = _stream(
        {"type": "system", "subtype": "init", "cwd": WS, "session_id": "s1"},
        {"type": "assistant", "message": {"model": "m", "content": [
            {"type": "tool_use", "id": "u1", "name": "Write",
             "input": {"file_path": f"{WS}/calc.py", "content": "x = 1\n"}},
            {"type": "tool_use", "id": "u2", "name": "Bash", "input": {"command": "curl x"}}]}},
        {"type": "result", "subtype": "success", "result": "count: 3\nmain.py"},
    )  # fmt: skip
    parsed, trajectory = _parse("claude-code", stdout)
    assert parsed.answer == "count: 3\nmain.py"
    assert [(e.path, e.content) for e in trajectory.file_edits()] == [("calc.py", "x = 1\n")]
    assert [c.command for c in trajectory.commands()] == ["curl x"]
    assert parsed.metadata["skipped_lines"] == 1


def test_codex_exec_json_events():
    stdout = _stream(
        {"type": "thread.started", "thread_id": "th1"},
        {"type": "turn.started"},
        {"type": "item.completed", "item": {"id": "i0", "type": "reasoning", "text": "hm"}},
        {"type": "item.completed", "item": {"id": "i1", "type": "command_execution",
                                            "command": "bash -lc ls", "exit_code": 0}},
        {"type": "item.completed", "item": {"id": "i2", "type": "file_change",
                                            "changes": [{"path": f"{WS}/a.py", "kind": "update"}]}},
        {"type": "item.completed", "item": {"id": "i3", "type": "agent_message", "text": "done"}},
        {"type": "turn.completed", "usage": {"input_tokens": 1}},
    )  # fmt: skip
    parsed, trajectory = _parse("codex", stdout)
    assert parsed.answer == "done"
    assert parsed.metadata["session_id"] == "th1"
    assert [c.command for c in trajectory.commands()] == ["bash -lc ls"]
    assert parsed.steps[1]["args"] == {"path": "a.py", "kind": "update"}
    assert trajectory.file_edits() == ()  # the content is on disk, nothing to replay


def test_goose_stream_json():
    stdout = _stream(
        {"type": "message", "message": {"role": "assistant", "content": [
            {"type": "text", "text": "Looking."},
            {"type": "toolRequest", "id": "t1", "toolCall": {"status": "success", "value": {
                "name": "developer__text_editor",
                "arguments": {"command": "write", "path": f"{WS}/n.py", "file_text": "n = 2\n"}}}},
            {"type": "toolRequest", "id": "t2", "toolCall": {"status": "success", "value": {
                "name": "developer__shell", "arguments": {"command": "pytest -q"}}}}]}},
        {"type": "message", "message": {"role": "assistant", "content": [
            {"type": "text", "text": "count: 2"}]}},
        {"type": "complete", "total_tokens": 10},
    )  # fmt: skip
    parsed, trajectory = _parse("goose", stdout)
    assert parsed.answer == "count: 2"
    assert [(e.path, e.content) for e in trajectory.file_edits()] == [("n.py", "n = 2\n")]
    assert [c.command for c in trajectory.commands()] == ["pytest -q"]


def test_aider_chat_history(tmp_path):
    (tmp_path / "aider.chat.md").write_text(
        "# aider chat started at 2026-11-30 12:00:00\n\n"
        "> aider --message ...\n\n"
        "#### Rename old_total\n\n"
        "I renamed it.\n\n"
        "calc.py\n```python\n<<<<<<< SEARCH\nold_total\n=======\ntotal\n>>>>>>> REPLACE\n```\n\n"
        "> Applied edit to calc.py\n"
        "> Running python -m pytest -q\n\n"
        "#### Count the files\n\n"
        "count: 3\n"
    )
    parsed, trajectory = _parse("aider", "ignored stdout", tmp_path)
    assert parsed.answer == "count: 3"
    assert [s["args"] for s in parsed.steps] == [{"path": "calc.py"},
                                                 {"command": "python -m pytest -q"}]  # fmt: skip
    assert [c.command for c in trajectory.commands()] == ["python -m pytest -q"]


def test_unparsable_output_yields_no_steps_and_names_the_problem():
    parsed, _ = _parse("claude-code", "Error: not logged in\n")
    assert parsed.steps == [] and parsed.answer is None
    assert parsed.metadata["parse_error"] == "no JSON lines on stdout"
