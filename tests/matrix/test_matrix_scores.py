"""``matrix`` reports the run summary's per-trial figures (one function computes both): a
cell's pass@1 is its pass rate, and its mean score shows the partial credit a pass rate
hides."""

from __future__ import annotations

from pathlib import Path

import yaml
from builders import dump

from benchwright.execution.pass_at_k import pooled_figures, task_figures
from benchwright.matrix import document, read_config, run_matrix
from benchwright.matrix.run import _outcome

HALF = {"type": "tool_call", "tool": "write_file", "args": {"path": "a.txt", "content": "a"}}
BOTH = {"type": "tool_call", "tool": "write_file", "args": {"path": "b.txt", "content": "b"}}


def _matrix(tmp_path: Path) -> Path:
    """Two tasks of two file checks each; ``half`` writes a.txt only, ``whole`` both."""
    for name in ("one", "two"):
        dump(tmp_path / "tasks" / f"{name}.json", {
            "id": name, "prompt": "write a.txt and b.txt", "workspace": {"seed.txt": "s"},
            "checks": [{"type": "file_exists", "path": "a.txt"},
                       {"type": "file_exists", "path": "b.txt"}]})  # fmt: skip
    dump(tmp_path / "half.json", {"steps": [HALF]})
    dump(tmp_path / "whole.json", {"steps": [HALF, BOTH]})
    config = {"name": "scores", "tasks_dir": "tasks",
              "cells": [{"model": "m", "prompt": "half", "trajectory": "half.json"},
                        {"model": "m", "prompt": "whole", "trajectory": "whole.json"}]}  # fmt: skip
    (tmp_path / "matrix.yaml").write_text(yaml.safe_dump(config))
    return tmp_path / "matrix.yaml"


def test_a_cells_mean_score_counts_the_half_solved_tasks_its_pass_rate_does_not(tmp_path):
    config = _matrix(tmp_path)
    result = run_matrix(read_config(config), config)
    half, whole = result.cells
    assert half.rate.passed == 0 and whole.rate.passed == 2
    assert [t["score"] for t in half.tasks] == [0.5, 0.5]
    assert half.per_trial == {"tasks": 2, "trials": 2, "passed": 0, "errored": 0,
                              "pass_at_k": {"1": 0.0}, "mean_score": 0.5}  # fmt: skip
    assert whole.per_trial["pass_at_k"] == {"1": whole.rate.value} and whole.mean_score == 1.0
    # The same function the run summary pools with, over the same rows.
    assert half.per_trial == pooled_figures([task_figures([_outcome(t)], 1) for t in half.tasks])
    assert result.mean_score() == 0.75 and result.mean_score("prompt", "half") == 0.5
    doc = document(result, None)
    assert doc["overall"]["mean_score"] == 0.75
    assert doc["by_prompt"]["whole"]["mean_score"] == 1.0
    assert doc["cells"][0]["per_trial"]["mean_score"] == 0.5


def test_the_terminal_and_markdown_show_the_mean_score(cli, tmp_path):
    config = _matrix(tmp_path)
    proc = cli("matrix", str(config), "--markdown", "m.md")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Overall pass rate: 2/4 (50.0%, CI [15.0%, 85.0%]), mean score 0.75" in proc.stdout
    assert "  m/half: 0/2 (0.0%, CI [0.0%, 65.8%]), mean score 0.50" in proc.stdout
    assert "| m | half | 0/2 | 0.0% | [0.0%, 65.8%] | 0.50 |" in (tmp_path / "m.md").read_text()
