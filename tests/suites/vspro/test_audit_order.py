"""The audit's severity order: a graver control's defect must cost more than every lighter
one's (isolated scores), and the last line states the verdict the exit code gives.

Judged on verdicts built by hand (no grading), so each inversion is exactly the one
planted; the shipped controls' declared severities are checked for shape here, their
measured order by ``benchwright audit suites/vspro`` (figures in docs/vspro.md).
"""

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from benchwright.errors import EXIT_FAILED, EXIT_PASSED, SpecError
from benchwright.suites.audit import (
    SEVERITIES,
    AuditResult,
    Control,
    ControlVerdict,
    audit_dict,
    audit_lines,
    exit_code,
    load_control,
    load_controls,
    order_problems,
    ruler_problems,
    verdict_line,
)

SUITE = Path(__file__).parents[3] / "suites" / "vspro"


def verdict(name: str, severity: str, isolated: float, score: float | None = None,
            problems: tuple[str, ...] = (),
            consequence: str | None = None) -> ControlVerdict:  # fmt: skip
    """A verdict built by hand; ``score`` (the full one) defaults to ``isolated``."""
    control = Control(name, "d", ("server_runs",), ("boot",), False, severity, None,
                      consequence=consequence)  # fmt: skip
    full = isolated if score is None else score
    return ControlVerdict(control, full, isolated, 1.0, (), (), problems)


def result(*verdicts: ControlVerdict, quick: bool = False) -> AuditResult:
    return AuditResult("s", math.nan if quick else 1.0, 3.0, verdicts, quick,
                       () if quick else order_problems(verdicts))  # fmt: skip


def test_controls_scoring_in_severity_order_hold():
    held = result(verdict("empty", "inert", 0.0), verdict("dup", "corrupting", 0.15),
                  verdict("sum", "critical", 0.59), verdict("cas", "major", 0.94),
                  verdict("also", "major", 0.94), verdict("retry", "minor", 0.97))  # fmt: skip
    assert result().passed and held.passed and not held.order
    lines = audit_lines(held)
    assert lines[-1] == ("audit PASSED: 6/6 controls met their expectations; severity order "
                         "held (6 controls, gravest lowest)")  # fmt: skip
    assert [line.split()[0] for line in lines[2:-1]] == ["empty", "dup", "sum", "cas", "also",
                                                         "retry"]  # fmt: skip


def test_a_graver_control_scoring_at_or_above_a_lighter_one_fails_the_audit():
    inverted = result(verdict("dates", "minor", 0.90), verdict("sum", "critical", 0.95),
                      verdict("tie", "major", 0.90))  # fmt: skip
    assert not inverted.passed
    assert inverted.order == (
        "sum (critical) isolated 0.9500, not below dates (minor) 0.9000",
        "sum (critical) isolated 0.9500, not below tie (major) 0.9000",
        "tie (major) isolated 0.9000, not below dates (minor) 0.9000",
    )
    lines = audit_lines(inverted)
    assert lines[-5] == "severity order inversions (isolated scores):"
    assert lines[-4] == "  sum (critical) isolated 0.9500, not below dates (minor) 0.9000"
    doc = audit_dict(inverted)
    assert doc["passed"] is False and doc["severity_order"]["held"] is False
    assert doc["severity_order"]["judged_on"] == "isolated"
    assert [c["severity"] for c in doc["controls"]] == ["minor", "critical", "major"]


def test_the_order_is_judged_on_isolated_scores_never_on_noise_in_untargeted_rows():
    """The issue's audit: a slow first paint cost the minor control 0.026 in rows its
    defect never touches, so its full score fell below the major one's. On isolated
    scores the order holds; both figures are printed."""
    noisy = result(verdict("no-empty-state", "major", 0.9730),
                   verdict("two-decimal-yen", "minor", 0.9965, score=0.9705))  # fmt: skip
    assert noisy.order == () and noisy.passed
    row = next(line for line in audit_lines(noisy) if line.startswith("two-decimal-yen"))
    assert row.split()[:5] == ["two-decimal-yen", "minor", "0.9965", "0.9705", "1.0000"]
    doc = audit_dict(noisy)["controls"][1]
    assert (doc["isolated_score"], doc["score"]) == (0.9965, 0.9705)
    inverted = result(verdict("no-empty-state", "major", 0.9970, score=0.9600),
                      verdict("two-decimal-yen", "minor", 0.9965, score=0.9700))  # fmt: skip
    assert inverted.order == (
        "no-empty-state (major) isolated 0.9970, not below two-decimal-yen (minor) 0.9965",
    )  # a lower full score does not rescue a defect that costs too little by itself


