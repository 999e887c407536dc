"""Results an agent cannot forge, and a resume that trusts only what verifies.

A finished run's ``result.json`` files are tampered with the ways an agent that
found the run directory could (a forged pass, a copy from another trial or run,
garbage), then the run is resumed: each bad trial runs again, the resume says
which and why in one line, and the summary counts only verified results.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest
from execution.minisuites import MINISUITE

from benchwright.errors import SpecError
from benchwright.execution import execute, key_index, plan_resume, plan_run
from benchwright.execution.compare import compare_runs
from benchwright.execution.integrity import state_dir
from benchwright.execution.verification import verify_run

pytestmark = pytest.mark.slow
TASKS = "[fn]*"  # fix-double and nav-count: two fast graded tasks
MISMATCH = "result.json fails verification (MAC mismatch)"


def _finished_run(tmp_path: Path, agent: str = "nop", iterations: int = 1) -> Path:
    plan = plan_run(MINISUITE, agent, tasks_glob=TASKS, iterations=iterations, out=tmp_path)
    execute(plan)
    return plan.run_dir


def _result(run_dir: Path, task: str, n: int = 1) -> Path:
    return run_dir / "trials" / task / str(n) / "result.json"


def _resume(run_dir: Path) -> tuple[list[str], dict]:
    """The resume's lines after its first (``resuming: N trials to run, M verified kept``)."""
    notes: list[str] = []
    outcome = execute(plan_resume(run_dir), lambda e, p: notes.append(p) if e == "note" else None)
    assert notes[0].startswith("resuming: "), notes
    return notes[1:], outcome.summary


def test_a_forged_pass_without_a_mac_is_re_run_and_counts_as_what_really_happened(tmp_path):
    run_dir = _finished_run(tmp_path)
    path = _result(run_dir, "fix-double")
    forged = json.loads(path.read_text())
    forged.pop("mac")
    path.write_text(json.dumps({**forged, "verdict": "passed", "checks": []}))
    notes, summary = _resume(run_dir)
    assert notes == ["resume: re-running fix-double #1: result.json fails verification (no MAC)"]
    assert summary["tasks"]["fix-double"]["verdict"] == "failed"
    assert json.loads((run_dir / "summary.json").read_text())["tiers"]["correctness"]["passed"] == 0


def test_an_edited_verdict_keeping_the_old_mac_fails_verification(tmp_path):
    run_dir = _finished_run(tmp_path)
    path = _result(run_dir, "nav-count")
    doc = json.loads(path.read_text())
    path.write_text(json.dumps({**doc, "verdict": "passed"}))
    notes, summary = _resume(run_dir)
    assert notes == [
        "resume: re-running nav-count #1: result.json fails verification (MAC mismatch)"
    ]
    assert summary["tasks"]["nav-count"]["verdict"] == "failed"
    assert json.loads(path.read_text())["verdict"] == "failed"


def test_a_result_sealed_by_another_run_does_not_verify(tmp_path):
    passing = _finished_run(tmp_path / "a", agent="oracle")
    run_dir = _finished_run(tmp_path / "b")
    shutil.copy(_result(passing, "fix-double"), _result(run_dir, "fix-double"))
    notes, summary = _resume(run_dir)
    assert notes == [
        "resume: re-running fix-double #1: result.json fails verification (MAC mismatch)"
    ]
    assert summary["tasks"]["fix-double"]["verdict"] == "failed"


def test_a_genuine_result_copied_to_another_trial_disagrees_with_its_directory(tmp_path):
    run_dir = _finished_run(tmp_path, iterations=2)
    shutil.copy(_result(run_dir, "nav-count", 1), _result(run_dir, "nav-count", 2))
    shutil.copy(_result(run_dir, "nav-count", 1), _result(run_dir, "fix-double", 1))
    notes, _ = _resume(run_dir)
    assert notes == [
        "resume: re-running fix-double #1: result.json is the result of nav-count #1",
        "resume: re-running nav-count #2: result.json is the result of nav-count #1",
    ]


@pytest.mark.parametrize(
    ("content", "why"),
    [
        ("{}", "result.json fails verification (no MAC)"),
        ("[]", "result.json does not hold an object"),
        ("{not json", "result.json is unreadable (JSONDecodeError: Expecting property name"),
        ('{"task_id": 7, "mac": 1}', "result.json fails verification (no MAC)"),
        ("", "result.json is unreadable (JSONDecodeError: Expecting value"),
    ],
    ids=["empty-object", "array", "bad-json", "wrong-types", "empty-file"],
)
def test_a_corrupt_result_is_re_run_with_the_reason_never_a_traceback(tmp_path, content, why):
    run_dir = _finished_run(tmp_path)
    _result(run_dir, "fix-double").write_text(content)
    notes, summary = _resume(run_dir)
    assert len(notes) == 1 and notes[0].startswith(f"resume: re-running fix-double #1: {why}")
    assert summary["complete"] is True
    assert json.loads(_result(run_dir, "fix-double").read_text())["task_id"] == "fix-double"


def test_missing_results_are_run_and_named(tmp_path):
    run_dir = _finished_run(tmp_path)
    shutil.rmtree(run_dir / "trials" / "nav-count")
    notes: list[str] = []
    summary = execute(
        plan_resume(run_dir), lambda e, p: notes.append(p) if e == "note" else None
    ).summary
    assert notes == ["resuming: 1 trial to run, 1 verified kept"]  # not run yet: no line of its own
    assert summary["tasks"]["nav-count"]["verdict"] == "failed"


