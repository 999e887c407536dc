"""JSON and JUnit reports carry every result, and say when a gate is incomplete."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from benchwright.model import CheckResult, GateResult, ReplayError, RunResult, Status
from benchwright.reports import SCHEMA_VERSION, gate_dict, junit_tree, write_json, write_junit


def _run(task_id: str, *statuses: Status, replay: bool = False) -> RunResult:
    results = tuple(
        CheckResult(f"c{n}", status, 1.0 if status is Status.PASS else 0.0, f"detail {n}", {"n": n})
        for n, status in enumerate(statuses)
    )
    errors = (ReplayError(3, "Edit", "a.py", "old_string not found"),) if replay else ()
    return RunResult(task_id, results, errors, trajectory="t.json")


def test_json_report_has_schema_version_and_every_result(tmp_path):
    gate = GateResult((_run("a", Status.PASS), _run("b", Status.PASS, Status.FAIL)))
    write_json(gate, tmp_path / "out" / "r.json")
    doc = json.loads((tmp_path / "out" / "r.json").read_text())
    assert doc["schema_version"] == SCHEMA_VERSION
    assert doc["passed"] is False
    assert doc["summary"] == {"tasks": 2, "passed": 1, "failed": 1}
    assert [r["status"] for r in doc["runs"][1]["results"]] == ["PASS", "FAIL"]
    assert doc["runs"][1]["results"][1]["evidence"] == {"n": 1}


def test_a_replay_error_fails_the_task_in_every_report():
    gate = GateResult((_run("a", Status.PASS, replay=True),))
    doc = gate_dict(gate)
    assert doc["runs"][0]["passed"] is False
    assert doc["runs"][0]["replay_errors"][0]["reason"] == "old_string not found"
    suite = junit_tree(gate).getroot().find("testsuite")
    replay_case = suite.find("testcase[@name='replay']")
    assert replay_case.find("failure").get("message").startswith("step 4 (Edit a.py)")
    assert suite.get("failures") == "1"


def test_junit_maps_statuses_to_failure_error_and_skipped(tmp_path):
    gate = GateResult(
        (
            _run(
                "t",
                Status.PASS,
                Status.FAIL,
                Status.NOT_ATTEMPTED,
                Status.INFRA,
                Status.SKIPPED,
                Status.UNAVAILABLE,
            ),
        )
    )
    write_junit(gate, tmp_path / "r.xml")
    root = ET.parse(tmp_path / "r.xml").getroot()
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == (
        "6",
        "2",
        "1",
        "2",
    )
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert list(cases["c0"]) == []
    assert cases["c1"].find("failure").get("message") == "detail 1"
    assert cases["c3"].find("error") is not None
    assert cases["c5"].find("skipped").get("message").startswith("UNAVAILABLE")


def test_an_incomplete_gate_is_not_passed_and_says_why():
    gate = GateResult((_run("a", Status.PASS),), complete=False, error="interrupted after 1 of 5")
    assert not gate.passed
    assert gate.harness_failed
    doc = gate_dict(gate)
    assert doc["complete"] is False and doc["error"] == "interrupted after 1 of 5"
    root = junit_tree(gate).getroot()
    assert root.get("errors") == "1"


def test_an_empty_gate_never_passes():
    assert not GateResult(()).passed
    assert not RunResult("t", ()).passed
