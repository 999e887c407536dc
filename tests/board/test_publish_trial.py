"""``benchwright publish RUN_DIR[/TRIAL]``: a sealed trial's scorecard posted with the run
metadata the trial measured (model, start, finish, wall, events, repair rounds, tokens,
nodes), to a real board (uvicorn on 127.0.0.1, a migrated SQLite file) whose run page
shows them; a tampered or unverified trial, evidence that is not the sealed evidence,
and hand-typed metadata are refused before anything is sent; the board's swarm rule
judges what was measured."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from benchwright.board.from_run import trial_card
from benchwright.board.store import BoardStore
from benchwright.errors import SpecError
from benchwright.execution import integrity
from benchwright.reports.scorecard import scorecard_dict
from benchwright.scoring import compose, defect_rows
from board._pages_seed import png
from board._posts import sb6
from board._trials import FLEET, add_trial, make_run


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """This test's run index and identity (for this process and the console script)."""
    env = {integrity.STATE_ENV: str(tmp_path / "state"), "XDG_CONFIG_HOME": str(tmp_path / "c")}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return env


@pytest.fixture
def card(tmp_path: Path) -> Path:
    """A grader's card with two marked screenshots in ``card.browser/`` beside it."""
    folder = tmp_path / "graded"
    evidence = {}
    for n, name in enumerate(("load", "empty")):
        shot = folder / "card.browser" / f"{name}.png"
        shot.parent.mkdir(parents=True, exist_ok=True)
        shot.write_bytes(png(80 + n, 50))
        evidence[f"screenshot_{name}"] = str(shot)
    doc = scorecard_dict(compose(defect_rows(sb6(), {"server_runs": 0.5}), sb6()))
    doc["provenance"] = {"suite": "vspro", "tree_sha256": "ab" * 32}
    doc["grading"] = {"phases": [{"name": "boot", "seconds": 0.4}], "evidence": evidence}
    path = folder / "card.json"
    path.write_text(json.dumps(doc))
    return path


def _runs(board: tuple[str, BoardStore]) -> int:
    return len(httpx.get(board[0] + "/api/leaderboard", params={"version": sb6().version})
               .json().get("rows", []))  # fmt: skip


def test_a_golden_trial_is_published_with_what_its_run_measured(
    cli, board, state, golden_card: Path, tmp_path: Path
) -> None:
    """The acceptance case: a trial holding the golden's grading, run by a model agent on a
    two-node fleet, is accepted; its page shows model, wall, events, tokens and nodes."""
    url, store = board
    run_dir, key = make_run(tmp_path / "runs")
    trial = add_trial(run_dir, key, golden_card, FLEET)
    done = cli("publish", str(trial), "--to", url, env=state)
    assert done.returncode == 0, done.stderr
    run_url = done.stdout.strip()
    card = store.run(run_url.rsplit("/", 1)[1])
    assert card is not None
    golden = json.loads(golden_card.read_text())
    assert card.score == golden["score"] and card.model == "qwen3-coder-30b" and card.nodes == 2
    assert card.run == {
        "startedAt": "2026-12-03T22:00:00+00:00", "finishedAt": "2026-12-03T22:12:03.250000+00:00",
        "engineEvents": 140, "repairRounds": 2, "wallSecs": 723.25,
        "agent": "model:openai/qwen3", "suite": "vspro",
        "treeSha256": golden["provenance"]["tree_sha256"],
        "inputTokens": 181220, "outputTokens": 40213, "costUsd": None,
    }  # fmt: skip
    page = httpx.get(run_url).text
    for shown in ("qwen3-coder-30b", "<dt>nodes</dt><dd><bdi>2</bdi>",
                  "<dt>wall time</dt><dd><bdi>12 min 03 s</bdi>",
                  "<dt>engine events</dt><dd><bdi>140</bdi>",
                  "<dt>tokens</dt><dd><bdi>181,220 in / 40,213 out</bdi>",
                  "<dt>cost</dt><dd><bdi>tokens only</bdi>"):  # fmt: skip
        assert shown in page, shown


def test_a_run_directory_with_one_graded_trial_names_it(state, card: Path, tmp_path) -> None:
    run_dir, key = make_run(tmp_path / "runs")
    add_trial(run_dir, key, card, FLEET)
    found = trial_card(run_dir)
    assert found.card == run_dir / "trials/build/1/evidence/vspro/scorecard.json"
    assert (found.model, found.nodes, found.run["engineEvents"]) == ("qwen3-coder-30b", 2, 140)
    add_trial(run_dir, key, card, FLEET, iteration=2)
    with pytest.raises(SpecError, match=r"several trials have a scorecard: publish one of "
                       r"its trials \(RUN_DIR/trials/<task>/<n>\); trials: trials/build/1, "
                       r"trials/build/2"):  # fmt: skip
        trial_card(run_dir)


