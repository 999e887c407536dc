"""``benchwright runs list|show|rm`` over a real run directory (issue 18)."""

from __future__ import annotations

import json

import pytest

from benchwright.execution import execute, key_index, plan_run
from benchwright.execution.runs import list_runs
from execution.sealed_runs import drop_key

from .minisuites import MINISUITE


@pytest.fixture
def runs(tmp_path):
    """Two runs in ``tmp_path/runs``: a finished nop run, and an older one that was killed
    after one of its trials (no summary.json), made elsewhere (its key is not here)."""
    finished = plan_run(MINISUITE, "nop", tasks_glob="nav-*", out=tmp_path / "runs")
    execute(finished)
    killed = tmp_path / "runs" / "20200101T000000Z-oracle-abcdef"
    (killed / "trials" / "nav-count" / "1").mkdir(parents=True)
    result = finished.run_dir / "trials" / "nav-count" / "1" / "result.json"
    (killed / "trials" / "nav-count" / "1" / "result.json").write_text(result.read_text())
    info = {"run_id": killed.name, "created_at": "2020-01-01T00:00:00Z", "agent": "oracle",
            "suite": {"name": "minisuite"}, "tasks": ["nav-count", "edit-x"],
            "iterations": 2}  # fmt: skip
    (killed / "run.json").write_text(json.dumps(info))
    (tmp_path / "runs" / "not-a-run").mkdir()
    return finished.run_dir, killed


def test_list_shows_every_run_newest_first_with_its_progress(runs, cli):
    finished, killed = runs
    assert [e.id for e in list_runs(finished.parent)] == [finished.name, killed.name]
    proc = cli("runs", "list")
    assert proc.returncode == 0, proc.stderr
    header, first, second = proc.stdout.splitlines()
    assert header.split() == ["run", "suite", "agent", "created", "trials", "pass", "complete",
                              "seals"]  # fmt: skip
    assert first.split()[:2] == [finished.name, "minisuite"]
    assert first.split()[-4:] == ["1/1", "0%", "yes", "verified:1"]
    assert second.split() == [killed.name, "minisuite", "oracle", "2020-01-01T00:00:00Z",
                              "1/4", "-", "no", "UNVERIFIED,unverified:1"]  # fmt: skip


def test_list_json_is_machine_readable(runs, cli):
    finished, killed = runs
    proc = cli("runs", "list", "--json")
    rows = json.loads(proc.stdout)
    assert [r["id"] for r in rows] == [finished.name, killed.name]
    assert rows[1] == {
        "id": killed.name, "path": f"runs/{killed.name}", "suite": "minisuite",
        "agent": "oracle", "created_at": "2020-01-01T00:00:00Z", "trials_done": 1,
        "trials_total": 4, "correctness_pass_rate": None, "complete": False,
        "verification": {
            "state": "unverified",
            "why": f"UNVERIFIED: runs/{killed.name} was never sealed on this machine "
                   "(no key on this machine)",
            "verified": 0, "unverified": 1, "tampered": 0, "summary": None,
            "tampered_files": [],
        },
    }  # fmt: skip


def test_an_empty_or_missing_runs_dir_lists_nothing(cli, tmp_path):
    proc = cli("runs", "list", "--runs-dir", "elsewhere")
    assert (proc.returncode, proc.stdout) == (0, "no runs in elsewhere\n")


def test_show_prints_the_summary_each_tasks_verdict_and_where_files_are(runs, cli):
    finished, killed = runs
    proc = cli("runs", "show", finished.name)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == (f"{finished.name}: suite minisuite, agent nop, created "
                        f"{json.loads((finished / 'run.json').read_text())['created_at']}, "
                        "1/1 trials, correctness 0%, complete")  # fmt: skip
    assert lines[1] == "results: 1 verified, 0 unverified, 0 tampered; summary.json: verified"
    assert lines[2] == "correctness per trial: pass@1 0.00, mean score 0.00 (1 trial(s), 0 errored)"
    assert lines[3].split() == ["failed", "nav-count", "(correctness;", "failed;", "pass@1",
                                "0.00,", "mean", "score", "0.00)"]  # fmt: skip
    # then why each trial failed: its first failing check and detail, as `run` printed it
    result = json.loads((finished / "trials" / "nav-count" / "1" / "result.json").read_text())
    failed = next(c for c in result["checks"] if c["status"] != "PASS")
    assert lines[4] == f"    #1 {failed['check_id']}: {failed['detail']}"
    assert lines[-1].startswith(f"files: runs/{finished.name}/run.json, summary.json, trials/")
    shown = cli("runs", "show", f"runs/{killed.name}")
    assert "no summary.json yet" in shown.stdout and "incomplete" in shown.stdout


