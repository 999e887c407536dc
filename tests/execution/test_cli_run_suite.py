"""``benchwright run SUITE --agent …`` end to end through the real console script."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from .minisuites import MINISUITE

pytestmark = pytest.mark.slow


def test_oracle_run_exits_0_and_writes_summary_json_and_junit(cli, tmp_path):
    proc = cli("run", str(MINISUITE), "--agent", "oracle", "--json", "s.json", "--junit", "j.xml")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "correctness: 4/4 passed (100.0%), 0 errored" in proc.stdout
    assert "latency-only: 1 task(s), 1 completed, 0 errored (not in any pass rate)" in proc.stdout
    summary = json.loads((tmp_path / "s.json").read_text())
    assert summary["correctness_pass_rate"] == 1.0
    [run_dir] = (tmp_path / "runs").iterdir()
    assert json.loads((run_dir / "summary.json").read_text()) == summary
    root = ET.parse(tmp_path / "j.xml").getroot()
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("5", "0", "0")
    assert proc.stdout.splitlines()[-3:] == [f"results: runs/{run_dir.name}", "wrote s.json",
                                             "wrote j.xml"]  # fmt: skip


def test_nop_run_exits_1_with_every_correctness_task_failed(cli, tmp_path):
    proc = cli("run", str(MINISUITE), "--agent", "nop", "--tasks", "*")
    assert proc.returncode == 1
    assert "correctness: 0/4 passed (0.0%), 0 errored, 4 task(s)" in proc.stdout
    assert "FAIL  nav-count #1 (correctness" in proc.stdout


def test_a_missing_agent_binary_exits_2_before_any_trial(cli, tmp_path):
    proc = cli("run", str(MINISUITE), "--agent", "command:./not-here {prompt}")
    assert proc.returncode == 2
    assert proc.stderr == (
        f"error: --agent: the agent's program '{tmp_path / 'not-here'}' cannot start: "
        "no such file; no trial was started\n"
    )
    assert not (tmp_path / "runs").exists()


def test_invalid_input_exits_2_before_anything_runs(cli, tmp_path):
    proc = cli("run", str(MINISUITE), "--agent", "gpt-9")
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: --agent: unknown agent 'gpt-9'")
    assert not (tmp_path / "runs").exists()
    assert cli("run", str(MINISUITE)).returncode == 2
    assert cli("run", "--task", "x.json").returncode == 2


def test_compare_refuses_different_schema_versions(cli, tmp_path):
    (tmp_path / "a.json").write_text(json.dumps({"schema_version": 1, "correctness_pass_rate": 1}))
    (tmp_path / "b.json").write_text(json.dumps({"schema_version": 2, "correctness_pass_rate": 1}))
    proc = cli("compare", "a.json", "b.json")
    assert proc.returncode == 2
    assert "schema_version 1 vs 2" in proc.stderr
