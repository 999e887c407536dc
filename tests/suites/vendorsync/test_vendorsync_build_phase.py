"""The vendorsync golden's build phase (facts entry 23): ``vendor_read_docs`` comes from a
build-phase vendor trace only. The freeze gate and ``audit`` grade the golden through a
scripted builder that reads the docs from the build vendor (1.0); a plain ``grade
--tree`` has no build phase (0, PROBE UNAVAILABLE). Static phase only: the row needs no
app, so nothing here boots one.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchwright.model import Status
from benchwright.sandbox import unavailable_reason
from benchwright.suites.audit.run import Auditor

ROOT = Path(__file__).resolve().parents[3]
SUITE = ROOT / "suites" / "vendorsync"
BENCHWRIGHT = Path(sys.executable).with_name("benchwright")

pytestmark = pytest.mark.skipif(bool(unavailable_reason()), reason="needs bubblewrap")


def _grade(tmp_path: Path, *extra: str) -> tuple[subprocess.CompletedProcess, dict]:
    card = tmp_path / "card.json"
    done = subprocess.run(
        [str(BENCHWRIGHT), "grade", str(SUITE), "--tree", str(SUITE / "reference"),
         "--phases", "static", "--json", str(card), *extra],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip
    rows = {row["check_id"]: row for row in json.loads(card.read_text())["rows"]}
    return done, rows["vendor_read_docs"]


@pytest.mark.slow
def test_a_plain_grade_has_no_build_phase_the_row_is_probe_unavailable(tmp_path):
    done, row = _grade(tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (row["status"], row["score"]) == ("UNAVAILABLE", 0.0)
    assert row["detail"].startswith("PROBE UNAVAILABLE")


@pytest.mark.slow
def test_the_freeze_gate_grades_the_golden_as_built_by_a_reader_of_the_docs(tmp_path):
    done, row = _grade(tmp_path, "--reference")
    assert (row["status"], row["score"]) == ("PASS", 1.0), row["detail"]
    assert "fetched the vendor docs 1x" in row["detail"], done.stdout[-2000:]
    # one phase graded: the gate refuses (no marker), for every row but this one
    assert done.returncode == 3 and "refused twice" in done.stderr
    assert "vendor_read_docs" not in done.stderr


def test_audit_grades_the_golden_and_its_controls_through_the_build_phase():
    card, _ = Auditor(str(SUITE)).card(SUITE / "reference", ("static",))
    row = card.row("vendor_read_docs")
    assert (row.status, row.score) == (Status.PASS, 1.0), row.detail
