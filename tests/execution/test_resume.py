"""A run killed with SIGKILL half-way and resumed ends exactly like an uninterrupted run."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchwright.execution import execute, plan_run

from .minisuites import MINISUITE

pytestmark = pytest.mark.slow

BENCHWRIGHT = Path(sys.executable).with_name("benchwright")

SOLVER = """\
import os, pathlib, time
time.sleep(0.1)
task = os.environ["BENCHWRIGHT_TASK_ID"]
if task == "fix-double":
    pathlib.Path("mathx.py").write_text("def double(x):\\n    return x * 2\\n")
if task == "nav-count":
    pathlib.Path(os.environ["BENCHWRIGHT_ANSWER_FILE"]).write_text("count: 3\\n")
"""


def _trials(run_dir: Path) -> dict[str, tuple[str, list[str]]]:
    found = {}
    for path in (run_dir / "trials").glob("*/*/result.json"):
        raw = json.loads(path.read_text())
        key = f"{raw['task_id']}#{raw['iteration']}"
        found[key] = (raw["verdict"], [c["status"] for c in raw["checks"]])
    return found


def test_sigkill_then_resume_equals_an_uninterrupted_run(tmp_path):
    solver = tmp_path / "solver.py"
    solver.write_text(SOLVER)
    spec = f"command:python {solver}"
    whole = execute(plan_run(MINISUITE, spec, iterations=2, out=tmp_path / "whole"))
    assert whole.summary["tasks"]["fix-double"]["verdict"] == "passed", "the solver must work"
    proc = subprocess.Popen(
        [str(BENCHWRIGHT), "run", str(MINISUITE), "--agent", spec, "--iterations", "2",
         "--out", str(tmp_path / "killed")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        done = list((tmp_path / "killed").glob("*/trials/*/*/result.json"))
        if len(done) >= 4:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    [run_dir] = (tmp_path / "killed").iterdir()
    assert 4 <= len(_trials(run_dir)) < 10, "the kill should land half-way"
    assert not (run_dir / "summary.json").exists()
    resumed = subprocess.run(
        [str(BENCHWRIGHT), "run", "--resume", str(run_dir)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert resumed.returncode == 1, resumed.stderr
    assert _trials(run_dir) == _trials(next((tmp_path / "whole").iterdir()))
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["tasks"] == whole.summary["tasks"]
    assert summary["complete"] is True


def test_ctrl_c_stops_cleanly_keeping_finished_trials(tmp_path):
    solver = tmp_path / "solver.py"
    solver.write_text(SOLVER)
    proc = subprocess.Popen(
        [str(BENCHWRIGHT), "run", str(MINISUITE), "--agent", f"command:python {solver}",
         "--iterations", "2", "--out", str(tmp_path / "runs")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while (
        time.monotonic() < deadline
        and len(list(tmp_path.glob("runs/*/trials/*/*/result.json"))) < 2
    ):
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    [run_dir] = (tmp_path / "runs").iterdir()
    assert "trials finished (kept on disk)" in err
    assert f"; continue with: benchwright run --resume {run_dir}\n" in err
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["complete"] is False
    assert 2 <= len(_trials(run_dir)) < 10
