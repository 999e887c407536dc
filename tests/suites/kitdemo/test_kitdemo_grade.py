"""kitdemo graded for real: the golden scores 1.0 through ``grade``, its controls pass
``audit`` (a tiny app: seconds), an app that crashes at boot fails every row it blocked,
and the grader is a `kit.SuiteGrader` the CLI finds by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchwright import suites
from benchwright.errors import SpecError
from benchwright.model import Status
from benchwright.sandbox import UNCONFINED
from benchwright.suites.kit import SuiteGrader
from benchwright.suites.kitdemo import grade

SUITE = Path(__file__).parents[3] / "suites" / "kitdemo"


@pytest.mark.slow
def test_the_golden_grades_one_through_the_cli(cli, tmp_path):
    """1.0 holds its boot to the 5-s top rung, with no host window; it shares the host all
    the same: the golden booted healthy in 0.4 s beside five CPU spinners on two cores."""
    card = tmp_path / "card.json"
    done = cli("grade", str(SUITE), "--tree", str(SUITE / "reference"), "--json", str(card))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "kitdemo kitdemo-1 (fixed-denominator): score 1.0000" in done.stdout
    assert json.loads(card.read_text())["score"] == 1.0


@pytest.mark.slow
def test_the_audit_passes_with_its_severity_order_and_quick(cli):
    done = cli("audit", str(SUITE))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "audit PASSED: 2/2 controls met their expectations; severity order held" in done.stdout
    quick = cli("audit", str(SUITE), "--quick")  # each control through its own phases only
    assert quick.returncode == 0 and "audit PASSED: 2/2" in quick.stdout, quick.stdout


def test_an_app_that_crashes_at_boot_fails_the_rows_it_blocked(tmp_path):
    (tmp_path / "kitdemo").mkdir()
    (tmp_path / "kitdemo" / "__main__.py").write_text("import sqlite3\nraise SystemExit('Boom')\n")
    graded = grade(tmp_path, confinement=UNCONFINED)
    rows = {r.check_id: r for r in graded.rows}
    assert rows["package_present"].status is Status.PASS
    assert rows["server_runs"].score == 0.0 and "Boom" in graded.boot_failure.headline
    blocked = [c for c, r in rows.items() if r.evidence.get("blocked_by") == "server_runs"]
    assert sorted(blocked) == ["bad_input_400", "missing_404", "notes_created", "notes_listed",
                               "restart_keeps_notes"]  # fmt: skip
    assert [p.outcome for p in graded.phases][2:] == ["app down"] * 3


def test_the_grader_is_registered_and_has_no_vendor(tmp_path):
    assert isinstance(suites.grader_for(str(SUITE)), SuiteGrader)
    with pytest.raises(SpecError, match="kitdemo talks to no vendor"):
        grade(tmp_path, vendor_url="http://127.0.0.1:9003")
    only = grade(SUITE / "reference", phases=["static"], confinement=UNCONFINED)
    statuses = {r.check_id: r.status.name for r in only.rows}
    assert statuses.pop("package_present") == "PASS"
    assert set(statuses.values()) == {"NOT_ATTEMPTED"}
