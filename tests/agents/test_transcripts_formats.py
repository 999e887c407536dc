"""``--from auto`` detection, aider and goose imports, ``--lenient``, hints and warnings.

The transcripts are under tests/data (written for these tests): a Claude Code session
that cheats, a goose stream, an aider chat history, Codex rollouts (one sanitised,
its first call's arguments cut off where a secret was redacted).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchwright.agents.transcripts import detect_format, import_transcript
from benchwright.checks.no_network import DEFAULT_PATTERNS
from benchwright.dsl import load_trajectory
from benchwright.errors import SpecError

DATA = Path(__file__).parent.parent / "data"
CLAUDE = DATA / "watch" / "claude-project" / "5e55-cheat.jsonl"
CODEX = next((DATA / "watch" / "codex-sessions").rglob("rollout-*.jsonl"))
SANITISED = DATA / "transcripts" / "codex-sanitised.jsonl"
GOOSE = DATA / "transcripts" / "goose.jsonl"
AIDER = DATA / "transcripts" / "aider.chat.md"


@pytest.mark.parametrize(
    ("source", "fmt"),
    [(CLAUDE, "claude-code"), (CODEX, "codex"), (SANITISED, "codex"), (GOOSE, "goose"),
     (AIDER, "aider")],
)  # fmt: skip
def test_auto_detects_the_format_and_records_it(tmp_path, source, fmt):
    assert detect_format(source.read_text()) == fmt
    document = import_transcript("auto", source, tmp_path / "t.json", lenient=True)
    assert document["metadata"]["source_format"] == fmt


def test_generic_lines_and_prose_are_told_apart():
    assert detect_format('{"tool": "bash", "args": {"command": "ls"}}\n') == "jsonl"
    assert detect_format("just some notes\nno json here\n") is None


def test_goose_import_reuses_the_preset_parser(tmp_path):
    document = import_transcript("goose", GOOSE, tmp_path / "t.json")
    assert [(s["tool"], s["agent_tool"]) for s in document["steps"]] == [
        ("str_replace", "developer__text_editor"),
        ("shell", "developer__shell"),
    ]
    assert document["answer"] == "add() adds now."
    edits = load_trajectory(tmp_path / "t.json").file_edits()
    assert [(e.path, e.replacements[0].new) for e in edits] == [("calc.py", "a + b")]


def test_aider_import_reads_the_chat_history_markdown(tmp_path):
    document = import_transcript("aider", AIDER, tmp_path / "t.json")
    assert [s["tool"] for s in document["steps"]] == ["file_change", "shell"]
    assert document["steps"][0]["args"] == {"path": "calc.py"}
    assert document["steps"][1]["args"] == {"command": "python -m pytest -q"}
    assert document["answer"].startswith("I will change the subtraction")
    assert document["answer"].endswith("The fix is in: add() now adds.")
    assert [c.command for c in load_trajectory(tmp_path / "t.json").commands()] == [
        "python -m pytest -q"
    ]


def test_redacted_arguments_fail_the_import_and_say_lenient_keeps_them(tmp_path):
    with pytest.raises(SpecError) as caught:
        import_transcript("codex", SANITISED, tmp_path / "t.json")
    [(where, message)] = caught.value.problems
    assert where == "line 3"
    assert message.startswith("exec_command arguments: invalid JSON string: ")
    assert message.endswith("(--lenient keeps it as an opaque step)")
    assert not (tmp_path / "t.json").exists()


def test_lenient_keeps_an_opaque_step_that_no_network_still_scans(tmp_path):
    warnings: list[str] = []
    document = import_transcript(
        "codex", SANITISED, tmp_path / "t.json", lenient=True, warn=warnings.append
    )
    opaque, shell = document["steps"]
    assert opaque["tool"] == "opaque:exec_command" and opaque["type"] == "opaque_tool_call"
    assert opaque["args"]["raw"].startswith('{"cmd": "curl -s https://example.com/answers')
    assert shell["args"]["command"] == "python -m pytest -q"
    assert warnings == [
        f"{SANITISED}: line 3: exec_command arguments: invalid JSON string: "
        "Unterminated string starting at: kept as an opaque step"
    ]
    trajectory = load_trajectory(tmp_path / "t.json")
    assert trajectory.file_edits() == () and len(trajectory.commands()) == 1
    found = trajectory.find_network_violations(DEFAULT_PATTERNS)
    assert {(v.step_index, v.pattern) for v in found} >= {(0, "curl"), (0, "https://")}


def test_lenient_generic_jsonl_keeps_the_whole_line(tmp_path):
    source = tmp_path / "log.jsonl"
    source.write_text('{"tool": "fetch", "arguments": "{\\"url\\": \\"https://x.example"}\n')
    with pytest.raises(SpecError, match="fetch arguments: invalid JSON string"):
        import_transcript("jsonl", source, tmp_path / "t.json")
    document = import_transcript("jsonl", source, tmp_path / "t.json", lenient=True)
    [step] = document["steps"]
    assert step["tool"] == "opaque:fetch" and step["args"]["raw"]["tool"] == "fetch"


def test_a_wrong_from_names_the_detected_format(tmp_path):
    with pytest.raises(SpecError) as caught:
        import_transcript("codex", CLAUDE, tmp_path / "t.json")
    assert caught.value.problems == [
        ("", "no Codex rollout line (session_meta/response_item) found "
             "(this looks like claude-code: try --from claude-code)")
    ]  # fmt: skip
    with pytest.raises(SpecError, match=r"\(this looks like goose: try --from goose\)"):
        import_transcript("claude-code", GOOSE, tmp_path / "t.json")


def test_an_import_without_a_tool_step_warns_with_the_likely_format(tmp_path):
    warnings: list[str] = []
    document = import_transcript("jsonl", CLAUDE, tmp_path / "t.json", warn=warnings.append)
    assert len(document["steps"]) == 13
    assert warnings == [
        f"{CLAUDE}: no tool step among 13 step(s) read as jsonl "
        "(this looks like claude-code: try --from claude-code)"
    ]
    warnings.clear()
    import_transcript("claude-code", CLAUDE, tmp_path / "t.json", warn=warnings.append)
    assert warnings == []


def test_the_cli_defaults_to_auto_and_prints_warnings(cli, tmp_path):
    shutil.copy(SANITISED, tmp_path / "rollout.jsonl")
    done = cli("trajectory", "import", "rollout.jsonl", "-o", "t.json")
    assert done.returncode == 2
    assert "error: rollout.jsonl: line 3: exec_command arguments: invalid JSON" in done.stderr
    done = cli("trajectory", "import", "rollout.jsonl", "-o", "t.json", "--lenient")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "wrote t.json: 2 step(s) from codex\n"
    assert "warning: rollout.jsonl: line 3: " in done.stderr
    assert json.loads((tmp_path / "t.json").read_text())["steps"][0]["tool"] == (
        "opaque:exec_command"
    )
    done = cli("trajectory", "import", str(CLAUDE), "--from", "jsonl", "-o", "j.json")
    assert done.returncode == 0
    assert "(this looks like claude-code: try --from claude-code)" in done.stderr