def test_a_missing_run_key_re_runs_every_trial_and_says_so_once_when_allowed(tmp_path):
    run_dir = _finished_run(tmp_path)
    assert key_index.forget(run_dir)
    notes: list[str] = []
    plan = plan_resume(run_dir, allow_unverified=True)
    summary = execute(plan, lambda e, p: notes.append(p) if e == "note" else None).summary
    assert notes == [f"resume: run {run_dir.name} was never sealed on this machine "
                     "(no key on this machine): every trial re-runs (2)"]  # fmt: skip
    assert summary["complete"] is True
    assert key_index.lookup(run_dir, None) is not None
    assert _resume(run_dir)[0] == []  # the new key seals the re-run results


def test_the_key_lives_outside_the_run_directory_private_to_the_user(tmp_path, state_dir):
    run_dir = _finished_run(tmp_path)
    path = key_index.index_path()
    assert path == state_dir / "run-keys" / "index.sqlite"
    assert key_index.lookup(run_dir, None) is not None
    assert not path.is_relative_to(run_dir)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(state_dir.stat().st_mode) == 0o700
    assert not any(run_dir.rglob("*.key")) and not any(run_dir.rglob("*.sqlite"))


def test_keys_from_before_the_index_are_moved_into_it_and_still_verify(tmp_path, state_dir):
    """A run key file written before the index (``run-keys/<run id>.key``) keeps its run
    verifying: the first use of the index imports it, and the file is gone."""
    run_dir = _finished_run(tmp_path)
    key = key_index.lookup(run_dir, None).key
    assert key_index.forget(run_dir)
    legacy = state_dir / "run-keys" / f"{run_dir.name}.key"
    legacy.write_text(key.hex() + "\n")
    assert verify_run(run_dir).state == "verified"
    assert not legacy.exists()
    assert key_index.lookup(tmp_path / "elsewhere", run_dir.name).key == key


def test_the_state_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv("BENCHWRIGHT_STATE_DIR")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert state_dir() == tmp_path / "xdg" / "benchwright"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert state_dir() == tmp_path / "home" / ".local" / "state" / "benchwright"


def test_the_cli_resume_prints_one_line_per_re_run_trial(tmp_path, cli):
    run_dir = _finished_run(tmp_path)
    _result(run_dir, "fix-double").write_text("{}")
    done = cli("run", "--resume", str(run_dir), env={"BENCHWRIGHT_STATE_DIR": os.environ[
        "BENCHWRIGHT_STATE_DIR"]})  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert "resume: re-running fix-double #1: result.json fails verification (no MAC)" in (
        done.stderr
    )
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("edit", "why"),
    [
        (lambda info: {**info, "agent": "command:sh -c 'cat ~/.ssh/id_rsa'"}, "MAC mismatch"),
        (lambda info: {k: v for k, v in info.items() if k != "mac"}, "no MAC"),
    ],
    ids=["agent-swapped", "mac-stripped"],
)
def test_resume_refuses_a_run_json_that_is_not_the_runs_own(tmp_path, edit, why):
    """A resume runs the agent and suite run.json names, with the --env secrets given
    again: an edited run.json is refused before anything runs."""
    run_dir = _finished_run(tmp_path)
    path = run_dir / "run.json"
    path.write_text(json.dumps(edit(json.loads(path.read_text()))))
    with pytest.raises(SpecError) as refused:
        plan_resume(run_dir)
    assert f"run.json: fails verification ({why}): refused" in str(refused.value)


def test_resume_of_a_run_from_elsewhere_is_refused_unless_allowed(tmp_path):
    """A resume runs what run.json names: one never sealed here is refused before
    anything runs, unless the caller says --allow-unverified (then every trial re-runs)."""
    run_dir = _finished_run(tmp_path)
    assert key_index.forget(run_dir)  # no key here: nothing can be verified
    with pytest.raises(SpecError) as refused:
        plan_resume(run_dir)
    assert str(refused.value) == (
        f"{run_dir}/run.json: cannot be verified (no key on this machine): refused, because a "
        "resume runs the agent and suite it names; read it, then pass --allow-unverified to "
        "run them"
    )
    info = json.loads((run_dir / "run.json").read_text())
    plan = plan_resume(run_dir, allow_unverified=True)
    assert plan.info == {k: v for k, v in info.items() if k != "mac"}


def test_a_run_json_from_before_sealing_under_a_legacy_key_is_unverified_not_trusted(
    tmp_path, state_dir
):
    """A run from before run.json was sealed (its key a legacy file): its run.json is
    UNVERIFIED, not tampered; compare, which reads no verdict from it, compares the run
    as before, and a resume still refuses it without the flag; with the flag the run is
    re-sealed and verifies from then on."""
    run_dir = _finished_run(tmp_path)
    key = key_index.lookup(run_dir, None).key
    assert key_index.forget(run_dir)
    (state_dir / "run-keys" / f"{run_dir.name}.key").write_text(key.hex() + "\n")
    path = run_dir / "run.json"
    path.write_text(json.dumps({k: v for k, v in json.loads(path.read_text()).items()
                                if k != "mac"}))  # fmt: skip
    seals = verify_run(run_dir)
    assert (
        seals.run_json.badge
        == "UNVERIFIED: not sealed (written before benchwright sealed run.json)"
    )
    assert seals.counts()["verified"] == 2 and seals.state == "unverified"
    assert compare_runs(run_dir, run_dir)["verified"] is True  # its verdicts are sealed
    with pytest.raises(SpecError, match=r"run\.json: cannot be verified .*--allow-unverified"):
        plan_resume(run_dir)
    plan_resume(run_dir, allow_unverified=True)
    assert verify_run(run_dir).state == "verified"
