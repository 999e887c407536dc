"""Forged runs (issue #24, item 9): a run this machine never sealed is UNVERIFIED everywhere.

Real sealed runs (turnbench's fix-01/fix-02 by the oracle and the nop agent, made by
the real console script) are copied and edited the ways someone with write access to
the runs directory (but not to the state dir) could: a copy given a new run id with its
MACs stripped and its verdicts flipped, the same copy carrying its own key and index
(and every file sealed with that key), a copy claiming a run id sealed here, a
``run.json`` symlinked to a genuine one. Each is read by every reader: ``runs
list|show``, ``compare`` (refused, exit 2, unless ``--allow-unverified``), ``view``,
``report --html`` and ``gate`` (UNVERIFIED or TAMPERED in their first line), and
``run --resume`` (refused before anything runs).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from execution.sealed_runs import ROOT
from viewer.conftest import serving

from benchwright.execution import integrity, key_index
from benchwright.execution.verification import NO_KEY, verify_run

pytestmark = pytest.mark.slow
TURNBENCH_TASKS = ROOT / "suites" / "turnbench" / "tasks"


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def _save(path: Path, doc: dict[str, Any]) -> None:
    path.write_text(json.dumps(doc, indent=2))


def _forge(
    genuine: Path, run_id: str, finish: Callable[[dict[str, Any]], dict[str, Any]] = lambda d: d
) -> Path:
    """The attack of the issue: ``genuine`` copied as ``run_id``, every MAC stripped,
    every verdict flipped to passed and the pass rate to 1.0; ``finish`` then gets each
    document (to re-seal it, say) before it is written."""
    forged = genuine.parent / run_id
    shutil.copytree(genuine, forged)
    strip = ("mac", integrity.SUMMARY_SEALED)
    info = {k: v for k, v in _load(forged / "run.json").items() if k not in strip}
    _save(forged / "run.json", finish({**info, "run_id": run_id}))
    for path in forged.glob("trials/*/*/result.json"):
        doc = {k: v for k, v in _load(path).items() if k not in strip}
        checks = [{**c, "status": "PASS", "score": 1.0} for c in doc["checks"]]
        _save(path, finish({**doc, "verdict": "passed", "checks": checks}))
    summary = {k: v for k, v in _load(forged / "summary.json").items() if k not in strip}
    tasks = {t: {**v, "verdict": "passed", "iterations": ["passed"]}
             for t, v in summary["tasks"].items()}  # fmt: skip
    tiers = {**summary["tiers"], "correctness": {**summary["tiers"]["correctness"], "passed": 2}}
    forged_summary = {**summary, "run_id": run_id, "tasks": tasks, "tiers": tiers,
                      "correctness_pass_rate": 1.0}  # fmt: skip
    _save(forged / "summary.json", finish(forged_summary))
    return forged


def _planted(forged: Path) -> Path:
    """The attacker's own key, sealing every file of ``forged`` and planted where a
    careless reader might look: ``<run>/<id>.key``, ``<run>/run-keys/``, an index of its
    own in the run and beside it in the runs directory."""
    key = bytes(range(32))
    for path in [forged / "run.json", forged / "summary.json",
                 *forged.glob("trials/*/*/result.json")]:  # fmt: skip
        _save(path, integrity.seal(_load(path), key))
    for where in (forged, forged / "run-keys", forged.parent / "run-keys"):
        where.mkdir(exist_ok=True)
        (where / f"{forged.name}.key").write_text(key.hex() + "\n")
        with sqlite3.connect(where / key_index.INDEX) as db:
            db.execute("CREATE TABLE runs (run_id TEXT PRIMARY KEY, key TEXT NOT NULL, "
                       "path TEXT, run_json_mac TEXT, sealed_at TEXT NOT NULL)")  # fmt: skip
            db.execute("INSERT INTO runs VALUES (?, ?, ?, ?, ?)",
                       (forged.name, key.hex(), str(forged.resolve()),
                        _load(forged / "run.json")["mac"], "2026-12-01T00:00:00Z"))  # fmt: skip
    return forged


def _readers_refuse(cli: Any, genuine: Path, forged: Path, state: str, tmp_path: Path) -> None:
    """Every reader of ``forged`` says ``state`` (UNVERIFIED or TAMPERED) first, and none
    prints its forged verdicts as a comparison."""
    env = {integrity.STATE_ENV: os.environ[integrity.STATE_ENV]}
    runs_dir = str(forged.parent)

    listed = cli("runs", "list", "--runs-dir", runs_dir, env=env)
    assert listed.returncode == 0, listed.stderr
    row = next(line for line in listed.stdout.splitlines() if line.startswith(forged.name))
    assert row.split()[-1].startswith(f"{state},"), row
    genuine_row = next(ln for ln in listed.stdout.splitlines() if ln.startswith(genuine.name))
    assert "UNVERIFIED" not in genuine_row and "TAMPERED" not in genuine_row

    shown = cli("runs", "show", forged.name, "--runs-dir", runs_dir, env=env)
    assert shown.stdout.splitlines()[0].startswith(f"{state}: {forged}"), shown.stdout

    refused = cli("compare", str(genuine), str(forged), env=env)
    assert refused.returncode == 2, refused.stdout
    assert refused.stdout == "" and "-> 1.0" not in refused.stderr
    lines = refused.stderr.splitlines()
    assert any(str(forged) in line and "refused" in line for line in lines), lines
    assert all(line.startswith("error: compare: ") for line in lines), lines

    report = tmp_path / "report.html"
    written = cli("report", runs_dir, "--html", str(report), env=env)
    assert written.returncode == 0, written.stderr
    assert f"{state}: {forged}" in written.stdout.splitlines()[0]
    html = report.read_text()
    first = html.split("<main>", 1)[1].lstrip()
    assert first.startswith('<p class="banner seal-banner first-line"') and state in first[:300]

    manifest = tmp_path / "one.json"
    manifest.write_text(json.dumps({"task_files": ["fix-01.yaml"]}))
    trajectory = forged / "trials" / "fix-01" / "1" / "trajectory.json"
    gate = cli("gate", "--tasks", str(TURNBENCH_TASKS), "--manifest", str(manifest),
               "--trajectory", str(trajectory), env=env)  # fmt: skip
    assert gate.stdout.splitlines()[0].startswith(f"{state}: {forged}"), gate.stdout

    with serving(forged.parent) as url:
        run_page = httpx.get(f"{url}/runs/{forged.name}").text
        index = httpx.get(url + "/").text
        trial = httpx.get(f"{url}/runs/{forged.name}/trials/fix-01/1").text
        compared = httpx.get(f"{url}/compare?a=run:{genuine.name}&b=run:{forged.name}").text
    for page in (run_page, trial):  # the header bar, the very first line, says it too
        bar = page.split('<header class="bar">', 1)[1].split("</header>", 1)[0]
        assert f'data-seal="{state.lower()}">{state}</span>' in bar, bar
    for page in (run_page, trial, compared):
        first = page.split("<main>", 1)[1].lstrip()
        assert first.startswith('<p class="banner seal-banner first-line"'), first[:200]
        assert first.split("</p>", 1)[0].count(state) == 1
    row = index.split(f'data-run="{forged.name}"', 1)[1].split("</tr>", 1)[0]
    assert f"{state}:" in row


def test_a_copy_with_a_new_run_id_and_stripped_macs_is_unverified_everywhere(
    sealed_runs, cli, tmp_path
):
    forged = _forge(sealed_runs["nop"], "20261201T000000Z-nop-f0f0f0")
    _readers_refuse(cli, sealed_runs["nop"], forged, "UNVERIFIED", tmp_path)


def test_compare_allow_unverified_prints_the_verdict_marked_unverified_first(sealed_runs, cli):
    forged = _forge(sealed_runs["nop"], "20261201T000000Z-nop-f0f0f0")
    env = {integrity.STATE_ENV: os.environ[integrity.STATE_ENV]}
    done = cli("compare", str(sealed_runs["nop"]), str(forged), "--allow-unverified", env=env)
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()[:2]
    assert first == f"UNVERIFIED: {forged} was never sealed on this machine ({NO_KEY})"
    assert second == "correctness_pass_rate: 0.0 -> 1.0 (delta 1.0)"
    as_json = cli("compare", str(sealed_runs["nop"]), str(forged), "--allow-unverified", "--json",
                  env=env)  # fmt: skip
    doc = json.loads(as_json.stdout)
    assert doc["verified"] is False and doc["unverified"] == [first]


def test_a_forged_copy_carrying_its_own_key_and_index_is_still_unverified(
    sealed_runs, cli, tmp_path
):
    """Every file MACs correctly under the attacker's key, planted in the run, in
    ``run-keys/`` inside it and beside it: nothing there is ever read as a key."""
    forged = _planted(_forge(sealed_runs["nop"], "20261201T000000Z-nop-c0ffee"))
    _readers_refuse(cli, sealed_runs["nop"], forged, "UNVERIFIED", tmp_path)


def test_a_forged_copy_claiming_a_run_id_sealed_here_is_tampered(sealed_runs, cli, tmp_path):
    """The nop run's copy, given the oracle run's id: the oracle's key is found, and the
    stripped MACs (or, planted, the attacker's) do not verify under it."""
    forged = _forge(sealed_runs["nop"], "20261201T000000Z-nop-badbad",
                    lambda doc: {**doc, "run_id": sealed_runs["oracle"].name}
                    if "run_id" in doc else doc)  # fmt: skip
    _readers_refuse(cli, sealed_runs["nop"], forged, "TAMPERED", tmp_path)


def test_a_run_json_symlinked_to_a_genuine_one_is_tampered(sealed_runs, cli, tmp_path):
    """A forged run whose ``run.json`` is a symlink to the oracle run's (which verifies):
    the results are then looked up under the oracle's key and do not verify either."""
    forged = _forge(sealed_runs["nop"], "20261201T000000Z-nop-5e5e5e")
    (forged / "run.json").unlink()
    (forged / "run.json").symlink_to(sealed_runs["oracle"] / "run.json")
    _readers_refuse(cli, sealed_runs["nop"], forged, "TAMPERED", tmp_path)


def test_resume_refuses_a_run_never_sealed_here_before_anything_runs(sealed_runs, cli, tmp_path):
    """run.json names the agent a resume runs: a forged one naming a command is refused
    (exit 2, one line), and nothing runs; the explicit flag is named."""
    marker = tmp_path / "ran"
    forged = _forge(sealed_runs["nop"], "20261201T000000Z-nop-abcabc",
                    lambda doc: {**doc, "agent": f"command:touch {marker}"}
                    if "agent" in doc and "run_id" in doc and "tasks" in doc else doc)  # fmt: skip
    env = {integrity.STATE_ENV: os.environ[integrity.STATE_ENV]}
    done = cli("run", "--resume", str(forged), env=env)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        f"error: {forged}/run.json: cannot be verified (no key on this machine): refused, "
        "because a resume runs the agent and suite it names; read it, then pass "
        "--allow-unverified to run them"
    ]
    assert not marker.exists()
    assert key_index.lookup(forged, forged.name) is None  # and it was not adopted either


