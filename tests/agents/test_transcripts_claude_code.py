"""Claude Code session JSONL → trajectory: kept and dropped tools, paths, failures, answer."""

from __future__ import annotations

from typing import Any

import pytest

from benchwright.agents.transcripts import import_transcript
from benchwright.checks.no_network import DEFAULT_PATTERNS
from benchwright.errors import SpecError

ROOT = "/home/dev/proj"


def user(text: str, cwd: str = ROOT) -> dict[str, Any]:
    return {
        "type": "user",
        "cwd": cwd,
        "sessionId": "s-1",
        "version": "1.0.98",
        "message": {"role": "user", "content": text},
    }


def assistant(*blocks: dict[str, Any], cwd: str = ROOT, **fields: Any) -> dict[str, Any]:
    message = {"role": "assistant", "model": "claude-sonnet-4", "content": list(blocks)}
    return {"type": "assistant", "cwd": cwd, "sessionId": "s-1", "message": message, **fields}


def tool_use(id_: str, name: str, **input_: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": id_, "name": name, "input": input_}


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def result(id_: str, content: str, is_error: bool = False) -> dict[str, Any]:
    block = {"type": "tool_result", "tool_use_id": id_, "content": content, "is_error": is_error}
    return {"type": "user", "cwd": ROOT, "message": {"role": "user", "content": [block]}}


INITIAL = {"calc.py": "def add(a, b):\n    return a - b\n", "README.md": "hello\n"}

SESSION = [
    {"type": "summary", "summary": "Fix add", "leafUuid": "u0"},
    user("fix add() and test it"),
    assistant(text("Let me look."), tool_use("t1", "Read", file_path=f"{ROOT}/calc.py")),
    result("t1", "def add(a, b):\n    return a - b\n"),
    assistant(
        tool_use("t2", "Edit", file_path=f"{ROOT}/calc.py", old_string="a - b", new_string="a + b")
    ),
    assistant(tool_use("t3", "Write", file_path=f"{ROOT}/tests/test_calc.py", content="x = 1\n")),
    assistant(
        tool_use(
            "t4",
            "MultiEdit",
            file_path=f"{ROOT}/README.md",
            edits=[
                {"old_string": "hello", "new_string": "Hello"},
                {"old_string": "Hello\n", "new_string": "Hello, world\n"},
            ],
        )
    ),
    # the agent cd'ed into tests/: cwd follows, the workspace root does not
    assistant(tool_use("t5", "Bash", command="python -m pytest -q"), cwd=f"{ROOT}/tests"),
    assistant(
        tool_use(
            "t6",
            "Edit",
            file_path=f"{ROOT}/tests/test_calc.py",
            old_string="x = 1",
            new_string="x = 2",
        ),
        cwd=f"{ROOT}/tests",
    ),
    assistant(tool_use("t7", "TodoWrite", todos=[{"content": "fix", "status": "done"}])),
    assistant(tool_use("t8", "WebFetch", url="https://docs.python.org/3/", prompt="operators")),
    assistant(text("Fixed add(); the tests pass.")),
]


def test_a_session_becomes_replayable_steps(imported, replayed):
    document, trajectory = imported("claude-code", SESSION)

    assert [s["tool"] for s in document["steps"]] == [
        "Edit", "Write", "MultiEdit", "Bash", "Edit", "WebFetch",
    ]  # fmt: skip
    assert [(e.path, e.kind) for e in trajectory.file_edits()] == [
        ("calc.py", "replace"),
        ("tests/test_calc.py", "write"),
        ("README.md", "replace"),
        ("tests/test_calc.py", "replace"),
    ]
    assert [c.command for c in trajectory.commands()] == ["python -m pytest -q"]
    assert trajectory.answer == "Fixed add(); the tests pass."
    assert document["metadata"] == {
        "cwd": ROOT,
        "session_id": "s-1",
        "agent_version": "1.0.98",
        "model": "claude-sonnet-4",
        "dropped_tools": {"Read": 1, "TodoWrite": 1},
        "source_format": "claude-code",
        "imported_from": document["metadata"]["imported_from"],
    }
    files, errors = replayed(INITIAL, trajectory)
    assert errors == ()
    assert files == {
        "calc.py": "def add(a, b):\n    return a + b\n",
        "README.md": "Hello, world\n",
        "tests/test_calc.py": "x = 2\n",
    }


def test_network_tools_stay_visible_to_no_network(imported):
    _, trajectory = imported("claude-code", SESSION)

    found = trajectory.find_network_violations(DEFAULT_PATTERNS)

    assert {(v.step_index, v.tool) for v in found} == {(5, "WebFetch")}
    assert "https://" in {v.pattern for v in found}


def test_an_edit_the_tool_refused_is_kept_but_not_replayed(imported, replayed):
    _, trajectory = imported(
        "claude-code",
        [
            user("go"),
            assistant(
                tool_use(
                    "t1", "Edit", file_path=f"{ROOT}/calc.py", old_string="a * b", new_string="x"
                )
            ),
            result("t1", "String to replace not found in file.\nString: a * b", is_error=True),
            assistant(
                tool_use(
                    "t2",
                    "Edit",
                    file_path=f"{ROOT}/calc.py",
                    old_string="a - b",
                    new_string="a + b",
                )
            ),
            # a failed command still ran: it stays a command
            assistant(tool_use("t3", "Bash", command="curl -s example.org")),
            result("t3", "curl: (6) Could not resolve host", is_error=True),
        ],
    )

    failed = trajectory.steps[0]
    assert (failed["type"], failed["tool"], failed["agent_tool"]) == (
        "failed_tool_call", "failed:Edit", "Edit",
    )  # fmt: skip
    assert failed["error"] == "String to replace not found in file."
    assert [e.step_index for e in trajectory.file_edits()] == [1]
    assert [c.command for c in trajectory.commands()] == ["curl -s example.org"]
    files, errors = replayed(INITIAL, trajectory)
    assert errors == ()
    assert files["calc.py"] == "def add(a, b):\n    return a + b\n"


def test_a_path_outside_the_session_cwd_stays_absolute_and_replay_refuses_it(imported, replayed):
    _, trajectory = imported(
        "claude-code",
        [
            user("go"),
            assistant(tool_use("t1", "Write", file_path="/home/dev/other/x.py", content="")),
        ],
    )

    assert trajectory.file_edits()[0].path == "/home/dev/other/x.py"
    _, errors = replayed(INITIAL, trajectory)
    assert [e.reason for e in errors] == ["path is outside the workspace"]


def test_repeated_tool_use_ids_of_a_resumed_session_count_once(imported):
    edit = tool_use("t1", "Write", file_path=f"{ROOT}/a.txt", content="a\n")

    document, _ = imported(
        "claude-code", [user("go"), assistant(edit), user("again"), assistant(edit)]
    )

    assert len(document["steps"]) == 1


def test_sidechain_steps_are_kept_but_their_text_is_not_the_answer(imported):
    document, trajectory = imported(
        "claude-code",
        [
            user("go"),
            assistant(text("Delegating."), tool_use("t1", "Task", prompt="write a.txt")),
            assistant(
                text("sub-agent done"),
                tool_use("t2", "Write", file_path=f"{ROOT}/a.txt", content="a\n"),
                isSidechain=True,
            ),
        ],
    )

    assert [(s["tool"], s.get("sidechain")) for s in document["steps"]] == [
        ("Task", None), ("Write", True),
    ]  # fmt: skip
    assert trajectory.answer == "Delegating."


def test_the_result_line_of_stream_json_gives_the_answer(imported):
    _, trajectory = imported(
        "claude-code",
        [
            {"type": "system", "subtype": "init", "cwd": ROOT, "session_id": "s-2"},
            assistant(text("working")),
            {"type": "result", "subtype": "success", "result": "All done."},
        ],
    )

    assert trajectory.answer == "All done."
    assert trajectory.metadata["session_id"] == "s-2"


def test_a_malformed_line_is_named(transcript, tmp_path):
    source = transcript([user("go"), '{"type": "assistant", "message": {', user("more")])

    with pytest.raises(SpecError) as caught:
        import_transcript("claude-code", source, tmp_path / "t.json")

    assert caught.value.source == str(source)
    assert caught.value.problems == [
        ("line 2", "invalid JSON at column 35: Expecting property name enclosed in double quotes")
    ]
    assert not (tmp_path / "t.json").exists()


def test_a_tool_use_with_a_non_object_input_is_named(transcript, tmp_path):
    bad = assistant({"type": "tool_use", "id": "t1", "name": "Write", "input": "a.txt"})

    with pytest.raises(SpecError) as caught:
        import_transcript("claude-code", transcript([user("go"), bad]), tmp_path / "t.json")

    assert caught.value.problems == [("line 2", "tool_use 'Write': input must be an object")]


def test_a_write_without_content_is_named_by_line_and_field(transcript, tmp_path):
    bad = assistant(tool_use("t1", "Write", file_path=f"{ROOT}/a.txt"))

    with pytest.raises(SpecError) as caught:
        import_transcript("claude-code", transcript([user("go"), bad]), tmp_path / "t.json")

    [(where, message)] = caught.value.problems
    assert where == "line 2"
    assert message.startswith("args.content: required for write tool 'Write'")


def test_a_codex_rollout_is_not_taken_for_a_claude_session(transcript, tmp_path):
    rollout = [{"type": "session_meta", "payload": {"cwd": ROOT}}]

    with pytest.raises(SpecError, match="no Claude Code session line"):
        import_transcript("claude-code", transcript(rollout), tmp_path / "t.json")
