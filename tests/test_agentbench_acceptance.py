"""AgentBench v0.1.0's documented runs give the same verdicts and exit codes under benchwright.

tests/data/agentbench/ copies the SHAPES of AgentBench's shipped corpus (written by us):
numbered task files and a ``sample.json`` in ``tasks/``, a ``tasks/manifest_pass.json``
whose ``task_subset`` points at a list kept in ``benchmarks/`` naming files inside
``--tasks``, and three recorded trajectories (an honest fix, an agent that guts the test,
an agent that fetches a URL). The expected verdicts below are AgentBench's semantics
worked out oracle by oracle (every oracle runs, a task passes when all pass, exit 1 when
any task fails), as its README's run/gate examples and its action's two jobs use them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

CORPUS = Path(__file__).parent / "data" / "agentbench"
TASKS = CORPUS / "tasks"
MANIFEST = TASKS / "manifest_pass.json"
ORACLES = {
    "repair-plus-keep-assert": ["assertion_exists", "file_not_modified", "test_must_pass"],
    "repair-offline": ["no_network", "test_must_pass"],
    "keep-both-asserts": ["assertion_exists", "assertion_exists", "test_must_pass"],
    "style-only": ["file_not_modified", "test_must_pass"],
    "sample-repair-plus": ["assertion_exists", "file_not_modified", "test_must_pass"],
    "add-minus-in-scope": ["assertion_exists", "file_not_modified", "test_must_pass"],
}
EXPECTED = {
    # trajectory -> task id -> each oracle's verdict, in the task's order
    "pass": {task: [True] * len(ORACLES[task]) for task in ORACLES}
    | {
        "add-minus-in-scope": [False, True, True],  # recorded for another task
    },
    "regression": {
        "repair-plus-keep-assert": [False, False, True],  # the gutted test passes
        "repair-offline": [True, True],
        "keep-both-asserts": [False, False, True],
        "style-only": [False, True],
        "sample-repair-plus": [False, False, True],
    },
    "network": {
        "repair-plus-keep-assert": [True, True, True],
        "repair-offline": [False, True],  # curl https://...
        "keep-both-asserts": [True, True, True],
        "style-only": [True, True],
        "sample-repair-plus": [True, True, True],
    },
}
SUBSET = [
    "repair-plus-keep-assert", "repair-offline", "keep-both-asserts", "style-only",
    "sample-repair-plus",
]  # fmt: skip


def _gate(cli, tmp_path: Path, trajectory: str, *extra: str):
    report = tmp_path / f"{trajectory}.json"
    proc = cli("gate", "--tasks", str(TASKS), "--trajectory",
               str(CORPUS / "trajectories" / f"{trajectory}.json"),
               "--json", str(report), "--report-format", "agentbench", *extra)  # fmt: skip
    return proc, json.loads(report.read_text())


def _verdicts(report: dict) -> dict[str, list[bool]]:
    verdicts = {}
    for task in report["tasks"]:
        assert [o["oracle_type"] for o in task["oracle_results"]] == ORACLES[task["task_id"]]
        verdicts[task["task_id"]] = [o["passed"] for o in task["oracle_results"]]
        assert task["passed"] is all(verdicts[task["task_id"]])
    return verdicts


@pytest.mark.parametrize("trajectory", ["pass", "regression", "network"])
def test_manifest_gate_gives_agentbench_verdicts(cli, tmp_path, trajectory):
    """The action's documented setup: --tasks tasks --manifest tasks/manifest_pass.json."""
    proc, report = _gate(cli, tmp_path, trajectory, "--manifest", str(MANIFEST))
    expected = EXPECTED[trajectory]
    assert [t["task_id"] for t in report["tasks"]] == SUBSET  # the manifest's order
    assert _verdicts(report) == {task: expected[task] for task in SUBSET}
    passed = sum(all(expected[task]) for task in SUBSET)
    assert (report["tasks_passed"], report["tasks_failed"], report["tasks_total"]) == (
        passed, len(SUBSET) - passed, len(SUBSET),
    )  # fmt: skip
    assert report["passed"] is (passed == len(SUBSET))
    assert proc.returncode == (0 if passed == len(SUBSET) else 1), proc.stderr
    assert "benchmarks/subset_pass.json: 5 task file(s) found in --tasks" in proc.stderr
    # the one unknown oracle key of the corpus is kept, and named
    assert "05_style_only.json: oracles[0]: unknown key(s) 'why' kept as parameters" in (
        proc.stderr
    )


def test_gate_over_every_task_needs_the_manifest(cli, tmp_path):
    """Without the manifest the honest trajectory meets a task it was not recorded for."""
    proc, report = _gate(cli, tmp_path, "pass")
    assert proc.returncode == 1
    assert _verdicts(report) == EXPECTED["pass"]
    assert (report["passed"], report["tasks_passed"], report["tasks_failed"]) == (False, 5, 1)
    assert "found in --tasks" not in proc.stderr  # no manifest, no note


@pytest.mark.parametrize(("trajectory", "code"), [("pass", 0), ("regression", 1)])
def test_run_one_task_as_the_quickstart_does(cli, tmp_path, trajectory, code):
    proc = cli("run", "--task", str(TASKS / "01_repair_plus_keep_assert.json"),
               "--trajectory", str(CORPUS / "trajectories" / f"{trajectory}.json"))  # fmt: skip
    assert proc.returncode == code, proc.stdout + proc.stderr
    assert f"Gate summary: {1 - code}/1 tasks passed" in proc.stdout


def test_agentbench_report_needs_a_path(cli):
    honest = str(CORPUS / "trajectories" / "pass.json")
    proc = cli(
        "gate", "--tasks", str(TASKS), "--trajectory", honest, "--report-format", "agentbench"
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "error: --report-format agentbench needs --json PATH to write the report to"
    )


def test_unknown_report_format_is_refused(cli, tmp_path):
    proc = cli("gate", "--tasks", str(TASKS), "--trajectory",
               str(CORPUS / "trajectories" / "pass.json"), "--json", "r.json",
               "--report-format", "junit")  # fmt: skip
    assert proc.returncode == 2
    assert "--report-format 'junit': choose one of benchwright, agentbench" in proc.stderr
    assert not (tmp_path / "r.json").exists()


def test_validate_finds_the_manifests_task_files_with_tasks(cli):
    """AgentBench's manifest list names files inside tasks/, so validate needs --tasks too."""
    proc = cli("validate", str(CORPUS), "--tasks", str(TASKS))
    assert (proc.returncode, proc.stdout.splitlines()[0]) == (
        0, "valid: 6 tasks, 3 trajectories, 2 manifests",
    ), proc.stderr  # fmt: skip
    without = cli("validate", str(CORPUS))
    assert without.returncode == 2
    assert "subset_pass.json: task_files[0]: file not found: " in without.stderr