def test_a_tampered_trial_is_refused_and_nothing_is_posted(
    cli, board, state, card: Path, tmp_path: Path
) -> None:
    run_dir, key = make_run(tmp_path / "runs")
    trial = add_trial(run_dir, key, card, {**FLEET, "model_calls": 5, "tool_steps": 5})
    result = trial / "result.json"
    doc = json.loads(result.read_text())
    doc["run"]["engine_events"] = 5000  # past the swarm minimum, without the key
    result.write_text(json.dumps(doc))
    done = cli("publish", str(trial), "--to", board[0], env=state)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"error: {trial}: {result} fails verification (MAC mismatch): refused (only a "
        "verified trial is published)"
    )
    assert _runs(board) == 0


@pytest.mark.parametrize("change", ["edited", "added", "symlink"])
def test_evidence_that_is_not_the_sealed_evidence_is_refused(
    state, card: Path, tmp_path: Path, change: str
) -> None:
    run_dir, key = make_run(tmp_path / "runs")
    evidence = add_trial(run_dir, key, card, FLEET) / "evidence" / "vspro"
    if change == "edited":
        doc = json.loads((evidence / "scorecard.json").read_text())
        (evidence / "scorecard.json").write_text(json.dumps({**doc, "score": 1.0}))
        why = r"scorecard\.json\b.*sha256.*refused"  # here, or by verification once it checks
    elif change == "added":
        (evidence / "scorecard.browser" / "extra.png").write_bytes(png(10, 10))
        why = "extra.png: is not evidence the trial's sealed result lists: refused"
    else:
        shot = evidence / "scorecard.browser" / "load.png"
        shot.unlink()
        shot.symlink_to(card.parent / "card.browser" / "load.png")  # the same bytes
        why = r"load\.png\b.*(is not evidence the trial's sealed result lists|is a link).*refused"
    with pytest.raises(SpecError, match=why):
        trial_card(evidence.parent.parent)


def test_a_trial_never_sealed_here_is_refused(state, card, tmp_path, monkeypatch) -> None:
    run_dir, key = make_run(tmp_path / "runs")
    trial = add_trial(run_dir, key, card, FLEET)
    monkeypatch.setenv(integrity.STATE_ENV, str(tmp_path / "elsewhere"))  # another machine
    with pytest.raises(SpecError, match=r"result.json cannot be verified \(no key on this "
                       r"machine\): refused"):  # fmt: skip
        trial_card(trial)


def test_metadata_is_never_typed_by_hand_for_a_trial(
    cli, board, state, card: Path, tmp_path: Path
) -> None:
    run_dir, key = make_run(tmp_path / "runs")
    trial = add_trial(run_dir, key, card, FLEET)
    nodes = cli("publish", str(trial), "--to", board[0], "--nodes", "0", env=state)
    assert nodes.returncode == 2 and "its nodes are the ones measured (2)" in nodes.stderr
    model = cli("publish", str(trial), "--to", board[0], "--model", "claude-opus-5", env=state)
    assert model.returncode == 2
    assert "the trial's record names qwen3-coder-30b; a measured model is not" in model.stderr
    unnamed = {k: v for k, v in FLEET.items() if k != "model"}
    other = add_trial(run_dir, key, card, unnamed, task="other")
    missing = cli("publish", str(other), "--to", board[0], env=state)
    assert missing.returncode == 2 and "names no model: pass --model" in missing.stderr
    assert _runs(board) == 0
    named = cli("publish", str(other), "--to", board[0], "--model", "qwen3-coder-30b", env=state)
    assert named.returncode == 0, named.stderr


def test_the_boards_swarm_rule_judges_what_was_measured(
    cli, board, state, card: Path, tmp_path: Path
) -> None:
    """A fleet trial (two endpoints: a swarm) with fewer than 100 engine events is refused
    by the board with its own message; nothing the poster types can lift it."""
    run_dir, key = make_run(tmp_path / "runs")
    trial = add_trial(run_dir, key, card, {**FLEET, "model_calls": 40, "tool_steps": 30})
    done = cli("publish", str(trial), "--to", board[0], env=state)
    assert done.returncode == 1
    assert "422 swarm_minimums: rule swarm_minimums: a swarm entrant (nodes 2) needs " in (
        done.stderr
    )
    assert "got 70 and 723.25" in done.stderr and _runs(board) == 0


def test_a_trial_recorded_before_runs_were_measured_is_refused(state, card, tmp_path) -> None:
    run_dir, key = make_run(tmp_path / "runs")
    trial = add_trial(run_dir, key, card, {"model": "m"})  # no harness clock: never started
    with pytest.raises(SpecError, match="no measured started_at, finished_at, wall_s"):
        trial_card(trial)
