"""``--agent oracle`` on a graded task without a solution: ``validate`` and ``run`` name it.

The oracle changes nothing in such a task, as ``nop`` would, so its failure there says
nothing of the task. Both commands warn, naming the task; under ``--strict`` both refuse
(exit 2), and ``run`` refuses before a run directory is made.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchwright.agents.builtin import unsolved_line

from .minisuites import make_suite

WARNING = ("1 task(s) with checks have no solution, so --agent oracle changes nothing in "
           "them, as nop would: unsolved")  # fmt: skip
CHECKS = [{"type": "answer_matches", "all_of": ["done"]}]


def _suite(root: Path) -> Path:
    workspace = {"notes.txt": "todo\n"}
    return make_suite(root / "suite", [
        {"id": "solved", "class": "nav", "workspace": workspace, "checks": CHECKS,
         "solution": {"answer": "done"}},
        {"id": "unsolved", "class": "nav", "workspace": workspace, "checks": CHECKS},
        {"id": "ungraded", "class": "nav", "workspace": workspace, "checks": []},
    ])  # fmt: skip


def test_validate_warns_naming_the_task_and_strict_refuses(cli, tmp_path):
    _suite(tmp_path)
    done = cli("validate", "suite")
    assert (done.returncode, done.stderr) == (0, f"warning: {WARNING}\n")
    assert done.stdout == "valid: 3 tasks, 1 suite\n"
    done = cli("validate", "suite", "--strict")
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"error: {WARNING} (--strict)\n")


def test_run_strict_refuses_before_a_run_directory_is_made(cli, tmp_path):
    _suite(tmp_path)
    done = cli("run", "suite", "--agent", "oracle", "--strict")
    assert (done.returncode, done.stderr) == (2, f"error: --agent oracle: {WARNING} (--strict)\n")
    assert not (tmp_path / "runs").exists()
    assert cli("run", "suite", "--agent", "oracle", "--strict", "--tasks", "solved").returncode == 0


@pytest.mark.slow
def test_run_warns_naming_the_task_then_runs(cli, tmp_path):
    _suite(tmp_path)
    done = cli("run", "suite", "--agent", "oracle")
    assert done.stderr.startswith(f"warning: {WARNING}\n"), done.stderr
    assert done.returncode == 1  # the unsolved task fails, as under nop
    assert "FAIL  unsolved #1" in done.stdout and "PASS  solved #1" in done.stdout
    [run_dir] = (tmp_path / "runs").iterdir()
    resumed = cli("run", "--resume", str(run_dir), "--strict")
    assert (resumed.returncode, resumed.stderr) == (
        2, f"error: --agent oracle: {WARNING} (--strict)\n"
    )  # fmt: skip
    assert cli("run", "--resume", str(run_dir)).stderr.startswith(f"warning: {WARNING}\n")
    assert "warning" not in cli("run", "suite", "--agent", "nop").stderr


def test_the_line_names_ten_tasks_then_counts_the_rest():
    line = unsolved_line([f"t{n}" for n in range(12)])
    assert line.startswith("12 task(s) with checks have no solution")
    assert line.endswith(": t0, t1, t2, t3, t4, t5, t6, t7, t8, t9 and 2 more")
