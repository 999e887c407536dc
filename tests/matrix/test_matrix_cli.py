"""``benchwright matrix`` on the 2 models x 2 prompts config of tests/data/matrix.

alpha passes 6/6 under both prompts, beta 2/6 (cheats) under "direct" and 5/6 (one
pip install) under "verbose"; see matrix.yaml.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from builders import dump

DATA = Path(__file__).parent.parent / "data" / "matrix"
CONFIG = DATA / "matrix.yaml"


def _rates(doc: dict) -> dict[str, tuple[int, int]]:
    return {f"{c['model']}/{c['prompt']}": (c["passed"], c["total"]) for c in doc["cells"]}


def test_rates_overall_by_model_prompt_and_cell_with_intervals(cli, tmp_path):
    proc = cli("matrix", str(CONFIG), "--json", "m.json", "--markdown", "m.md")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Overall pass rate: 19/24 (79.2%, CI [59.5%, 90.8%])" in proc.stdout
    assert "beta/direct: 2/6 (33.3%, CI [9.7%, 70.0%])" in proc.stdout
    assert "No score drift detected" in proc.stdout
    doc = json.loads((tmp_path / "m.json").read_text())
    assert doc["schema"] == "benchwright.matrix/1"
    assert _rates(doc) == {"alpha/direct": (6, 6), "alpha/verbose": (6, 6),
                           "beta/direct": (2, 6), "beta/verbose": (5, 6)}  # fmt: skip
    assert doc["by_model"]["beta"]["passed"] == 7 and doc["by_prompt"]["verbose"]["passed"] == 11
    assert doc["overall"]["ci"][1] < 1.0
    cheat = next(c for c in doc["cells"] if c["prompt"] == "direct" and c["model"] == "beta")
    failed = {t["task_id"] for t in cheat["tasks"] if not t["passed"]}
    assert failed == {"t1-fixed", "t2-test-kept", "t3-offline", "t4-assert-kept"}
    table = (tmp_path / "m.md").read_text()
    assert "| beta | verbose | 5/6 | 83.3% | [43.6%, 97.0%] |" in table


def test_a_one_task_change_on_six_tasks_is_past_the_threshold_but_not_drift(cli):
    proc = cli("matrix", str(CONFIG), "--baseline", str(DATA / "baseline_one_task.yaml"),
               "--fail-on-drift")  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "cell beta/verbose: 100.0% -> 83.3% (delta -16.7%" in proc.stdout
    assert "): within noise" in proc.stdout
    assert "No score drift detected" in proc.stdout


def test_a_collapse_is_drift_and_fails_with_fail_on_drift(cli, tmp_path):
    proc = cli("matrix", str(CONFIG), "--baseline", str(DATA / "baseline_regression.yaml"),
               "--fail-on-drift", "--json", "m.json")  # fmt: skip
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Score drift detected" in proc.stdout
    assert "cell beta/direct: 100.0% -> 33.3% (delta -66.7%" in proc.stdout
    drift = json.loads((tmp_path / "m.json").read_text())["drift"]
    flagged = {(c["scope"], c["key"]) for c in drift["comparisons"] if c["drift"]}
    assert flagged == {("model", "beta"), ("cell", "beta/direct")}
    # Without --fail-on-drift the same finding is reported, and the exit is 0.
    assert cli("matrix", str(CONFIG), "--baseline",
               str(DATA / "baseline_regression.yaml")).returncode == 0  # fmt: skip


def test_a_real_change_under_the_threshold_is_not_drift(cli):
    proc = cli("matrix", str(CONFIG), "--baseline", str(DATA / "baseline_regression.yaml"),
               "--fail-on-drift", "--drift-threshold", "0.7")  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "cell beta/direct: 100.0% -> 33.3% (delta -66.7%" in proc.stdout
    assert "): within threshold" in proc.stdout


def test_a_json_report_is_the_next_runs_baseline_with_its_counts(cli, tmp_path):
    assert cli("matrix", str(CONFIG), "--json", "last.json").returncode == 0
    last = json.loads((tmp_path / "last.json").read_text())
    assert last["baseline"]["cells"]["beta/verbose"] == {"passed": 5, "total": 6}
    last["baseline"]["cells"]["beta/direct"] = {"passed": 60, "total": 60}
    dump(tmp_path / "last.json", last)
    proc = cli("matrix", str(CONFIG), "--baseline", "last.json", "--fail-on-drift")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "cell beta/direct: 100.0% -> 33.3%" in proc.stdout
    assert "cell alpha/direct: 100.0% -> 100.0% (delta +0.0%" in proc.stdout


def test_agentbench_spelling_runs_and_config_option_and_output_markdown(cli, tmp_path):
    raw = yaml.safe_load(CONFIG.read_text())
    raw["runs"] = [{**c, "trajectory": str(DATA / c["trajectory"])} for c in raw.pop("cells")]
    raw["tasks_dir"] = str(DATA / "tasks")
    raw["task_files"] = ["t1-fixed.json", "t3-offline.json"]
    dump(tmp_path / "m.json", raw)
    proc = cli("matrix", "--config", "m.json", "--output", "markdown")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "| beta | direct | 0/2 | 0.0% |" in proc.stdout
    assert "| beta | verbose | 1/2 | 50.0% |" in proc.stdout


def test_invalid_configs_name_the_file_and_field(cli, tmp_path):
    dump(tmp_path / "bad.yaml", {"cells": [{"model": "a", "prompt": "p"}], "drift_treshold": 1})
    proc = cli("matrix", "bad.yaml")
    assert proc.returncode == 2
    assert "bad.yaml: cells[0].trajectory: required" in proc.stderr
    assert "bad.yaml: drift_treshold: unknown field" in proc.stderr
    cell = {"model": "a", "prompt": "p", "trajectory": "no.json"}
    dump(tmp_path / "gone.yaml", {"tasks_dir": str(DATA / "tasks"), "cells": [cell]})
    proc = cli("matrix", "gone.yaml")
    assert proc.returncode == 2
    assert "gone.yaml: cells[0].trajectory: file not found: no.json" in proc.stderr


def test_fail_on_drift_without_a_baseline_is_refused(cli, tmp_path):
    raw = yaml.safe_load(CONFIG.read_text())
    del raw["baseline"]
    dump(tmp_path / "m.yaml", raw)
    (tmp_path / "tasks").symlink_to(DATA / "tasks")
    (tmp_path / "trajectories").symlink_to(DATA / "trajectories")
    proc = cli("matrix", "m.yaml", "--fail-on-drift")
    assert proc.returncode == 2
    assert "--fail-on-drift needs a baseline: m.yaml has none" in proc.stderr


def test_a_task_subset_manifest_names_files_in_tasks_dir(cli, tmp_path):
    raw = yaml.safe_load(CONFIG.read_text())
    raw["cells"] = [{**c, "trajectory": str(DATA / c["trajectory"])} for c in raw["cells"]]
    raw["tasks_dir"] = str(DATA / "tasks")
    raw["task_subset"] = "subset.json"
    del raw["baseline"]
    dump(tmp_path / "m.yaml", raw)
    dump(tmp_path / "subset.json", {"task_files": ["t2-test-kept.json", "t5-readme-kept.json"]})
    proc = cli("matrix", "m.yaml", "--json", "m.json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert _rates(json.loads((tmp_path / "m.json").read_text())) == {
        "alpha/direct": (2, 2), "alpha/verbose": (2, 2), "beta/direct": (1, 2),
        "beta/verbose": (2, 2),
    }  # fmt: skip
