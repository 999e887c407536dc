"""goose session files (``~/.local/share/goose/sessions/<id>.jsonl``) imported as goose.

The session under tests/data was written for these tests in goose's session-file shape: a
metadata line, then one ``{"role", "created", "content"}`` message per line, tool requests
answered by ``toolResponse`` blocks with the same id. It holds an edit goose refused, a
view, a request goose could not parse, and a test run whose output prints a URL.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchwright.agents.transcripts import detect_format, import_transcript
from benchwright.checks.no_network import DEFAULT_PATTERNS
from benchwright.dsl import load_trajectory

SESSION = Path(__file__).parent.parent / "data" / "transcripts" / "goose-session.jsonl"
TEST_FILE = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
STEPS = [
    ("failed:developer__text_editor", {"path": "calc.py", "old_str": "return a-b",
                                       "new_str": "return a+b"}),
    ("str_replace", {"path": "calc.py", "old_str": "return a - b", "new_str": "return a + b"}),
    ("Write", {"path": "tests/test_add.py", "content": TEST_FILE}),
    ("shell", {"command": "cd /home/dev/calc && python -m pytest -q"}),
]  # fmt: skip


@pytest.mark.parametrize("fmt", ["auto", "goose"])
def test_a_session_file_imports_as_goose_with_its_tool_calls(tmp_path, fmt):
    assert detect_format(SESSION.read_text()) == "goose"
    document = import_transcript(fmt, SESSION, tmp_path / "t.json")
    assert [(s["tool"], s["args"]) for s in document["steps"]] == STEPS
    assert {s["agent_tool"] for s in document["steps"]} == {
        "developer__text_editor", "developer__shell"
    }  # fmt: skip
    assert document["answer"] == "add() adds now, and tests/test_add.py checks it: 2 passed."
    assert document["metadata"] == {
        "description": "Fix add in calc",
        "cwd": "/home/dev/calc",
        "dropped_tools": {"developer__text_editor:view": 1,
                          "(tool call goose could not parse)": 1},
        "usage": {"input_tokens": 30412, "output_tokens": 1465, "total_tokens": 31877,
                  "cost_usd": None},
        "source_format": "goose",
        "imported_from": str(SESSION),
    }  # fmt: skip


def test_the_edit_goose_refused_is_paired_by_id_and_not_replayed(tmp_path, replayed):
    import_transcript("goose", SESSION, tmp_path / "t.json")
    trajectory = load_trajectory(tmp_path / "t.json")
    failed = trajectory.steps[0]
    assert failed["type"] == "failed_tool_call"
    assert failed["error"].startswith("No match found for the specified `old_str`.")
    files, errors = replayed({"calc.py": "def add(a, b):\n    return a - b\n"}, trajectory)
    assert errors == ()
    assert files["calc.py"] == "def add(a, b):\n    return a + b\n"
    assert files["tests/test_add.py"].endswith("assert add(2, 3) == 5\n")


def test_tool_output_is_not_read_as_the_agent_reaching_the_network(tmp_path):
    """The test run printed a docs URL: that is the tool's output, not a request."""
    import_transcript("goose", SESSION, tmp_path / "t.json")
    trajectory = load_trajectory(tmp_path / "t.json")
    assert trajectory.find_network_violations(DEFAULT_PATTERNS) == []


def test_token_counts_fall_back_to_the_plain_ones_and_a_bad_one_is_named(tmp_path):
    lines = SESSION.read_text().splitlines(keepends=True)
    header = {"working_dir": "/home/dev/calc", "description": "old", "message_count": 13,
              "total_tokens": 900}  # fmt: skip
    source = tmp_path / "old.jsonl"
    source.write_text(json.dumps(header) + "\n" + "".join(lines[1:]))
    document = import_transcript("auto", source, tmp_path / "t.json")
    assert document["metadata"]["usage"] == {"total_tokens": 900, "cost_usd": None}
    source.write_text(json.dumps({**header, "accumulated_input_tokens": -1}) + "\n")
    document = import_transcript("goose", source, tmp_path / "t.json", warn=lambda m: None)
    assert "usage" not in document["metadata"]
    assert document["metadata"]["usage_error"] == (
        "line 1: usage.accumulated_input_tokens: not a token count: -1"
    )


def test_a_session_without_its_metadata_line_still_imports(tmp_path):
    source = tmp_path / "s.jsonl"
    source.write_text("".join(SESSION.read_text().splitlines(keepends=True)[1:]))
    document = import_transcript("auto", source, tmp_path / "t.json")
    assert document["metadata"]["source_format"] == "goose"
    assert [s["tool"] for s in document["steps"]] == [tool for tool, _ in STEPS]
    assert document["steps"][1]["args"]["path"] == "/home/dev/calc/calc.py"  # no root: absolute


def test_the_cli_imports_a_session_file_as_goose(cli, tmp_path):
    shutil.copy(SESSION, tmp_path / "20251130_101500.jsonl")
    for extra in ([], ["--from", "goose"]):
        done = cli("trajectory", "import", "20251130_101500.jsonl", "-o", "t.json", *extra)
        assert (done.returncode, done.stdout, done.stderr) == (
            0, "wrote t.json: 4 step(s) from goose\n", ""
        )  # fmt: skip
    done = cli("trajectory", "import", "20251130_101500.jsonl", "-o", "j.json", "--from", "jsonl")
    assert done.returncode == 0
    assert done.stderr.endswith("(this looks like goose: try --from goose)\n")
