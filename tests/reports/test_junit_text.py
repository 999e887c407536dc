"""JUnit failure bodies are text a person reads in CI, the evidence JSON a property beside
them (issue #26: the body was JSON, a test's output one string of literal ``\\n``)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from benchwright.model import CheckResult, GateResult, RunResult, Status
from benchwright.reports import junit_tree
from benchwright.reports.evidence_text import evidence_text

REPO = Path(__file__).resolve().parents[2]
OUTPUT = "..F\n==== FAILURES ====\n>   assert add(1, 2) == 3\nE   assert 4 == 3\n1 failed in 0.1s\n"
EVIDENCE = {"command": "python -m pytest -q", "exit_code": 1, "stdout": OUTPUT, "stderr": "",
            "changed": {"calc.py": "modified"}, "left_out": [], "steps": [{"n": 1}]}  # fmt: skip


def test_evidence_reads_as_lines_under_their_keys():
    assert evidence_text(EVIDENCE).split("\n") == [
        "command: python -m pytest -q",
        "exit_code: 1",
        "stdout:",
        "  ..F",
        "  ==== FAILURES ====",
        "  >   assert add(1, 2) == 3",
        "  E   assert 4 == 3",
        "  1 failed in 0.1s",
        "stderr:",
        "changed:",
        "  calc.py: modified",
        "left_out: []",
        "steps:",
        "  -",
        "    n: 1",
    ]


def test_a_failure_body_is_text_and_the_json_is_a_property():
    failed = CheckResult("tests-pass", Status.FAIL, 0.0, "exit 1: 1 failed", EVIDENCE)
    case = junit_tree(GateResult((RunResult("t", (failed,)),))).getroot().find(".//testcase")
    body = case.find("failure").text
    assert body.startswith("tests-pass FAIL: exit 1: 1 failed\n\ncommand: python -m pytest -q\n")
    assert "\n  E   assert 4 == 3\n" in body and "\\n" not in body
    [prop] = case.findall("properties/property")
    assert prop.get("name") == "evidence" and json.loads(prop.get("value")) == EVIDENCE


@pytest.mark.slow
def test_a_gate_junit_shows_pytest_output_as_lines(cli, tmp_path):
    quickstart = REPO / "suites" / "quickstart"
    done = cli("gate", "--tasks", str(quickstart / "tasks"), "--trajectory",
               str(quickstart / "trajectories" / "cheat-a"), "--junit", "r.xml")  # fmt: skip
    assert done.returncode == 1, done.stderr
    root = ET.parse(tmp_path / "r.xml").getroot()
    [tests_pass] = [c for c in root.iter("testcase") if c.get("name") == "tests-pass"
                    and "FAILURES" in (c.findtext("failure") or "")]  # fmt: skip
    body = tests_pass.find("failure").text
    assert "\nstdout:\n  ..F....  " in body and "\\n" not in body
    assert "\n  =================================== FAILURES ====" in body
    evidence = json.loads(tests_pass.find("properties/property").get("value"))
    assert "FAILURES" in evidence["stdout"] and evidence["exit_code"] == 1


def test_a_failed_trial_of_a_run_lists_each_failing_check_readably(tmp_path):
    from benchwright.execution.junit import write_suite_junit
    from benchwright.execution.records import TrialResult

    checks = (CheckResult("tests-pass", Status.FAIL, 0.0, "exit 1: 1 failed", EVIDENCE),
              CheckResult("scope", Status.FAIL, 0.0, "touched ci.yml", {}),
              CheckResult("kept", Status.PASS, 1.0, "ok", {"n": 1}))  # fmt: skip
    trial = TrialResult("fix-01", None, "correctness", 1, "nop", "failed", None, checks=checks)
    write_suite_junit("s", {("fix-01", 1): trial}, tmp_path / "r.xml")
    case = ET.parse(tmp_path / "r.xml").getroot().find("testcase")
    body = case.find("failure").text
    assert body.startswith("tests-pass FAIL: exit 1: 1 failed\n\ncommand: python -m pytest -q\n")
    assert "\n  E   assert 4 == 3\n" in body and body.endswith("\nscope FAIL: touched ci.yml\n")
    [prop] = case.findall("properties/property")  # only checks that failed and carry evidence
    assert prop.get("name") == "evidence.tests-pass"
    assert json.loads(prop.get("value")) == EVIDENCE
