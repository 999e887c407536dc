"""``benchwright compare A B``: which tasks changed, and which check rows moved (issue 18)."""

from __future__ import annotations

import json
from pathlib import Path

from benchwright.execution.compare import compare_runs


def make_run(root: Path, tasks: dict[str, tuple[str, dict[str, float]]]) -> Path:
    """A run directory: ``summary.json`` with each task's verdict, and one trial per task
    whose ``result.json`` holds the given check rows' scores (unsealed, no key: a run
    never sealed here, compared only when unverified runs are allowed)."""
    verdicts = {t: {"verdict": v, "tier": "correctness", "iterations": [v]}
                for t, (v, _) in tasks.items()}  # fmt: skip
    passed = sum(v == "passed" for v, _ in tasks.values())
    summary = {"schema_version": 1, "correctness_pass_rate": passed / len(tasks),
               "build_pass_rate": None, "tasks": verdicts}  # fmt: skip
    root.mkdir(parents=True)
    (root / "summary.json").write_text(json.dumps(summary))
    for task_id, (verdict, rows) in tasks.items():
        trial = root / "trials" / task_id / "1"
        trial.mkdir(parents=True)
        checks = [{"check_id": r, "status": "PASS" if s == 1 else "FAIL", "score": s,
                   "detail": ""} for r, s in rows.items()]  # fmt: skip
        result = {"task_id": task_id, "tier": "correctness", "iteration": 1, "agent": "x",
                  "verdict": verdict, "checks": checks}  # fmt: skip
        (trial / "result.json").write_text(json.dumps(result))
    return root


A = {
    "t-regress": ("passed", {"tests": 1.0, "scope": 1.0}),
    "t-fixed": ("failed", {"tests": 0.0}),
    "t-partial": ("failed", {"tests": 0.0, "scope": 1.0}),
    "t-same": ("passed", {"tests": 1.0}),
    "t-dropped": ("passed", {"tests": 1.0}),
}
B = {
    "t-regress": ("failed", {"tests": 0.0, "scope": 1.0}),
    "t-fixed": ("passed", {"tests": 1.0}),
    "t-partial": ("failed", {"tests": 0.5, "scope": 1.0}),
    "t-same": ("passed", {"tests": 1.0}),
    "t-new": ("failed", {"tests": 0.0}),
}


def test_each_task_lands_in_one_change_with_its_score_and_row_deltas(tmp_path):
    result = compare_runs(make_run(tmp_path / "a", A), make_run(tmp_path / "b", B), True)
    changes = {t: v["change"] for t, v in result["tasks"].items()}
    assert changes == {
        "t-regress": "newly_failing", "t-fixed": "newly_passing", "t-partial": "score_changed",
        "t-same": "unchanged", "t-dropped": "only_a", "t-new": "only_b",
    }  # fmt: skip
    assert result["counts"] == {"newly_failing": 1, "newly_passing": 1, "score_changed": 1,
                                "unchanged": 1, "only_a": 1, "only_b": 1}  # fmt: skip
    regress = result["tasks"]["t-regress"]
    assert regress["score"] == {"a": 1.0, "b": 0.5, "delta": -0.5}
    assert regress["rows"] == {"tests": {"a": 1.0, "b": 0.0, "delta": -1.0},
                               "scope": {"a": 1.0, "b": 1.0, "delta": 0.0}}  # fmt: skip
    assert result["tasks"]["t-partial"]["score"] == {"a": 0.5, "b": 0.75, "delta": 0.25}
    assert result["pass_rates"]["correctness_pass_rate"] == {"a": 0.6, "b": 0.4, "delta": -0.2}


def test_the_text_keeps_the_pass_rate_line_and_names_what_moved(tmp_path, cli):
    make_run(tmp_path / "a", A)
    make_run(tmp_path / "b", B)
    proc = cli("compare", "a", "b/summary.json", "--allow-unverified")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "UNVERIFIED: a was never sealed on this machine (no key on this machine)",
        "UNVERIFIED: b was never sealed on this machine (no key on this machine)",
        "correctness_pass_rate: 0.6 -> 0.4 (delta -0.2)",
        "build_pass_rate: None -> None (delta None)",
        "tasks: 1 newly failing, 1 newly passing, 1 score changed, 1 unchanged, 1 only a, 1 only b",
        "newly failing:",
        "  t-regress: passed -> failed, score 1.0 -> 0.5 (-0.5)",
        "    tests: 1.0 -> 0.0 (-1)",
        "newly passing:",
        "  t-fixed: failed -> passed, score 0.0 -> 1.0 (+1)",
        "    tests: 0.0 -> 1.0 (+1)",
        "score changed:",
        "  t-partial: failed -> failed, score 0.5 -> 0.75 (+0.25)",
        "    tests: 0.0 -> 0.5 (+0.5)",
        "only a:",
        "  t-dropped: passed -> -",
        "only b:",
        "  t-new: - -> failed",
    ]
    data = json.loads(cli("compare", "a", "b", "--json", "--allow-unverified").stdout)
    assert data["tasks"]["t-fixed"]["change"] == "newly_passing"


def test_bare_summaries_compare_on_verdicts_without_scores(tmp_path):
    make_run(tmp_path / "a", A)
    make_run(tmp_path / "b", B)
    (tmp_path / "s").mkdir()
    for run in ("a", "b"):  # summaries copied away from their trials
        (tmp_path / run / "summary.json").replace(tmp_path / "s" / f"{run}.json")
    result = compare_runs(tmp_path / "s" / "a.json", tmp_path / "s" / "b.json", True)
    assert result["tasks"]["t-regress"]["change"] == "newly_failing"
    assert result["tasks"]["t-regress"]["score"] == {"a": None, "b": None, "delta": None}
    assert result["tasks"]["t-partial"]["change"] == "unchanged"  # no scores to tell


def test_runs_never_sealed_here_are_refused_unless_allowed(tmp_path, cli):
    make_run(tmp_path / "a", A)
    make_run(tmp_path / "b", B)
    proc = cli("compare", "a", "b")
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr.splitlines() == [
        f"error: compare: UNVERIFIED: {run} was never sealed on this machine (no key on this "
        "machine): refused (--allow-unverified compares it)"
        for run in ("a", "b")
    ]


def test_fail_on_regression_exits_1_only_when_a_task_newly_fails(tmp_path, cli):
    make_run(tmp_path / "a", A)
    make_run(tmp_path / "b", B)
    make_run(tmp_path / "fixed", {**A, "t-fixed": ("passed", {"tests": 1.0})})
    worse = cli("compare", "a", "b", "--allow-unverified", "--fail-on-regression")
    assert worse.returncode == 1
    assert "  t-regress: passed -> failed, score 1.0 -> 0.5 (-0.5)" in worse.stdout
    assert worse.stderr == "error: regression: 1 task(s) newly failing in b\n"
    as_json = cli("compare", "a", "b", "--json", "--allow-unverified", "--fail-on-regression")
    assert as_json.returncode == 1 and json.loads(as_json.stdout)["counts"]["newly_failing"] == 1
    better = cli("compare", "a", "fixed", "--allow-unverified", "--fail-on-regression")
    assert (better.returncode, better.stderr) == (0, "")
    assert "1 newly passing" in better.stdout
    plain = cli("compare", "a", "b", "--allow-unverified")
    assert plain.returncode == 0  # without the flag a comparison only reports
