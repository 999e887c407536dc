"""Evidence files a check writes: carried back bounded, written under the trial, sealed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from benchwright.agents import build_agent
from benchwright.checks import CheckContext, CheckParams, CheckRegistry, check
from benchwright.dsl import load_suite
from benchwright.execution import TrialOptions, evidence, integrity, run_trial, store, verification
from benchwright.model import CheckResult

from .minisuites import make_suite


class _Params(CheckParams):
    size: int = 10


@check("writes_evidence", params=_Params)
def writes_evidence(p: _Params, ctx: CheckContext) -> CheckResult:
    """Writes a card and a nested file into its evidence directory; passes."""
    assert ctx.evidence_dir is not None
    assert not ctx.evidence_dir.is_relative_to(ctx.directory())
    (ctx.evidence_dir / "card.json").write_text('{"score": 1}')
    (ctx.evidence_dir / "shots").mkdir()
    (ctx.evidence_dir / "shots" / "a.png").write_bytes(b"x" * p.size)
    return ctx.passed("wrote evidence", where=str(ctx.evidence_dir))


@pytest.fixture(scope="module")
def sealed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bytes]:
    """One trial of a task whose check writes evidence, written to a run dir and sealed."""
    registry = CheckRegistry()
    registry.register(writes_evidence)
    root = make_suite(tmp_path_factory.mktemp("suite"), [{
        "id": "t", "class": "c", "workspace": {"a.txt": "a\n"},
        "checks": [{"type": "writes_evidence", "id": "ev"}],
    }])  # fmt: skip
    suite = load_suite(root, registry)
    options = TrialOptions(registry=registry)
    result = run_trial(suite.task("t"), suite.tiers["t"], build_agent("nop", suite.tasks), 1,
                       options)  # fmt: skip
    assert result.checks[0].passed, result.checks[0]
    assert set(result.artifacts) == {"ev/card.json", "ev/shots/a.png"}
    run_dir = tmp_path_factory.mktemp("run")
    key = integrity.new_key()
    store.write_trial(run_dir, result, key)
    return run_dir, key


def _copy(sealed: tuple[Path, bytes], tmp_path: Path) -> Path:
    import shutil

    shutil.copytree(sealed[0], tmp_path / "run")
    return tmp_path / "run"


def test_the_files_land_under_the_trial_and_result_json_lists_their_sha256(sealed):
    run_dir, key = sealed
    where = store.trial_dir(run_dir, "t", 1)
    assert (where / "evidence" / "ev" / "card.json").read_text() == '{"score": 1}'
    found = verification.read_trial(run_dir, "t", 1, key)
    assert found.seal.state == verification.VERIFIED
    assert found.result is not None
    assert set(found.result.evidence_files) == {"ev/card.json", "ev/shots/a.png"}


@pytest.mark.parametrize("attack", ["edit", "delete", "link"])
def test_a_changed_evidence_file_makes_the_result_tampered(sealed, tmp_path, attack):
    run_dir = _copy(sealed, tmp_path)
    shot = store.trial_dir(run_dir, "t", 1) / "evidence" / "ev" / "shots" / "a.png"
    if attack == "edit":
        shot.write_bytes(b"y" * 10)
    elif attack == "delete":
        shot.unlink()
    else:
        (tmp_path / "elsewhere.png").write_bytes(b"x" * 10)  # same bytes, through a link
        shot.unlink()
        os.symlink(tmp_path / "elsewhere.png", shot)
    found = verification.read_trial(run_dir, "t", 1, sealed[1])
    assert found.seal.state == verification.TAMPERED
    assert "shots/a.png" in found.seal.why
    why = {"edit": "does not match its sha256", "delete": "is missing", "link": "is a link"}
    assert why[attack] in found.seal.why
    done, reruns = verification.verified_results(run_dir, [("t", 1)], sealed[1])  # resume
    assert not done and "shots/a.png" in reruns[("t", 1)]


def test_an_edited_digest_in_result_json_breaks_its_mac(sealed, tmp_path):
    import json

    run_dir = _copy(sealed, tmp_path)
    path = store.trial_dir(run_dir, "t", 1) / "result.json"
    doc = json.loads(path.read_text())
    doc["evidence_files"]["ev/card.json"] = "0" * 64
    path.write_text(json.dumps(doc))
    assert verification.read_trial(run_dir, "t", 1, sealed[1]).seal.state == verification.TAMPERED


def test_files_past_the_cap_are_dropped_and_named_in_their_checks_evidence(tmp_path):
    root = tmp_path / "evidence"
    dirs = evidence.prepare(root, ["small", "big/one"])
    (dirs["small"] / "a.txt").write_bytes(b"a" * 10)
    (dirs["big/one"] / "b.bin").write_bytes(b"b" * 100)
    os.symlink("/etc/passwd", dirs["small"] / "leak")  # a link is never read
    checks = (CheckResult.passing("small", "ok"), CheckResult.passing("big/one", "ok"))
    artifacts, noted = evidence.collect(root, checks, cap=50)
    assert artifacts == {"small/a.txt": b"a" * 10}
    assert evidence.DROPPED not in noted[0].evidence
    assert noted[1].evidence[evidence.DROPPED] == ["big_one/b.bin (100 bytes)"]


@pytest.mark.parametrize("rel", ["../x", "/abs", "a/../b", "a//b", "./a", "", "a\\b"])
def test_an_unsafe_evidence_path_is_never_written(tmp_path, rel):
    from benchwright.execution.records import TrialResult

    result = TrialResult("t", "c", "correctness", 1, "nop", "passed", artifacts={rel: b"x"})
    with pytest.raises(ValueError, match="not a path below evidence/"):
        store.write_trial(tmp_path, result, integrity.new_key())


def test_an_agent_cannot_plant_evidence(tmp_path):
    """The evidence directory is made after the agent's last phase, beside the workspace,
    where a sandboxed agent cannot write: what it tries to leave there never counts."""
    registry = CheckRegistry()
    registry.register(writes_evidence)
    root = make_suite(tmp_path / "suite", [{
        "id": "t", "class": "c", "workspace": {"a.txt": "a\n"},
        "checks": [{"type": "writes_evidence", "id": "ev"}],
    }])  # fmt: skip
    suite = load_suite(root, registry)
    plant = ("command:sh -c 'mkdir -p {workspace}/../evidence/ev {scratch}/evidence/ev; "
             "echo forged > {workspace}/../evidence/ev/forged.txt; "
             "echo forged > {scratch}/evidence/ev/forged.txt; true'")  # fmt: skip
    agent = build_agent(plant, suite.tasks)
    result = run_trial(suite.task("t"), suite.tiers["t"], agent, 1, TrialOptions(registry=registry))
    assert result.checks[0].passed, result.checks[0]
    assert set(result.artifacts) == {"ev/card.json", "ev/shots/a.png"}