def test_a_directory_replaced_by_a_genuine_copy_of_another_run_is_tampered(sealed_runs, cli):
    """Where the nop run was sealed now lies a verbatim copy of the oracle run (every MAC
    valid under the oracle's key): the directory was sealed as the nop run, so its
    ``run.json`` naming the oracle run is tampered, and compare refuses."""
    nop, oracle = sealed_runs["nop"], sealed_runs["oracle"]
    key_index.record(nop.name, nop, key_index.lookup(nop, nop.name).key,
                     _load(nop / "run.json")["mac"])  # fmt: skip  # sealed in place
    shutil.rmtree(nop)
    shutil.copytree(oracle, nop)
    env = {integrity.STATE_ENV: os.environ[integrity.STATE_ENV]}
    done = cli("compare", str(oracle), str(nop), env=env)
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == (
        f"error: compare: {nop}/run.json fails verification (names run {oracle.name!r}, "
        f"not {nop.name}, sealed in {nop}): refused"
    )


def test_a_verbatim_copy_verifies_as_the_original_and_says_where_it_was_sealed(sealed_runs, cli):
    """The documented limit: a copy keeping its run id is the same sealed content."""
    copy = sealed_runs["oracle"].parent.parent / "elsewhere" / sealed_runs["oracle"].name
    shutil.copytree(sealed_runs["oracle"], copy)
    env = {integrity.STATE_ENV: os.environ[integrity.STATE_ENV]}
    done = cli("compare", str(sealed_runs["nop"]), str(copy), env=env)
    assert done.returncode == 0 and done.stdout.startswith("correctness_pass_rate: 0.0 -> 1.0")
    sealed_in = key_index.lookup(sealed_runs["oracle"], sealed_runs["oracle"].name).path
    assert verify_run(copy).origin == sealed_in != copy.resolve()  # the viewer's "sealed in"
    removed = cli("runs", "rm", copy.name, "--runs-dir", str(copy.parent), env=env)
    assert removed.stdout == f"removed {copy}\n"  # the original keeps its key
    assert key_index.lookup(sealed_runs["oracle"], sealed_runs["oracle"].name) is not None
