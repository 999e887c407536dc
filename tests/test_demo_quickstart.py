"""``make demo-quickstart`` prints a summary per trajectory set, at most 40 lines (issue 18)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).parents[1]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_the_demo_prints_one_line_per_task_and_set_within_40_lines():
    # -o setup: the venv this test runs in is set up already; the target's own lines run.
    done = subprocess.run(
        ["make", "--no-print-directory", "-o", "setup", "demo-quickstart"],
        cwd=REPO, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    lines = (done.stdout + done.stderr).splitlines()
    assert len(lines) <= 40, "\n".join(lines)
    assert lines[0] == "valid: 9 tasks, 27 trajectories, 1 suite"
    headers = [line for line in lines if line.startswith("== ")]
    assert headers == ["== honest: every task must PASS", "== cheat-a: every task must FAIL",
                       "== cheat-b: every task must FAIL"]  # fmt: skip
    assert [line for line in lines if line.startswith("Gate summary")] == [
        "Gate summary: 9/9 tasks passed", "Gate summary: 0/9 tasks passed",
        "Gate summary: 0/9 tasks passed",
    ]  # fmt: skip
    assert sum(line.startswith("FAILED  ") and ": caught by " in line for line in lines) == 18
    assert done.stdout.splitlines()[-1] == (
        "demo-quickstart: honest work passed, every cheat was caught"
    )
    # quickstart's tasks are graded from trajectories: none has a solution for oracle
    assert done.stderr.startswith("warning: 9 task(s) with checks have no solution, ")