def test_show_an_unknown_run_exits_1(runs, cli):
    proc = cli("runs", "show", "20990101T000000Z-nop-000000")
    assert proc.returncode == 1
    assert proc.stderr == "error: no run '20990101T000000Z-nop-000000' in runs\n"
    assert cli("runs", "show", "not-a-run").returncode == 1  # a directory, but no run.json


def test_rm_removes_the_run_and_its_key_and_says_so(runs, cli):
    finished, killed = runs
    assert key_index.lookup(finished, finished.name) is not None
    proc = cli("runs", "rm", finished.name, f"runs/{killed.name}")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        f"removed runs/{finished.name}",
        f"removed its key from {key_index.index_path()}",
        f"removed runs/{killed.name}",
    ]
    assert not finished.exists() and not killed.exists()
    assert key_index.lookup(finished, finished.name) is None
    assert (finished.parent / "not-a-run").is_dir()


def test_rm_of_an_unknown_run_removes_the_others_and_exits_1(runs, cli):
    finished, _ = runs
    proc = cli("runs", "rm", "nope", finished.name)
    assert proc.returncode == 1
    assert proc.stdout == (
        f"removed runs/{finished.name}\nremoved its key from {key_index.index_path()}\n"
    )
    assert proc.stderr == "error: no run 'nope' in runs\n"


@pytest.mark.parametrize("outside", ["..", ".", "./runs", "/tmp", "runs/../runs", "link"])
def test_rm_refuses_anything_outside_the_runs_dir_before_removing_anything(
    runs, cli, tmp_path, outside
):
    finished, _ = runs
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "run.json").write_text("{}")
    (tmp_path / "runs" / "link").symlink_to(victim)
    proc = cli("runs", "rm", finished.name, outside)
    assert proc.returncode == 2
    assert proc.stderr == f"error: {outside}: is not a run directory inside runs: refused\n"
    assert finished.is_dir() and victim.is_dir() and proc.stdout == ""


def test_a_tampered_result_is_named_and_the_run_shows_no_pass_rate(runs, cli):
    """A failure flipped to a pass: ``list`` counts it tampered and withholds the pass
    rate, ``show`` names the file and why and prints no verdict."""
    finished, _ = runs
    path = finished / "trials" / "nav-count" / "1" / "result.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "verdict": "passed"}))
    first = cli("runs", "list").stdout.splitlines()[1].split()
    assert first[-4:] == ["1/1", "-", "yes", "TAMPERED,tampered:1"]
    lines = cli("runs", "show", finished.name).stdout.splitlines()
    assert lines[0] == (
        f"TAMPERED: runs/{finished.name}/trials/nav-count/1/result.json fails verification "
        "(MAC mismatch)"
    )
    assert lines[2:5] == [
        "results: 0 verified, 0 unverified, 1 tampered; summary.json: verified",
        f"  TAMPERED runs/{finished.name}/trials/nav-count/1/result.json fails verification "
        "(MAC mismatch)",
        "  verdicts withheld: the run has tampered files",
    ]
    shown = json.loads(cli("runs", "show", finished.name, "--json").stdout)
    assert shown["summary"] is None and shown["correctness_pass_rate"] is None


def test_an_edited_summary_is_named_and_a_missing_key_is_unverified(runs, cli):
    finished, _ = runs
    summary = finished / "summary.json"
    summary.write_text(json.dumps({**json.loads(summary.read_text()), "correctness_pass_rate": 1}))
    first = cli("runs", "list").stdout.splitlines()[1].split()
    assert first[-4:] == ["1/1", "-", "no", "TAMPERED,verified:1,summary:TAMPERED"]
    drop_key(finished.name)
    first = cli("runs", "list").stdout.splitlines()[1].split()
    assert first[-4:] == ["1/1", "100%", "yes", "UNVERIFIED,unverified:1,summary:UNVERIFIED"]
