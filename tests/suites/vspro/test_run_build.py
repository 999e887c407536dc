"""``benchwright run suites/vspro``: a CLI-style ``command:`` agent builds the golden (it
copies it in) while reaching the build vendor at ``http://127.0.0.1:9003`` from its own
sandbox, in parallel with a second trial; both are graded at the golden's score, the
scorecard and the grader's evidence sealed in each trial.

One run (two trials on two workers, about 35 s of grading each on an idle host) serves
every assertion here: it is the slice's whole share of the CI budget.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from host_lease import host_to_itself

from benchwright.execution import integrity, verification
from benchwright.sandbox import unavailable_reason

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "suites" / "vspro" / "reference"
AGENT = ROOT / "tests" / "services" / "vendor_agent.py"
BENCHWRIGHT = Path(sys.executable).with_name("benchwright")
sys.path.insert(0, str(AGENT.parent))
from vendor_barrier import Barrier  # noqa: E402

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(bool(unavailable_reason()), reason="needs bubblewrap"),
]


@pytest.fixture(scope="module")
def run(tmp_path_factory, request):
    """The run directory of ``run suites/vspro --workers 2 --iterations 2``, its exit code
    and output, with its key in a state dir of its own (set for the readers below). With
    the host to itself: both trials are held at the golden's score."""
    base = tmp_path_factory.mktemp("vspro-run")
    state = base / "state"
    with Barrier(base / "barrier", 2) as barrier:
        agent = (f"command:python {AGENT} {{workspace}} {{prompt_file}} --barrier {barrier.path} "
                 f"--copy {GOLDEN / 'vspro'}")  # fmt: skip
        with host_to_itself(request.config):
            done = subprocess.run(
                [str(BENCHWRIGHT), "run", str(ROOT / "suites" / "vspro"), "--agent", agent,
                 "--workers", "2", "--iterations", "2", "--out", str(base / "runs"),
                 "--sandbox-ro", str(GOLDEN), "--sandbox-ro", str(barrier.directory)],
                env={**os.environ, integrity.STATE_ENV: str(state)}, capture_output=True,
                text=True, timeout=1200,
            )  # fmt: skip
        met = barrier.met.is_set()
    (run_dir,) = (base / "runs").iterdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(integrity.STATE_ENV, str(state))
        seals = verification.verify_run(run_dir)
    return {"dir": run_dir, "done": done, "met": met, "seals": seals}


def _trial(run, n: int) -> Path:
    return run["dir"] / "trials" / "build" / str(n)


def test_the_run_passes_and_every_file_verifies(run):
    done = run["done"]
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert run["seals"].state == verification.VERIFIED, run["seals"].headline()
    assert [(t.task_id, t.iteration) for t in run["seals"].trials] == [("build", 1), ("build", 2)]


@pytest.mark.parametrize("n", [1, 2])
def test_each_agent_reached_the_vendor_while_the_other_did(run, n):
    seen = json.loads((_trial(run, n) / "answer.txt").read_text())
    assert run["met"], "the two agents never waited at the barrier together"
    assert seen["base"] == "http://127.0.0.1:9003"
    assert seen["docs"]["status"] == 200 and "Meridian API v2" in seen["docs"]["body"]
    assert seen["payments"]["status"] == 200 and '"data"' in seen["payments"]["body"]
    assert (seen["barrier"], seen["docs_again"]) == ("go", 200)


@pytest.mark.parametrize("n", [1, 2])
def test_each_trial_is_graded_at_the_goldens_score_with_its_scorecard_sealed(run, n):
    result = json.loads((_trial(run, n) / "result.json").read_text())
    (check,) = result["checks"]
    assert (check["check_id"], check["status"]) == ("vspro", "PASS"), check["detail"]
    assert check["score"] == 1.0, check["detail"]  # the golden's (the freeze gate's bar)
    card = _trial(run, n) / "evidence" / "vspro" / "scorecard.json"
    doc = json.loads(card.read_text())
    assert doc["score"] == check["score"] and doc["scorer_version"] == "sb-6.0"
    listed = result["evidence_files"]
    assert "vspro/scorecard.json" in listed and "vspro/scorecard.vendor-trace.jsonl" in listed
    shots = [p for p in listed if p.startswith("vspro/scorecard.browser/")]
    assert shots and all((_trial(run, n) / "evidence" / p).is_file() for p in shots)
    assert set(check["evidence"]) == {"score", "scorer_version", "tiers", "flags", "pass_score",
                                      "scorecard", "seed"}  # fmt: skip
    assert doc["provenance"]["fixture_seed"] == str(check["evidence"]["seed"]) != "0"


def test_the_board_finds_the_trials_screenshots_beside_its_scorecard(run):
    from benchwright.board.identity import Identity
    from benchwright.board.publish import build_payload

    card = _trial(run, 1) / "evidence" / "vspro" / "scorecard.json"
    payload = build_payload(card, Identity("test-poster-0000", "i", b"k" * 32), model="golden")
    assert payload.screenshots


def test_the_grading_vendor_is_not_the_one_the_agent_built_against(run):
    """The agent fetched the docs and listed payments from its build mock; the grader's
    mock (its trace in the evidence) never heard of it: only the app under test called it."""
    trace = _trial(run, 1) / "evidence" / "vspro" / "scorecard.vendor-trace.jsonl"
    lines = [json.loads(line) for line in trace.read_text().splitlines()]
    assert any(line.get("ua") == "vspro/1.0" for line in lines)  # the app's calls are there
    agents = [line for line in lines if str(line.get("ua")).startswith("Python-urllib")]
    assert agents == [] and not [line for line in lines if line.get("path") == "/v2/docs"]