def test_the_consequence_classes_are_held_in_the_methodologys_order():
    """§11's order (wrong-money < data-loss < dead-flow < console-error < minor <
    cosmetic) over the controls that declare a consequence, on top of the severity order:
    a console error that costs as much as a dead approval flow is an inversion even when
    both are declared ``major``; a control declaring no class is never compared by it."""
    held = result(verdict("yen", "critical", 0.55, consequence="wrong-money"),
                  verdict("lossy", "critical", 0.79, consequence="data-loss"),
                  verdict("approve", "major", 0.90, consequence="dead-flow"),
                  verdict("console", "major", 0.95, consequence="console-error"),
                  verdict("undeclared", "major", 0.96),
                  verdict("dates", "minor", 0.97, consequence="minor"),
                  verdict("select", "minor", 0.98, consequence="cosmetic"))  # fmt: skip
    assert held.order == ()
    inverted = result(verdict("approve", "major", 0.95, consequence="dead-flow"),
                      verdict("console", "major", 0.95, consequence="console-error"),
                      verdict("select", "minor", 0.96, consequence="cosmetic"),
                      verdict("dates", "minor", 0.97, consequence="minor"))  # fmt: skip
    assert inverted.order == (
        "approve (dead-flow) isolated 0.9500, not below console (console-error) 0.9500",
        "dates (minor) isolated 0.9700, not below select (cosmetic) 0.9600",
    )
    assert not inverted.passed


def test_a_control_with_an_unknown_consequence_is_refused(tmp_path):
    doc = {"description": "d", "targets": ["server_runs"], "phases": ["boot"],
           "critical": True, "tree": "none", "severity": "major",
           "consequence": "ugly"}  # fmt: skip
    path = tmp_path / "c.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(SpecError) as caught:
        load_control(path)
    assert caught.value.problems == [
        ("consequence", "one of wrong-money, data-loss, dead-flow, console-error, minor, "
         "cosmetic (gravest first)")
    ]  # fmt: skip


def test_the_full_audit_holds_the_scorers_own_selftest_order():
    """An inverted ruler fails the audit even where no control represents the classes
    it inverts: `ruler_problems` are the selftest's, prefixed."""
    from benchwright.scoring.files import load_scorer

    sb7 = load_scorer(SUITE.parents[1] / "scorers" / "sb7.yaml")
    assert ruler_problems(sb7) == ()
    raw = sb7.config.model_dump()
    raw["selftest"]["cosmetic"] = {"b_money_rendered": 0.0}  # now as grave as wrong money
    inverted = replace(sb7, config=type(sb7.config).model_validate(raw))
    problems = ruler_problems(inverted)
    assert problems and all(p.startswith("scorer selftest: ") for p in problems)
    assert any("cosmetic" in p for p in problems), problems
    raw["selftest"] = {"wrong-money": raw["selftest"]["wrong-money"]}  # a partial ruler
    partial = replace(sb7, config=type(sb7.config).model_validate(raw))
    assert any("no synthetic defect configured" in p for p in ruler_problems(partial))
    raw["selftest"] = {}  # a kit suite's scorer prices no consequence classes: no ruler
    assert ruler_problems(replace(sb7, config=type(sb7.config).model_validate(raw))) == ()


@pytest.mark.parametrize(
    ("verdicts", "code", "last"),
    [
        ((verdict("sum", "critical", 0.59), verdict("dates", "minor", 0.98)), EXIT_PASSED,
         "audit PASSED: 2/2 controls met their expectations; severity order held (2 controls, "
         "gravest lowest)"),
        # the contradiction: every expectation met, the order not; the last line says
        # FAILED and the exit code agrees
        ((verdict("sum", "critical", 0.99), verdict("dates", "minor", 0.98)), EXIT_FAILED,
         "audit FAILED: 2/2 controls met their expectations; severity order FAILED "
         "(1 inversion(s) above)"),
        ((verdict("sum", "critical", 0.59, problems=("score too high",)),
          verdict("dates", "minor", 0.98)), EXIT_FAILED,
         "audit FAILED: 1/2 controls met their expectations (failed: sum); severity order held "
         "(2 controls, gravest lowest)"),
    ],
)  # fmt: skip
def test_the_last_line_states_the_verdict_and_agrees_with_the_exit_code(verdicts, code, last):
    audited = result(*verdicts)
    lines = audit_lines(audited)
    assert lines[-1] == verdict_line(audited) == last
    assert exit_code(audited) == code
    assert audit_dict(audited)["verdict"] == last
    assert not any(line.startswith("audit PASSED") for line in lines[:-1])


def test_a_quick_audit_does_not_judge_the_order():
    quick = result(verdict("sum", "critical", 0.95), verdict("dates", "minor", 0.9), quick=True)
    assert quick.passed and exit_code(quick) == EXIT_PASSED
    assert audit_lines(quick)[-1].endswith(
        "severity order not judged (a quick audit's phase sets are not comparable)"
    )
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
        (
            "severity",
            "required: one of inert, corrupting, critical, major, minor, report-only "
            "(gravest first)",
        )
    ]


def test_every_shipped_control_declares_a_severity_and_each_class_is_used():
    controls = load_controls(SUITE)
    assert {c.severity for c in controls} == {name for name, _ in SEVERITIES}
    inert = {c.name for c in controls if c.severity == "inert"}
    assert inert == {"empty", "crash-without-db"}
