"""``benchwright grade`` exit policy: 0 whenever grading completed (whatever the score,
UNAVAILABLE rows included), 3 when the harness broke during a phase (scorecard still
written), 2 for invalid input (``test_grader_cli.py``)."""

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchwright.cli import app

REPO = Path(__file__).parents[3]
SUITE = str(REPO / "suites" / "vspro")
GOLDEN = REPO / "suites" / "vspro" / "reference"


@pytest.mark.skipif(not (GOLDEN / "vspro").is_dir(), reason="golden reference not present")
def test_a_completed_grading_exits_0_whatever_the_score(tmp_path):
    out = tmp_path / "card.json"
    done = CliRunner().invoke(
        app, ["grade", SUITE, "--tree", str(GOLDEN), "--phases", "boot", "--json", str(out)]
    )
    assert done.exit_code == 0, done.output
    doc = json.loads(out.read_text())
    statuses = {r["status"] for r in doc["grading"]["results"]}
    assert doc["score"] < 0.1 and "NOT_ATTEMPTED" in statuses  # a low score is still exit 0


def test_a_harness_fault_during_a_phase_exits_3_after_writing_the_scorecard(tmp_path, monkeypatch):
    from benchwright.errors import HarnessError
    from benchwright.services.app import AppUnderTest

    def refuse(self, policy=None):
        raise HarnessError(f"port {self.port} is in use before the app starts")

    monkeypatch.setattr(AppUnderTest, "boot", refuse)
    tree = tmp_path / "built" / "vspro"
    tree.mkdir(parents=True)
    (tree / "__main__.py").write_text("raise SystemExit(0)\n")
    out = tmp_path / "card.json"
    done = CliRunner().invoke(
        app, ["grade", SUITE, "--tree", str(tree.parent), "--phases", "sync1", "--json", str(out)]
    )
    assert done.exit_code == 3, done.output
    assert "the harness failed during phase(s) boot (failed: HarnessError: port" in done.output
    card = [line for line in done.output.splitlines() if not line.startswith("phase ")]
    assert "score" in card[0]  # the scorecard was printed first (phase lines go to stderr)
    rows = {r["check_id"]: r for r in json.loads(out.read_text())["grading"]["results"]}
    assert rows["server_runs"]["status"] == "INFRA"


@pytest.mark.skipif(not (GOLDEN / "vspro").is_dir(), reason="golden reference not present")
def test_the_freeze_gate_refuses_only_after_a_repeat_and_says_what_held(tmp_path):
    """A subset grading can never clear the gate: it is graded twice, then refused (exit 3)
    with each problem marked as held on the repeat."""
    tree = tmp_path / "golden"
    shutil.copytree(GOLDEN, tree, ignore=shutil.ignore_patterns("*.db*", "sb6-reference-pass*"))
    done = CliRunner().invoke(
        app, ["grade", SUITE, "--tree", str(tree), "--phases", "boot", "--reference"]
    )
    assert done.exit_code == 3, done.output
    assert "grading the reference once more (a refusal must survive a repeat)" in done.output
    assert done.output.count("phases:") == 2  # two gradings, both printed
    assert "reference gate refused twice, no marker written" in done.output
    assert "(also on the first grading)" in done.output
    assert not (tree / "sb6-reference-pass.json").exists()


@pytest.mark.skipif(not (GOLDEN / "vspro").is_dir(), reason="golden reference not present")
def test_a_refusal_that_does_not_come_back_on_the_repeat_is_no_refusal(tmp_path, monkeypatch):
    """The gate's verdict on each grading is its own (tests/scoring); what is tested here is
    that a first refusal is followed by a repeat, and only a repeated one refuses."""
    from benchwright.scoring.freeze import FreezeDecision
    from benchwright.suites import grade_run

    verdicts = iter([("p_page_interactive is UNAVAILABLE: host contended",), ()])
    marker = tmp_path / "marker.json"

    def gate(grading, scorer):
        problems = next(verdicts)
        decision = FreezeDecision(None, None, problems)  # type: ignore[arg-type]
        return decision, None if problems else marker

    monkeypatch.setattr(grade_run, "reference_gate", gate)
    done = CliRunner().invoke(
        app, ["grade", SUITE, "--tree", str(GOLDEN), "--phases", "boot", "--reference"]
    )
    assert done.exit_code == 0, done.output
    assert "  p_page_interactive is UNAVAILABLE: host contended" in done.output
    assert "none of those problems came back on the repeat" in done.output
    assert done.output.rstrip().endswith(f"reference gate passed: wrote {marker}")
