"""``replay:`` as an agent: a recording applied to the real workspace, then graded live."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchwright.agents import build_agent
from benchwright.dsl import load_suite
from benchwright.errors import SpecErrors
from benchwright.execution import TrialOptions, run_trial

MINISUITE = Path(__file__).resolve().parents[1] / "data" / "minisuite"
FIX = {
    "tool": "Edit",
    "args": {"file_path": "mathx.py", "old_string": "x + 2", "new_string": "x * 2"},
}


def _trial(tmp_path, step):
    (tmp_path / "fix-double.json").write_text(json.dumps({"steps": [step]}))
    suite = load_suite(MINISUITE)
    task = suite.task("fix-double")
    agent = build_agent(f"replay:{tmp_path}", [task])
    return run_trial(task, "correctness", agent, 1, TrialOptions())


def test_a_replayed_fix_passes(tmp_path):
    result = _trial(tmp_path, FIX)
    assert result.verdict == "passed", result.checks
    assert result.trajectory["steps"][0]["tool"] == "Edit"


def test_a_stale_recording_fails_with_its_replay_error(tmp_path):
    stale = {**FIX, "args": {**FIX["args"], "old_string": "x - 2"}}
    result = _trial(tmp_path, stale)
    assert result.verdict == "failed"
    assert result.replay_errors == (
        "step 1 (Edit mathx.py): old_string not found in current content",
    )


def test_a_directory_without_the_tasks_recording_is_invalid_input(tmp_path):
    task = load_suite(MINISUITE).task("fix-double")
    with pytest.raises(SpecErrors, match="no trajectory for task 'fix-double'"):
        build_agent(f"replay:{tmp_path}", [task])
