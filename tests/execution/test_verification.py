"""Every reader verifies a run's seals (issue #13): real turnbench runs, edited on disk.

The runs (`sealed_runs`) are made once by the real console script; each test works on
a copy of them and of their keys, and edits it the ways someone with write access to a run
directory could: a failure flipped to a pass, a MAC stripped, a result moved to another
trial's directory, an edited or MAC-less summary, a key that is not on this machine.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchwright.execution import integrity, key_index
from benchwright.execution.verification import (
    NO_KEY,
    TAMPERED,
    UNSEALED,
    UNVERIFIED,
    VERIFIED,
    verify_run,
)
from execution.sealed_runs import drop_key

pytestmark = pytest.mark.slow


@pytest.fixture
def runs(sealed_runs: dict[str, Path]) -> dict[str, Path]:
    return sealed_runs


def _result(run: Path, task: str = "fix-01") -> Path:
    return run / "trials" / task / "1" / "result.json"


def _edit(path: Path, **fields: Any) -> None:
    doc = json.loads(path.read_text())
    path.write_text(json.dumps({k: v for k, v in {**doc, **fields}.items() if v is not None}))


def _compare(cli, runs: dict[str, Path], *flags: str) -> subprocess.CompletedProcess[str]:
    return cli("compare", f"runs/{runs['oracle'].name}", f"runs/{runs['nop'].name}", *flags)


def test_real_runs_verify_and_compare_without_a_warning(runs, cli):
    for run in runs.values():
        seals = verify_run(run)
        assert seals.counts() == {VERIFIED: 2, UNVERIFIED: 0, TAMPERED: 0}
        assert seals.summary is not None and seals.summary.state == VERIFIED
        assert seals.state == VERIFIED and seals.headline() is None
    proc = _compare(cli, runs)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert "tasks: 2 newly failing" in proc.stdout


@pytest.mark.parametrize(
    ("mac", "why"),
    [("keep", "fails verification (MAC mismatch)"), (None, "fails verification (no MAC)")],
)
def test_a_failure_flipped_to_a_pass_refuses_compare_naming_the_file(runs, cli, mac, why):
    path = _result(runs["nop"])
    doc = json.loads(path.read_text())
    _edit(path, verdict="passed", mac=doc["mac"] if mac else None)
    proc = _compare(cli, runs)
    assert proc.returncode == 2
    relative = Path("runs") / runs["nop"].name / "trials" / "fix-01" / "1" / "result.json"
    assert proc.stderr == f"error: compare: {relative} {why}: refused\n"
    assert proc.stdout == ""


def test_a_result_moved_to_another_trials_directory_is_tampered(runs):
    shutil.copy(_result(runs["oracle"], "fix-01"), _result(runs["oracle"], "fix-02"))
    trial = verify_run(runs["oracle"]).trial("fix-02", 1)
    assert trial is not None and trial.seal.state == TAMPERED
    assert trial.seal.badge == "TAMPERED: the result of fix-01 #1"
    assert not trial.counted


def test_a_result_symlinked_out_of_the_run_is_tampered_and_not_read(runs, tmp_path):
    outside = tmp_path / "outside.json"
    shutil.copy(_result(runs["oracle"]), outside)
    _result(runs["oracle"]).unlink()
    _result(runs["oracle"]).symlink_to(outside)
    trial = verify_run(runs["oracle"]).trial("fix-01", 1)
    assert trial is not None and (trial.seal.state, trial.doc) == (TAMPERED, None)


def test_an_edited_summary_refuses_compare(runs, cli):
    _edit(runs["nop"] / "summary.json", correctness_pass_rate=1.0)
    proc = _compare(cli, runs)
    assert proc.returncode == 2
    assert proc.stderr.endswith("summary.json fails verification (MAC mismatch): refused\n")
    assert verify_run(runs["nop"]).summary_doc is None  # nothing a reader may show


def test_a_summary_with_its_mac_stripped_is_tampered_not_old(runs):
    path = runs["nop"] / "summary.json"
    doc = json.loads(path.read_text())
    doc.pop("mac")
    path.write_text(json.dumps({**doc, "correctness_pass_rate": 1.0}))
    seals = verify_run(runs["nop"])
    assert seals.summary is not None and seals.summary.badge == "TAMPERED: no MAC"


def test_an_old_run_with_an_unsealed_summary_is_unverified_with_a_warning(runs, cli):
    """Written before summaries were sealed: results without the marker, no summary MAC."""
    run = runs["nop"]
    entry = key_index.lookup(run, run.name)
    assert entry is not None
    key = entry.key
    for path in run.glob("trials/*/*/result.json"):
        doc = json.loads(path.read_text())
        old = {k: v for k, v in doc.items() if k not in ("mac", integrity.SUMMARY_SEALED)}
        path.write_text(json.dumps(integrity.seal(old, key)))
    summary = json.loads((run / "summary.json").read_text())
    summary.pop("mac")
    (run / "summary.json").write_text(json.dumps(summary))
    seals = verify_run(run)
    assert seals.counts()[VERIFIED] == 2
    assert seals.summary is not None and seals.summary.badge == f"UNVERIFIED: {UNSEALED}"
    line = f"UNVERIFIED: runs/{run.name}/summary.json cannot be verified ({UNSEALED})"
    proc = _compare(cli, runs)
    assert proc.returncode == 2
    assert proc.stderr == f"error: compare: {line}: refused (--allow-unverified compares it)\n"
    proc = _compare(cli, runs, "--allow-unverified")
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout.splitlines()[0] == line


def test_without_the_keys_compare_refuses_unless_allowed_and_then_says_so_first(runs, cli):
    for run in runs.values():
        drop_key(run.name)
    _edit(_result(runs["nop"]), verdict="passed")  # undetectable here: flagged, not trusted
    seals = verify_run(runs["nop"])
    assert seals.counts() == {VERIFIED: 0, UNVERIFIED: 2, TAMPERED: 0}
    assert seals.trial("fix-01", 1).seal.badge == f"UNVERIFIED: {NO_KEY}"
    lines = [f"UNVERIFIED: runs/{run.name} was never sealed on this machine ({NO_KEY})"
             for run in (runs["oracle"], runs["nop"])]  # fmt: skip
    proc = _compare(cli, runs)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr.splitlines() == [
        f"error: compare: {line}: refused (--allow-unverified compares it)" for line in lines
    ]
    proc = _compare(cli, runs, "--allow-unverified")
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout.splitlines()[:2] == lines


def test_a_run_copied_under_another_name_finds_its_key_by_run_id(runs):
    copy = runs["oracle"].with_name("renamed-copy")
    shutil.copytree(runs["oracle"], copy)
    assert verify_run(copy).counts()[VERIFIED] == 2


_FIELDS = ("verdict", "task_id", "iteration", "agent", "error", "tier", "agent_s")


@settings(max_examples=40, deadline=None)
@given(field=st.sampled_from(_FIELDS), value=st.one_of(st.text(max_size=8), st.integers()))
def test_any_edit_of_any_sealed_field_is_tampered(sealed_made, tmp_path_factory, field, value):
    """Property: a result whose fields differ in any way from what was sealed never verifies."""
    made = sealed_made
    base = made["base"]
    os.environ[integrity.STATE_ENV] = str(base / "state")  # read-only use of the keys
    run = tmp_path_factory.mktemp("prop") / made["nop"]
    shutil.copytree(base / "runs" / made["nop"], run)
    doc = json.loads(_result(run).read_text())
    if doc.get(field) == value:
        return
    _result(run).write_text(json.dumps({**doc, field: value}))
    trial = verify_run(run).trial("fix-01", 1)
    assert trial is not None and trial.seal.state == TAMPERED and not trial.counted


def test_a_summary_copied_away_from_its_run_still_verifies_by_its_run_id(runs, cli, tmp_path):
    """What ``run --json FILE`` writes, or a summary attached to a CI job."""
    for agent, run in runs.items():
        shutil.copy(run / "summary.json", tmp_path / f"{agent}.json")
    seals = verify_run(tmp_path, tmp_path / "nop.json")
    assert seals.summary is not None and seals.summary.state == VERIFIED
    proc = cli("compare", "oracle.json", "nop.json")
    assert (proc.returncode, proc.stderr) == (0, "")
    _edit(tmp_path / "nop.json", correctness_pass_rate=1.0)
    proc = cli("compare", "oracle.json", "nop.json")
    assert proc.returncode == 2
    assert proc.stderr == "error: compare: nop.json fails verification (MAC mismatch): refused\n"
