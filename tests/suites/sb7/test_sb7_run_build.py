"""``benchwright run suites/sb7``: a CLI-style ``command:`` agent reads the Meridian v3 docs
at the ``{DOCS_URL}`` rendered into its prompt and copies the golden in; the trial is
graded by the sb-7 grader on a seed drawn for that grading (never the published 0), the
seed on the sealed scorecard and in the check's evidence so ``grade --seed`` reproduces it.

One trial of a copy of the suite whose build task grades a short phase selection (the
check's ``phases``: tree, sync1, reads, with boot and vendor): the run path is the whole
point here, and a full sb-7 grading (browser included, 4-6 minutes on this host) is the
golden grading's to pay, once per session (``sb7_golden``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchwright.checks.executed_app import SEED_SPACE, grading_seed
from benchwright.execution import integrity, verification
from benchwright.sandbox import unavailable_reason

ROOT = Path(__file__).resolve().parents[3]
SUITE = ROOT / "suites" / "sb7"
GOLDEN = SUITE / "reference"
AGENT = ROOT / "tests" / "services" / "docs_agent.py"
BENCHWRIGHT = Path(sys.executable).with_name("benchwright")
PHASES = ("tree", "sync1", "reads")
SEEDED = ("sync_completeness", "b_total_field", "b_buckets_dst", "b_viz_records",
          "c_b1_drop_resume", "c_b2_retry_after", "c_webhook_discipline",
          "r_b4_vendor_down_boot")  # fmt: skip
"""Rows of the selected phases whose expectation follows the seed."""


def _short_suite(folder: Path) -> Path:
    """``suites/sb7`` with its build check grading `PHASES` only (same spec, vendor, task),
    passing at any score (the rows left out are NOT_ATTEMPTED, so the number is low)."""
    suite = folder / "sb7"
    suite.mkdir()
    for name in ("suite.yaml", "spec.md"):
        shutil.copy(SUITE / name, suite / name)
    task = (SUITE / "build.yaml").read_text()
    assert task.endswith("    suite: sb7\n")
    (suite / "build.yaml").write_text(task + f"    phases: [{', '.join(PHASES)}]\n"
                                      "    pass_score: 0.0\n")  # fmt: skip
    return suite


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict:
    """One trial of the short suite: its exit, trial directory, result, scorecard, seals."""
    base = tmp_path_factory.mktemp("sb7-run")
    state = base / "state"
    agent = (f"command:python {AGENT} {{workspace}} {{prompt_file}} --read-docs "
             f"--copy-contents {GOLDEN}")  # fmt: skip
    done = subprocess.run(
        [str(BENCHWRIGHT), "run", str(_short_suite(base)), "--agent", agent,
         "--out", str(base / "runs"), "--sandbox-ro", str(GOLDEN)],
        env={**os.environ, integrity.STATE_ENV: str(state)}, capture_output=True, text=True,
        timeout=900,
    )  # fmt: skip
    (run_dir,) = (base / "runs").iterdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(integrity.STATE_ENV, str(state))
        seals = verification.verify_run(run_dir)
    trial = run_dir / "trials" / "build" / "1"
    result = json.loads((trial / "result.json").read_text())
    card = json.loads((trial / "evidence" / "sb7" / "scorecard.json").read_text())
    return {"done": done, "trial": trial, "result": result, "card": card, "seals": seals}


@pytest.mark.slow
@pytest.mark.skipif(bool(unavailable_reason()), reason="needs bubblewrap")
def test_the_run_builds_and_every_file_verifies(run) -> None:
    done = run["done"]
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert run["seals"].state == verification.VERIFIED, run["seals"].headline()
    seen = json.loads((run["trial"] / "answer.txt").read_text())
    assert seen["docs"]["status"] == 200 and "/v3/docs" in seen["docs"]["url"]
    listed = run["result"]["evidence_files"]
    assert {"sb7/scorecard.json", "sb7/scorecard.vendor-trace.jsonl"} <= set(listed)


@pytest.mark.slow
@pytest.mark.skipif(bool(unavailable_reason()), reason="needs bubblewrap")
def test_the_grading_drew_its_own_seed_and_recorded_it(run) -> None:
    (check,) = run["result"]["checks"]
    seed = check["evidence"]["seed"]
    assert check["check_id"] == "sb7" and 1 <= seed <= SEED_SPACE
    assert run["card"]["provenance"]["fixture_seed"] == str(seed)
    assert run["card"]["scorer_version"] == check["evidence"]["scorer_version"] == "sb-7.0-rc"


@pytest.mark.slow
@pytest.mark.skipif(bool(unavailable_reason()), reason="needs bubblewrap")
def test_the_golden_earns_the_seeded_rows_under_that_seed(run) -> None:
    """The grader's truth and its mock follow the drawn seed together: the rows that
    compare the app with the seeded fixture (its count, its Berlin days with the seeded
    DST day, the seeded drop, 500 and webhook traps, the vendor-down window) are full
    marks for the golden, as under seed 0."""
    rows = {r["check_id"]: r for r in run["card"]["rows"]}
    assert {c: (rows[c]["score"], rows[c]["detail"]) for c in SEEDED} == {
        c: (1.0, rows[c]["detail"]) for c in SEEDED
    }


def test_a_run_draws_a_fresh_nonzero_seed_per_grading_and_a_pinned_one_stays() -> None:
    drawn = {grading_seed(None) for _ in range(8)}
    assert len(drawn) > 1 and all(1 <= s <= SEED_SPACE for s in drawn)
    assert grading_seed(0) == 0 and grading_seed(41) == 41
