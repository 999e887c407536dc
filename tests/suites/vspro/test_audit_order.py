"""The audit's severity order: a graver control must score below every lighter one.

Judged on verdicts built by hand (no grading), so each inversion is exactly the one
planted; the shipped controls' declared severities are checked for shape here, their
measured order by ``benchwright audit suites/vspro`` (figures in docs/vspro.md).
"""

import json
import math
from pathlib import Path

import pytest

from benchwright.errors import SpecError
from benchwright.suites.audit import (
    SEVERITIES,
    AuditResult,
    Control,
    ControlVerdict,
    audit_dict,
    audit_lines,
    load_control,
    load_controls,
    order_problems,
)

SUITE = Path(__file__).parents[3] / "suites" / "vspro"


def verdict(name: str, severity: str, score: float) -> ControlVerdict:
    control = Control(name, "d", ("server_runs",), ("boot",), False, severity, None)
    return ControlVerdict(control, score, 1.0, (), (), ())


def result(*verdicts: ControlVerdict, quick: bool = False) -> AuditResult:
    return AuditResult("s", math.nan if quick else 1.0, 3.0, verdicts, quick,
                       () if quick else order_problems(verdicts))  # fmt: skip


def test_controls_scoring_in_severity_order_hold():
    held = result(verdict("empty", "inert", 0.0), verdict("dup", "corrupting", 0.15),
                  verdict("sum", "critical", 0.59), verdict("cas", "major", 0.94),
                  verdict("also", "major", 0.94), verdict("retry", "minor", 0.97))  # fmt: skip
    assert result().passed and held.passed and not held.order
    lines = audit_lines(held)
    assert lines[-2] == "severity order: held (6 controls, gravest lowest)"
    assert [line.split()[0] for line in lines[2:-2]] == ["empty", "dup", "sum", "cas", "also",
                                                         "retry"]  # fmt: skip


def test_a_graver_control_scoring_at_or_above_a_lighter_one_fails_the_audit():
    inverted = result(verdict("dates", "minor", 0.90), verdict("sum", "critical", 0.95),
                      verdict("tie", "major", 0.90))  # fmt: skip
    assert not inverted.passed
    assert inverted.order == (
        "sum (critical) scored 0.9500, not below dates (minor) 0.9000",
        "sum (critical) scored 0.9500, not below tie (major) 0.9000",
        "tie (major) scored 0.9000, not below dates (minor) 0.9000",
    )
    lines = audit_lines(inverted)
    assert lines[-5] == "severity order: FAILED, 3 inversion(s)"
    assert lines[-4] == "  sum (critical) scored 0.9500, not below dates (minor) 0.9000"
    doc = audit_dict(inverted)
    assert doc["passed"] is False and doc["severity_order"]["held"] is False
    assert [c["severity"] for c in doc["controls"]] == ["minor", "critical", "major"]


def test_a_quick_audit_does_not_judge_the_order():
    quick = result(verdict("sum", "critical", 0.95), verdict("dates", "minor", 0.9), quick=True)
    assert quick.passed
    assert audit_lines(quick)[-2].startswith("severity order: not judged")
    assert audit_dict(quick)["severity_order"] is None


@pytest.mark.parametrize("bad", [None, "fatal", "Major", 3])
def test_a_control_without_a_known_severity_is_refused(tmp_path, bad):
    doc = {"description": "d", "targets": ["server_runs"], "phases": ["boot"],
           "critical": True, "tree": "none"}  # fmt: skip
    if bad is not None:
        doc["severity"] = bad
    path = tmp_path / "c.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(SpecError) as caught:
        load_control(path)
    assert caught.value.problems == [
        ("severity", "required: one of inert, corrupting, critical, major, minor (gravest first)")
    ]


def test_every_shipped_control_declares_a_severity_and_each_class_is_used():
    controls = load_controls(SUITE)
    assert {c.severity for c in controls} == {name for name, _ in SEVERITIES}
    inert = {c.name for c in controls if c.severity == "inert"}
    assert inert == {"empty", "crash-without-db"}
