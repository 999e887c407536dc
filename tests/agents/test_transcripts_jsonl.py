"""Generic JSONL → trajectory: field aliases, verbatim non-tool lines, answer and metadata."""

from __future__ import annotations

import pytest

from benchwright.agents.transcripts import import_transcript
from benchwright.checks.no_network import DEFAULT_PATTERNS
from benchwright.errors import SpecError

LINES = [
    {"type": "metadata", "agent": "my-harness", "model": "m1"},
    {"tool": "write_file", "args": {"path": "src/a.py", "content": "A = 1\n"}},
    {
        "name": "str_replace",
        "arguments": '{"path": "src/a.py", "old_str": "A = 1", "new_str": "A = 2"}',
    },
    {"tool_name": "run_command", "input": {"cmd": "pytest -q"}},
    {"type": "function", "function": {"name": "bash", "arguments": '{"command": "ls"}'}},
    {"kind": "file_delete", "parameters": {"path": "old.txt"}},
    {"role": "assistant", "content": "see https://example.com/docs"},
    {"type": "answer", "text": "A is 2 now."},
]


def test_every_alias_becomes_a_step(imported, replayed):
    document, trajectory = imported("jsonl", LINES)

    assert [(s.get("type"), s.get("tool")) for s in document["steps"]] == [
        ("tool_call", "write_file"),
        ("tool_call", "str_replace"),
        ("tool_call", "run_command"),
        ("tool_call", "bash"),
        ("file_delete", None),
        (None, None),
    ]
    assert [c.command for c in trajectory.commands()] == ["pytest -q", "ls"]
    assert trajectory.answer == "A is 2 now."
    assert trajectory.metadata["agent"] == "my-harness"
    assert trajectory.metadata["source_format"] == "jsonl"
    files, errors = replayed({"old.txt": "x\n"}, trajectory)
    assert errors == ()
    assert files == {"src/a.py": "A = 2\n"}


def test_a_line_that_is_not_a_tool_call_is_kept_for_the_network_scan(imported):
    document, trajectory = imported("jsonl", LINES)

    assert document["steps"][5] == {"role": "assistant", "content": "see https://example.com/docs"}
    found = trajectory.find_network_violations(DEFAULT_PATTERNS)
    assert [(v.step_index, v.pattern) for v in found] == [(5, "https://")]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            {"tool": "Write", "args": "{not json"},
            "Write arguments: invalid JSON string: Expecting property name enclosed in double"
            " quotes (--lenient keeps it as an opaque step)",
        ),
        ({"tool": "Write", "args": [1]}, "Write arguments: must be an object, not an array"),
        ({"tool": 7, "args": {}}, "the tool name must be a non-empty string"),
        ({"type": "answer", "answer": 42}, "answer line: needs a string answer, text or content"),
        (
            {"tool": "Write", "args": {"content": "x"}},
            "args.path: required for file tool 'Write' (path | file_path | target_file)",
        ),
        (
            {"type": "command", "args": {}},
            "args.command: required for a 'type: command' step (command | cmd)",
        ),
    ],
)
def test_a_line_that_cannot_be_converted_is_named(transcript, tmp_path, line, message):
    source = transcript([{"tool": "bash", "args": {"command": "ls"}}, line])

    with pytest.raises(SpecError) as caught:
        import_transcript("jsonl", source, tmp_path / "t.json")

    assert caught.value.problems == [("line 2", message)]


def test_every_invalid_step_is_reported_at_once(transcript, tmp_path):
    source = transcript([{"tool": "Write", "args": {}}, {"tool": "Bash", "args": {}}])

    with pytest.raises(SpecError) as caught:
        import_transcript("jsonl", source, tmp_path / "t.json")

    assert [where for where, _ in caught.value.problems] == ["line 1", "line 2"]
