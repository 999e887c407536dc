"""Exit codes of the real console script on invalid input: 2, named, and nothing run.

"No task found" is exit 2, never a pass: an empty gate must not turn CI green.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import dump

from benchwright.errors import EXIT_INVALID, EXIT_PASSED

pytestmark = pytest.mark.slow

TASK = {
    "id": "hello",
    "name": "Hello",
    "description": "",
    "prompt": "Write hello.py.",
    "workspace": {"hello.py": "print('hi')\n"},
    "oracles": [{"type": "no_network"}],
}
TRAJECTORY = {"steps": [{"tool": "Write", "args": {"path": "hello.py", "content": "print(1)\n"}}]}


def _assert_invalid(proc, *fragments: str) -> None:
    assert proc.returncode == EXIT_INVALID, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert "passed" not in proc.stdout.lower()
    for fragment in fragments:
        assert fragment in proc.stderr, proc.stderr


def test_gate_on_an_empty_tasks_dir_is_exit_2_not_a_pass(cli, tmp_path):
    (tmp_path / "empty").mkdir()
    dump(tmp_path / "t.json", TRAJECTORY)
    proc = cli("gate", "--tasks", "empty", "--trajectory", "t.json", "--json", "r.json")
    _assert_invalid(proc, "error: empty: no task file found")
    assert not (tmp_path / "r.json").exists()


def test_gate_on_a_dir_of_only_fixtures_and_trajectories_is_exit_2(cli, tmp_path):
    dump(tmp_path / "tasks" / "fixtures" / "hello.json", TASK)
    dump(tmp_path / "tasks" / "recorded.json", TRAJECTORY)
    dump(tmp_path / "t.json", TRAJECTORY)
    proc = cli("gate", "--tasks", "tasks", "--trajectory", "t.json")
    _assert_invalid(proc, "no task file found")


def test_gate_on_a_missing_tasks_dir_is_exit_2(cli, tmp_path):
    dump(tmp_path / "t.json", TRAJECTORY)
    proc = cli("gate", "--tasks", "nope", "--trajectory", "t.json")
    _assert_invalid(proc, "error: nope: no such file or directory")


def test_gate_without_tasks_or_manifest_is_exit_2(cli, tmp_path):
    dump(tmp_path / "t.json", TRAJECTORY)
    _assert_invalid(cli("gate", "--trajectory", "t.json"), "--tasks DIR or --manifest FILE")


def test_gate_validates_every_task_before_running_any(cli, tmp_path):
    marker = tmp_path / "a-check-ran"
    good = {
        **TASK,
        "oracles": [{"type": "test_must_pass", "command": f"touch {marker}"}],
    }
    dump(tmp_path / "tasks" / "a_good.json", good)
    dump(tmp_path / "tasks" / "b_bad.json", {**TASK, "id": "bad", "oracles": [{"type": "nope"}]})
    dump(tmp_path / "t.json", TRAJECTORY)
    proc = cli("gate", "--tasks", "tasks", "--trajectory", "t.json", "--json", "r.json")
    _assert_invalid(proc, "tasks/b_bad.json: oracles[0].type: unknown check type 'nope'")
    assert not marker.exists()
    assert not (tmp_path / "r.json").exists()


def test_gate_with_a_manifest_naming_a_missing_task_is_exit_2(cli, tmp_path):
    dump(tmp_path / "tasks" / "hello.json", TASK)
    (tmp_path / "m.yaml").write_text("task_files: [tasks/hello.json, tasks/gone.json]\n")
    dump(tmp_path / "t.json", TRAJECTORY)
    proc = cli("gate", "--manifest", "m.yaml", "--trajectory", "t.json")
    _assert_invalid(proc, "error: m.yaml: task_files[1]: file not found: tasks/gone.json")


def test_gate_with_a_trajectory_dir_missing_a_task_is_exit_2(cli, tmp_path):
    dump(tmp_path / "tasks" / "hello.json", TASK)
    (tmp_path / "traj").mkdir()
    proc = cli("gate", "--tasks", "tasks", "--trajectory", "traj")
    _assert_invalid(proc, "error: traj: no trajectory for task 'hello'")


def test_run_with_a_missing_task_file_is_exit_2_naming_it(cli, tmp_path):
    dump(tmp_path / "t.json", TRAJECTORY)
    proc = cli("run", "--task", "tasks/missing.json", "--trajectory", "t.json")
    _assert_invalid(proc, "error: tasks/missing.json: file not found")


def test_run_with_a_missing_trajectory_is_exit_2_naming_it(cli, tmp_path):
    dump(tmp_path / "task.json", TASK)
    proc = cli("run", "--task", "task.json", "--trajectory", "gone.json")
    _assert_invalid(proc, "error: gone.json: file not found")


def test_run_with_an_invalid_trajectory_is_exit_2(cli, tmp_path):
    dump(tmp_path / "task.json", TASK)
    dump(tmp_path / "t.json", {"steps": [{"tool": "Write", "args": {"content": "x"}}]})
    proc = cli("run", "--task", "task.json", "--trajectory", "t.json")
    _assert_invalid(proc, "error: t.json: steps[0].args.path: required for file tool 'Write'")


def test_run_with_a_valid_pair_passes(cli, tmp_path):
    dump(tmp_path / "task.json", TASK)
    dump(tmp_path / "t.json", TRAJECTORY)
    proc = cli("run", "--task", "task.json", "--trajectory", "t.json")
    assert proc.returncode == EXIT_PASSED, proc.stdout + proc.stderr


def _good_suite(root: Path) -> None:
    dump(root / "tasks" / "hello.json", TASK)
    (root / "tasks" / "calc.yaml").write_text(
        "id: calc\nprompt: p\nfixture: fixtures/calc\nchecks: [{type: no_network}]\n"
    )
    dump(root / "tasks" / "fixtures" / "calc" / "package.json", {"name": "not-a-task"})
    dump(root / "trajectories" / "hello.json", TRAJECTORY)
    (root / "gate.yaml").write_text("task_files: [tasks/hello.json]\n")


def test_validate_a_good_suite_exits_0_with_a_summary(cli, tmp_path):
    _good_suite(tmp_path)
    proc = cli("validate", ".")
    assert proc.returncode == EXIT_PASSED, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.splitlines() == [
        "valid: 2 tasks, 1 trajectory, 1 manifest",
        "skipped 1 file(s) that are not suite documents: 1 inside fixture or reference folders",
    ]  # the fixture's package.json


def test_validate_an_empty_dir_is_exit_2(cli, tmp_path):
    (tmp_path / "empty").mkdir()
    _assert_invalid(cli("validate", "empty"), "no task, trajectory or manifest file found")


def test_validate_lists_every_invalid_file_and_exits_2(cli, tmp_path):
    _good_suite(tmp_path)
    dump(tmp_path / "tasks" / "x.json", {**TASK, "id": "x", "workspace": {}})
    (tmp_path / "tasks" / "y.yaml").write_text(
        "id: y\nprompt: p\nworkspace: {a.py: x}\n"
        "oracles:\n  - type: no_network\n  - type: no_network\n"
        "  - type: assertion_exists\n    path: a.py\n"
    )
    proc = cli("validate", "tasks", "trajectories")
    _assert_invalid(
        proc,
        "error: tasks/x.json: workspace: must not be empty",
        "error: tasks/y.yaml: oracles[2].pattern: required by assertion_exists",
    )
    assert proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 2
