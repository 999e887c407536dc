"""Where the sandbox cannot run, live runs are refused unless the user says --no-sandbox,
and an unconfined run says so in every result, summary and report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
BENCHWRIGHT = Path(sys.executable).with_name("benchwright")
NO_BWRAP = {**os.environ, "BENCHWRIGHT_BWRAP": "/nonexistent/bwrap"}


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    argv = [str(BENCHWRIGHT), "run", str(ROOT / "suites" / "turnbench"), "--agent", "oracle",
            "--out", str(tmp_path / "runs"), *args]  # fmt: skip
    return subprocess.run(argv, env=NO_BWRAP, capture_output=True, text=True, timeout=240)


def test_a_live_run_is_refused_in_one_line_when_bwrap_is_missing(tmp_path):
    done = _run(tmp_path, "--tasks", "fix-01")
    assert done.returncode == 3
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("error: sandbox: bwrap not found: install Debian's bubblewrap")
    assert "--no-sandbox" in line
    assert not (tmp_path / "runs").exists(), "nothing starts before the refusal"


def test_a_run_that_executes_nothing_needs_no_sandbox(tmp_path):
    done = _run(tmp_path, "--tasks", "nav-01")
    assert done.returncode == 0, done.stderr


def test_no_sandbox_runs_and_marks_every_record_isolation_none(tmp_path):
    done = _run(tmp_path, "--tasks", "fix-0[12]", "--no-sandbox")
    assert done.returncode == 0, done.stderr
    assert "WARNING: isolation: none" in done.stdout
    [run_dir] = (tmp_path / "runs").iterdir()
    assert json.loads((run_dir / "run.json").read_text())["isolation"] == "none"
    assert json.loads((run_dir / "summary.json").read_text())["isolation"] == "none"
    results = [json.loads(p.read_text()) for p in run_dir.glob("trials/*/*/result.json")]
    assert len(results) == 2 and {r["isolation"] for r in results} == {"none"}


def test_a_sandboxed_run_records_bwrap(tmp_path):
    argv = [str(BENCHWRIGHT), "run", str(ROOT / "suites" / "turnbench"), "--agent", "oracle",
            "--tasks", "fix-01", "--out", str(tmp_path / "runs")]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    assert "isolation: none" not in done.stdout
    [result] = (tmp_path / "runs").glob("*/trials/*/*/result.json")
    assert json.loads(result.read_text())["isolation"] == "bwrap"


def test_gate_with_check_commands_is_refused_without_bwrap_and_marked_with_no_sandbox(tmp_path):
    quick = ROOT / "suites" / "quickstart"
    argv = [str(BENCHWRIGHT), "gate", "--tasks", str(quick / "tasks"),
            "--trajectory", str(quick / "trajectories" / "honest")]  # fmt: skip
    refused = subprocess.run(argv, env=NO_BWRAP, capture_output=True, text=True, timeout=240)
    assert refused.returncode == 3 and "error: sandbox: bwrap not found" in refused.stderr
    report = tmp_path / "gate.json"
    done = subprocess.run([*argv, "--no-sandbox", "--json", str(report)], env=NO_BWRAP,
                          capture_output=True, text=True, timeout=240)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNING: isolation: none" in done.stdout
    assert json.loads(report.read_text())["isolation"] == "none"


def test_audit_is_refused_before_grading_when_bwrap_is_missing():
    argv = [str(BENCHWRIGHT), "audit", str(ROOT / "suites" / "vspro"), "--quick"]
    done = subprocess.run(argv, env=NO_BWRAP, capture_output=True, text=True, timeout=60)
    assert done.returncode == 3
    assert done.stderr.strip().splitlines()[-1].startswith("error: sandbox: bwrap not found")
    assert "grading" not in done.stderr
