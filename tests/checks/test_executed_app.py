"""``executed_app``: the suite's grader on the built workspace, its scorecard in the check's
evidence directory as ``grade --json`` writes it. Cheap stand-ins grade the ``static``
phase only; tests/suites/vspro/test_run_build.py grades the golden in full, through ``run``."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
import yaml

from benchwright.dsl import load_suite
from benchwright.errors import SpecError, SpecErrors
from benchwright.execution import evaluate
from benchwright.model import Status, Trajectory
from benchwright.suites.grade_run import run_grade
from benchwright.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "suites" / "vspro" / "reference"


def _task(root: Path, check: dict, workspace: object):
    root.mkdir(parents=True, exist_ok=True)
    (root / "suite.yaml").write_text(yaml.safe_dump({
        "suite": "vspro", "classes": {"c": "c"}, "default_class": "c", "tasks": ["t.yaml"],
    }))  # fmt: skip
    files = {"fixture": str(REFERENCE)} if workspace == "golden" else {"workspace": workspace}
    spec = {"type": "executed_app", "id": "app", "suite": "vspro", **check}
    doc = {"id": "t", "prompt": "build it", "vendor": "meridian", **files, "checks": [spec]}
    (root / "t.yaml").write_text(yaml.safe_dump(doc))
    return load_suite(root).task("t")


def _run(task, evidence: Path | None):
    dirs = {}
    if evidence is not None:
        evidence.mkdir()
        dirs = {"app": evidence}
    trajectory = Trajectory((), {}, "", "test")
    with Workspace(task.files) as workspace:
        (result,) = evaluate(task, workspace, trajectory, evidence_dirs=dirs)
    return result


def test_an_empty_build_fails_with_its_reason_and_grades_nothing(tmp_path):
    task = _task(tmp_path / "s", {}, "empty")
    result = _run(task, tmp_path / "ev")
    assert (result.status, result.detail) == (
        Status.FAIL,
        "nothing was built: the workspace is empty",
    )
    assert list((tmp_path / "ev").iterdir()) == []


@pytest.fixture(scope="module")
def static_golden(tmp_path_factory):
    """The golden graded through its ``static`` phase by the check, and by ``grade --json``
    (both on seed 0: the check's is pinned, as a trial's grading is reproduced)."""
    base = tmp_path_factory.mktemp("static")
    task = _task(base / "s", {"phases": ["static"], "seed": 0}, "golden")
    result = _run(task, base / "ev")
    lines = list(run_grade("vspro", REFERENCE, base / "cli" / "scorecard.json", None, False, 0,
                           "static"))  # fmt: skip
    assert any("wrote" in line for line in lines)
    return result, base


def test_the_scorecard_is_the_one_grade_json_writes(static_golden):
    base = static_golden[1]
    ours = json.loads((base / "ev" / "scorecard.json").read_text())
    theirs = json.loads((base / "cli" / "scorecard.json").read_text())
    for doc in (ours, theirs):  # where the tree was copied and how long phases took vary
        doc["grading"].pop("tree"), doc["grading"].pop("phases"), doc.pop("provenance")
    assert ours == theirs


def test_a_partial_grading_fails_the_default_pass_rule_and_says_so(static_golden):
    result = static_golden[0]
    assert result.status is Status.FAIL
    assert 0 < result.score < 0.9
    assert result.detail.startswith("sb-6 sb-6.0 (measured-mean): score ")
    assert result.detail.endswith("(pass at >= 0.9)")
    ev = result.evidence
    assert set(ev) == {"score", "scorer_version", "tiers", "flags", "pass_score", "scorecard",
                       "seed"}  # fmt: skip
    assert ev["seed"] == 0
    assert ev["score"] == result.score and ev["scorecard"] == "scorecard.json"
    assert ev["flags"]["partial"] is True


def test_pass_score_sets_the_bar(tmp_path, static_golden):
    score = static_golden[0].score
    at = _run(_task(tmp_path / "at", {"phases": ["static"], "pass_score": score}, "golden"), None)
    above = round(score + 0.01, 4)
    over = _run(_task(tmp_path / "ov", {"phases": ["static"], "pass_score": above}, "golden"), None)
    assert (at.status, at.score) == (Status.PASS, score)
    assert over.status is Status.FAIL and over.detail.endswith(f"(pass at >= {above:g})")


def test_a_phase_that_fails_in_the_harness_is_infra_not_fail(tmp_path, monkeypatch):
    from benchwright.suites.kit.phases import PhasePlan
    from benchwright.suites.vspro import grader, phases

    def broken(ctx, obs):
        raise RuntimeError("the harness broke")

    crashed = tuple(dataclasses.replace(p, run=broken) if p.name == "static" else p
                    for p in phases.PHASES)  # fmt: skip
    plan = PhasePlan(crashed)
    monkeypatch.setattr(grader, "GRADER", dataclasses.replace(grader.GRADER, select=plan.select))
    result = _run(_task(tmp_path / "s", {"phases": ["static"]}, "golden"), None)
    assert result.status is Status.INFRA and result.score == 0.0
    assert "not a verdict, the harness failed during static (failed: RuntimeError" in result.detail


@pytest.mark.parametrize(
    ("check", "wanted"),
    [
        ({"phases": ["statik"]}, "checks[0].phases: unknown phase(s) statik"),
        ({"suite": "nosuch"}, "checks[0].suite: no grader for suite 'nosuch' (known: "),
        ({"pass_score": 1.5}, "checks[0].pass_score"),
    ],
)
def test_bad_params_are_named_at_load(tmp_path, check, wanted):
    with pytest.raises((SpecError, SpecErrors)) as caught:
        _task(tmp_path / "s", check, "golden")
    assert wanted in str(caught.value)
