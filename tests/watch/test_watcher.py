"""`SessionWatcher` on real files that grow between polls, as an agent writes them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from benchwright.dsl import load_task
from benchwright.watch import SessionWatcher, rules_for
from benchwright.watch.tail import TailedFile

DATA = Path(__file__).parent.parent / "data" / "watch"
CHEAT = (DATA / "claude-project" / "5e55-cheat.jsonl").read_text().splitlines(keepends=True)
RULES = rules_for(load_task(DATA / "task.json"))


def _watcher(root: Path, **kw) -> tuple[SessionWatcher, list[str]]:
    warnings: list[str] = []
    return SessionWatcher(root, RULES, warn=warnings.append, **kw), warnings


def _append(path: Path, text: str) -> None:
    with path.open("a", encoding="utf-8") as handle:
        handle.write(text)


def test_each_step_alerts_once_in_the_poll_that_first_sees_it(tmp_path):
    session = tmp_path / "s.jsonl"
    watcher, warnings = _watcher(tmp_path)
    assert watcher.poll() == []  # no session yet
    _append(session, "".join(CHEAT[:5]))  # up to the honest edit of calc.py
    assert watcher.poll() == [] and watcher.steps == 1
    _append(session, "".join(CHEAT[5:7]))  # the edit of the protected test
    [edit] = watcher.poll()
    assert (
        str(edit)
        == "ALERT protected-file: s.jsonl step 2 (line 7): tests/test_calc.py edited (Edit)"
    )
    assert watcher.poll() == []  # nothing new, nothing repeated
    _append(session, "".join(CHEAT[7:]))
    [network] = watcher.poll()
    assert str(network) == "ALERT network: s.jsonl step 3 (line 9): Bash matched 'curl', 'https://'"
    assert watcher.steps == 4 and warnings == []


def test_a_half_written_line_waits_for_its_end(tmp_path):
    session = tmp_path / "s.jsonl"
    watcher, _ = _watcher(tmp_path)
    line = CHEAT[6]
    _append(session, "".join(CHEAT[:6]) + line[:40])
    assert watcher.poll() == []
    _append(session, line[40:])
    assert [a.alert.rule for a in watcher.poll()] == ["protected-file"]


def test_live_only_treats_what_is_there_as_history_but_new_sessions_as_new(tmp_path):
    old = tmp_path / "old.jsonl"
    old.write_text("".join(CHEAT[:9]))
    watcher, _ = _watcher(tmp_path, live_only=True)
    assert watcher.poll() == [] and watcher.steps == 3  # checked as context, no alert
    _append(old, "".join(CHEAT[9:]))
    assert watcher.poll() == []  # the rest of the cheating session is honest
    (tmp_path / "new.jsonl").write_text("".join(CHEAT))
    assert [(a.session, a.alert.rule) for a in watcher.poll()] == [
        ("new.jsonl", "protected-file"),
        ("new.jsonl", "network"),
    ]


def test_a_corrupt_line_is_skipped_with_a_warning_and_the_rest_still_alerts(tmp_path):
    bad = json.loads(CHEAT[4])
    bad["message"] = "not an object"
    (tmp_path / "s.jsonl").write_text("".join(CHEAT[:4]) + json.dumps(bad) + "\n"
                                      + "{truncated\n" + "".join(CHEAT[5:]))  # fmt: skip
    watcher, warnings = _watcher(tmp_path)
    assert [a.alert.rule for a in watcher.poll()] == ["protected-file", "network"]
    assert warnings == ["s.jsonl: line 5: assistant line: message must be an object: skipped"]


def test_codex_rollouts_are_followed_in_their_dated_directories(tmp_path):
    shutil.copytree(DATA / "codex-sessions", tmp_path / "sessions")
    watcher, _ = _watcher(tmp_path / "sessions")
    found = [str(a) for a in watcher.poll()]
    assert found[0].startswith(
        "ALERT protected-file: 2026/11/30/rollout-2026-11-30T10-00-00-r-cheat.jsonl step 1 "
        "(line 3): tests/test_calc.py may be written by a shell command (shell): sed -i "
    )
    assert found[1].endswith("step 2 (line 5): exec_command matched 'wget', 'https://'")


def test_other_agents_transcripts_are_named_once_and_left_alone(tmp_path):
    goose = DATA.parent / "transcripts" / "goose.jsonl"
    shutil.copy(goose, tmp_path / "goose.jsonl")
    watcher, warnings = _watcher(tmp_path)
    assert watcher.poll() == []
    _append(tmp_path / "goose.jsonl", goose.read_text())
    assert watcher.poll() == []
    assert warnings == ["goose.jsonl: a goose transcript, not a Claude Code or Codex session "
                        "or a model agent's trajectory: not watched"]  # fmt: skip


def test_a_model_agents_live_trajectory_alerts_as_its_shell_changes_a_test(tmp_path):
    """The model agent's own steps (``RUN_DIR/live/…``): a file a shell command changed is a
    ``write_file`` step, so the protected test alerts in the poll that first sees it."""
    live = tmp_path / "fix-add" / "main-20260101T000000-1.jsonl"
    live.parent.mkdir()
    header = {"type": "metadata", "format": "benchwright-model-agent", "metadata": {}}
    call = {"type": "model_call", "model": "m", "input_tokens": 3, "output_tokens": 1}
    shell = {"type": "tool_call", "tool": "shell", "agent_tool": "shell",
             "args": {"command": "python rewrite.py"}}  # fmt: skip
    wrote = {"type": "file_edit", "tool": "write_file",
             "args": {"path": "tests/test_calc.py", "content": "# gone\n"}}  # fmt: skip
    _append(live, "".join(json.dumps(line) + "\n" for line in (header, call, shell)))
    watcher, warnings = _watcher(tmp_path)
    assert watcher.poll() == [] and watcher.steps == 2
    _append(live, json.dumps(wrote) + "\n")
    [alert] = watcher.poll()
    assert alert.alert.detail == "tests/test_calc.py written (write_file)" and warnings == []
    assert alert.session == "fix-add/main-20260101T000000-1.jsonl" and alert.line == 4


def test_a_rewritten_file_is_read_again_from_the_start(tmp_path):
    path = tmp_path / "f.jsonl"
    path.write_text("one\ntwo\n")
    tail = TailedFile(path)
    assert tail.read_new() and tail.lines == ["one", "two"]
    path.write_text("3\n")
    assert tail.read_new() and tail.lines == ["3"]
    path.unlink()
    assert not tail.read_new()


def test_a_rewritten_session_is_checked_again_from_its_first_step(tmp_path):
    session = tmp_path / "s.jsonl"
    session.write_text("".join(CHEAT))
    watcher, _ = _watcher(tmp_path)
    assert len(watcher.poll()) == 2
    session.write_text("".join(CHEAT[:7]))  # shorter: a new session under the same name
    assert [str(a) for a in watcher.poll()] == [
        "ALERT protected-file: s.jsonl step 2 (line 7): tests/test_calc.py edited (Edit)"
    ]
    assert watcher.steps == 2
