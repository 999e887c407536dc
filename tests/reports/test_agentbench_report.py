"""The AgentBench report layout: counts, oracle types, and statuses AgentBench has no word for."""

from __future__ import annotations

import json

from builders import make_task

from benchwright.model import CheckResult, GateResult, ReplayError, RunResult, Status
from benchwright.reports.agentbench import agentbench_dict, write_agentbench

TASK = make_task(
    [{"type": "no_network"}, {"type": "file_not_modified", "path": "README.md"},
     {"type": "file_not_modified", "path": "README.md", "id": "again"}],
    id="t",
)  # fmt: skip


def _run(task_id: str, *results: CheckResult, replay: tuple[ReplayError, ...] = ()) -> RunResult:
    return RunResult(task_id, tuple(results), replay_errors=replay)


def test_counts_and_oracle_types_by_check_id(tmp_path):
    gate = GateResult(
        (
            _run("t", CheckResult.passing("no_network", "clean"),
                 CheckResult.failing("file_not_modified", "README.md changed"),
                 CheckResult.passing("again", "fine")),
            _run("u", CheckResult.passing("no_network", "clean")),
        )
    )  # fmt: skip
    write_agentbench(gate, [TASK], tmp_path / "deep" / "r.json")
    report = json.loads((tmp_path / "deep" / "r.json").read_text())
    assert report == {
        "passed": False,
        "tasks_total": 2,
        "tasks_passed": 1,
        "tasks_failed": 1,
        "tasks": [
            {
                "task_id": "t",
                "passed": False,
                "oracle_results": [
                    {"oracle_type": "no_network", "passed": True, "message": "clean"},
                    {"oracle_type": "file_not_modified", "passed": False,
                     "message": "README.md changed"},
                    {"oracle_type": "file_not_modified", "passed": True, "message": "fine"},
                ],
            },
            {
                "task_id": "u",  # not among the tasks given: the check id stands in
                "passed": True,
                "oracle_results": [
                    {"oracle_type": "no_network", "passed": True, "message": "clean"}
                ],
            },
        ],
    }  # fmt: skip


def test_a_status_beyond_pass_and_fail_is_a_failure_that_says_which():
    infra = CheckResult("no_network", Status.INFRA, 0.0, "sandbox broke")
    [task] = agentbench_dict(GateResult((_run("t", infra),)), [TASK])["tasks"]
    assert task["oracle_results"] == [
        {"oracle_type": "no_network", "passed": False, "message": "INFRA: sandbox broke"}
    ]


def test_a_replay_error_fails_the_task_with_a_replay_entry():
    error = ReplayError(2, "str_replace", "a.py", "old_string not found")
    run = _run("t", CheckResult.passing("no_network", "clean"), replay=(error,))
    report = agentbench_dict(GateResult((run,)), [TASK])
    assert report["passed"] is False
    assert report["tasks"][0]["oracle_results"][0] == {
        "oracle_type": "replay",
        "passed": False,
        "message": "step 3 (str_replace a.py): old_string not found",
    }
