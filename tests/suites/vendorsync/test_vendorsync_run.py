"""``benchwright run suites/vendorsync``: a CLI-style ``command:`` agent builds the golden
(it copies it in) against the Meridian v1 build vendor served at ``http://127.0.0.1:8787``
in its sandbox; the trial is graded by the sb-5.2 grader, and ``vendor_read_docs`` is read
from the trace the harness recorded of that build vendor, never from the graded tree.

Two runs of one trial each: an agent that reads ``{DOCS_URL}`` before copying the golden
in earns the row; one that reads nothing and forges a trace wherever it can write (its
workspace; where the harness keeps the real one, which it cannot) earns 0 on it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from host_lease import host_to_itself

from benchwright.execution import evidence, integrity, verification
from benchwright.sandbox import unavailable_reason

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "suites" / "vendorsync" / "reference"
AGENT = ROOT / "tests" / "services" / "docs_agent.py"
BENCHWRIGHT = Path(sys.executable).with_name("benchwright")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(bool(unavailable_reason()), reason="needs bubblewrap"),
]


def _run(base: Path, *flags: str, readable: Path = GOLDEN) -> dict:
    """One trial of ``run suites/vendorsync`` with the docs agent given ``flags`` (the
    sandbox may read ``readable``); its exit, the trial's directory, its result and its
    seals."""
    state = base / "state"
    agent = f"command:python {AGENT} {{workspace}} {{prompt_file}} {' '.join(flags)}"
    done = subprocess.run(
        [str(BENCHWRIGHT), "run", str(ROOT / "suites" / "vendorsync"), "--agent", agent,
         "--out", str(base / "runs"), "--sandbox-ro", str(readable)],
        env={**os.environ, integrity.STATE_ENV: str(state)}, capture_output=True, text=True,
        timeout=900,
    )  # fmt: skip
    (run_dir,) = (base / "runs").iterdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(integrity.STATE_ENV, str(state))
        seals = verification.verify_run(run_dir)
    trial = run_dir / "trials" / "build" / "1"
    result = json.loads((trial / "result.json").read_text())
    written = trial / "evidence" / "vendorsync" / "scorecard.json"
    assert written.is_file(), (  # say why: the check's row and the run's last words
        [(c["status"], c["detail"]) for c in result.get("checks", [])],
        result.get("error"), done.returncode, done.stderr[-2000:],
    )  # fmt: skip
    card = json.loads(written.read_text())
    rows = {row["check_id"]: row for row in card["rows"]}
    return {"done": done, "trial": trial, "result": result, "seals": seals, "rows": rows}


@pytest.fixture(scope="module")
def read_docs(tmp_path_factory, request) -> dict:
    """The honest agent's run, with the host to itself: its trial is held at the golden's
    score, timed rows included."""
    base = tmp_path_factory.mktemp("vendorsync-read")
    with host_to_itself(request.config):
        return _run(base, "--read-docs", "--copy", str(GOLDEN / "vendorsync"))


@pytest.fixture(scope="module")
def forged(tmp_path_factory) -> dict:
    """The forger hands in an app that exits at boot: the row it forges for is graded
    from the build trace alone, so nothing else needs to run (seconds, not a grading)."""
    base = tmp_path_factory.mktemp("vendorsync-forged")
    stub = base / "stub" / "vendorsync"
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text("")
    (stub / "__main__.py").write_text("raise SystemExit('a stub: nothing to serve')\n")
    return _run(base, "--forge", "--copy", str(stub), readable=stub.parent)


def test_every_file_verifies_and_the_build_trace_is_sealed_with_the_scorecard(read_docs):
    assert read_docs["seals"].state == verification.VERIFIED, read_docs["seals"].headline()
    (check,) = read_docs["result"]["checks"]
    assert check["check_id"] == "vendorsync" and check["status"] in ("PASS", "FAIL")
    assert check["evidence"]["scorer_version"] == "sb-5.2", check["detail"]
    listed = read_docs["result"]["evidence_files"]
    assert {"vendorsync/scorecard.json", evidence.BUILD_TRACE} <= set(listed)


def test_the_trial_passes_at_the_goldens_score(read_docs):
    from benchwright.suites.vendorsync.checks import staged

    if staged():  # the golden's full score needs every browser row measured
        pytest.skip(f"browser checks still staged: {', '.join(staged())}")
    done = read_docs["done"]
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (check,) = read_docs["result"]["checks"]
    assert check["status"] == "PASS" and check["score"] >= 0.98, check["detail"]


def test_the_trials_card_is_one_the_sb52_board_recomposes(read_docs):
    from benchwright.board.identity import Identity
    from benchwright.board.publish import build_payload
    from benchwright.board.recompose import load_scorers, recompose

    card = read_docs["trial"] / "evidence" / "vendorsync" / "scorecard.json"
    payload = build_payload(card, Identity("test-poster-0000", "i", b"k" * 32), model="golden")
    assert payload.scorer_version == "sb-5.2" and len(payload.checks) == 60
    recompose(payload, load_scorers(ROOT / "scorers"))  # raises on any figure it disowns


def test_the_agent_read_the_docs_at_the_rendered_address_and_earned_the_row(read_docs):
    seen = json.loads((read_docs["trial"] / "answer.txt").read_text())
    assert seen["docs"] == {"url": "http://127.0.0.1:8787/v1/docs", "status": 200,
                            "bytes": seen["docs"]["bytes"]}  # fmt: skip
    build = (read_docs["trial"] / "evidence" / evidence.BUILD_TRACE).read_text().splitlines()
    assert [json.loads(line)["path"] for line in build] == ["/v1/docs"]
    row = read_docs["rows"]["vendor_read_docs"]
    assert (row["status"], row["score"]) == ("PASS", 1.0), row["detail"]


def test_the_grading_vendor_never_heard_of_the_agent(read_docs):
    """The docs read is the build mock's; the grader's fresh mock saw only the app."""
    trace = read_docs["trial"] / "evidence" / "vendorsync" / "scorecard.vendor-trace.jsonl"
    lines = [json.loads(line) for line in trace.read_text().splitlines()]
    assert lines and not [line for line in lines if line.get("path") in ("/v1/docs", "/docs")]


def test_a_forged_trace_does_not_earn_the_row(forged):
    seen = json.loads((forged["trial"] / "answer.txt").read_text())["forged"]
    assert seen["evidence/~build/vendor-trace.jsonl"] == "written"  # in its workspace
    assert seen["../evidence/~build/vendor-trace.jsonl"] != "written"  # the harness's place
    assert forged["seals"].state == verification.VERIFIED, forged["seals"].headline()
    assert (forged["trial"] / "evidence" / evidence.BUILD_TRACE).read_text() == ""
    row = forged["rows"]["vendor_read_docs"]
    assert (row["status"], row["score"]) == ("FAIL", 0.0), row["detail"]
