"""``benchwright publish`` against a real board (uvicorn on 127.0.0.1, a migrated SQLite
file): the run appears with its screenshots, the identity is created once and reused, the
install id is sent (the board keys its rate limit on it) but shown by no page or API
answer, and a refusal or a bad card ends the command with the right code and message."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from benchwright.board.db import RunRow
from benchwright.reports.scorecard import scorecard_dict
from benchwright.scoring import compose, defect_rows
from board._pages_seed import png
from board._posts import sb6

SHOTS = ("load-1280", "load-375", "error", "empty", "note-conflict", "viz")
"""Six marked screenshots: one more than a post may carry."""


@pytest.fixture
def card(tmp_path: Path) -> Path:
    """A scorecard as ``grade --json reports/vspro.json`` writes it: composed by the pinned
    sb-6 scorer, screenshots recorded as ``grading.evidence.screenshot_<name>`` paths."""
    reports = tmp_path / "reports"
    evidence = {}
    for n, name in enumerate(SHOTS):
        shot = reports / "vspro.browser" / name / f"{name}.png"
        shot.parent.mkdir(parents=True)
        shot.write_bytes(png(100 + n, 60))
        evidence[f"screenshot_{name}"] = f"reports/vspro.browser/{name}/{name}.png"
    doc = scorecard_dict(compose(defect_rows(sb6(), {"server_runs": 0.5}), sb6()))
    doc["provenance"] = {"suite": "vspro", "tree_sha256": "cd" * 32}
    doc["grading"] = {
        "phases": [{"name": "boot", "seconds": 0.4}, {"name": "browser", "seconds": 11.1}],
        "evidence": {"app_log": "reports/vspro.app.log", **evidence},
    }
    path = reports / "vspro.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.fixture
def config(tmp_path: Path) -> dict[str, str]:
    return {"XDG_CONFIG_HOME": str(tmp_path / "config")}


def identity(config: dict[str, str]) -> dict[str, Any]:
    return json.loads((Path(config["XDG_CONFIG_HOME"]) / "benchwright/identity.json").read_text())


def test_a_published_run_appears_with_its_screenshots_and_no_install_id(
    cli, board, card, config, tmp_path
) -> None:
    url, store = board
    done = cli("publish", str(card), "--to", url, "--model", "qwen3-coder-30b", env=config)
    assert done.returncode == 0, done.stderr
    run_url = done.stdout.strip()
    assert run_url.startswith(f"{url}/runs/")
    run_id = run_url.rsplit("/", 1)[1]
    me = identity(config)
    with Session(store.engine) as session:  # the install id arrived: its digest keys the limit
        row = session.scalars(select(RunRow).where(RunRow.id == run_id)).one()
        assert row.install_digest == store.digest(me["installId"])
    page = httpx.get(run_url).text
    assert me["handle"] in page and "qwen3-coder-30b" in page and "server_runs" in page
    shots = [httpx.get(f"{url}/runs/{run_id}/screenshots/{n}.png") for n in range(6)]
    assert [s.status_code for s in shots] == [200] * 5 + [404]
    assert shots[0].content == png(100, 60)
    answers = [httpx.get(url + p) for p in ("/", f"/api/benchmark-runs/{run_id}",
               "/api/leaderboard", "/api/scorers")] + [httpx.get(run_url)]  # fmt: skip
    for answer in answers:
        assert answer.status_code == 200 and me["installId"] not in answer.text


def test_the_identity_is_created_once_and_reused(cli, board, card, config) -> None:
    url, _ = board
    first = cli("publish", str(card), "--to", url, "--model", "m1", env=config)
    made = identity(config)
    second = cli("publish", str(card), "--to", url, "--model", "m2", env=config)
    assert (first.returncode, second.returncode) == (0, 0), second.stderr
    assert identity(config) == made
    for done in (first, second):
        assert made["handle"] in httpx.get(done.stdout.strip()).text


def test_screenshots_moved_away_are_found_with_screenshots_dir(
    cli, board, card, config, tmp_path
) -> None:
    moved = tmp_path / "elsewhere"
    (card.parent / "vspro.browser").rename(moved)
    lost = cli("publish", str(card), "--to", board[0], "--model", "m", env=config)
    assert lost.returncode == 2
    assert lost.stderr.strip() == (
        f"error: {card}: grading.evidence.screenshot_load-1280: screenshot "
        "reports/vspro.browser/load-1280/load-1280.png not found in "
        f"{card.parent / 'vspro.browser'} (pass --screenshots-dir)"
    )
    found = cli("publish", str(card), "--to", board[0], "--model", "m",
                "--screenshots-dir", str(moved), env=config)  # fmt: skip
    assert found.returncode == 0, found.stderr


def test_the_boards_refusal_is_printed_and_exits_1(cli, board, card, config) -> None:
    done = cli("publish", str(card), "--to", board[0], "--model", "m", "--nodes", "3", env=config)
    assert done.returncode == 1
    assert "422 swarm_minimums: rule swarm_minimums: a swarm entrant (nodes 3) needs" in (
        done.stderr
    )


def test_an_unreachable_board_exits_1(cli, card, config) -> None:
    done = cli("publish", str(card), "--to", "http://127.0.0.1:9", "--model", "m", env=config)
    assert done.returncode == 1 and "cannot post" in done.stderr


def test_a_card_without_a_model_or_a_broken_card_exits_2(cli, board, card, config) -> None:
    no_model = cli("publish", str(card), "--to", board[0], env=config)
    assert no_model.returncode == 2
    assert no_model.stderr.strip() == f"error: {card}: model: the card names no model: pass --model"
    card.write_text("{}")
    broken = cli("publish", str(card), "--to", board[0], "--model", "m", env=config)
    assert broken.returncode == 2 and "not a scorecard JSON (no scorer_version)" in broken.stderr


def test_a_corrupt_identity_file_exits_2_naming_it(cli, board, card, config) -> None:
    path = Path(config["XDG_CONFIG_HOME"]) / "benchwright" / "identity.json"
    path.parent.mkdir(parents=True)
    path.write_text("{oops")
    done = cli("publish", str(card), "--to", board[0], "--model", "m", env=config)
    assert done.returncode == 2 and done.stderr.startswith(f"error: {path}: not a readable")


def test_an_identity_from_before_keys_gets_one_says_so_and_claims_its_handle(
    cli, board, card, config
) -> None:
    path = Path(config["XDG_CONFIG_HOME"]) / "benchwright" / "identity.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"handle": "calm-otter-1a2b", "installId": "ab12"}')
    path.chmod(0o600)
    done = cli("publish", str(card), "--to", board[0], "--model", "m", env=config)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == (
        f"{path}: added a signing key; a board binds handle 'calm-otter-1a2b' to the key of "
        "the first signed post under it"
    )
    assert "calm-otter-1a2b" in httpx.get(done.stdout.strip()).text
    path.write_text('{"handle": "calm-otter-1a2b", "installId": "ab12"}')  # the key is lost
    again = cli("publish", str(card), "--to", board[0], "--model", "m", env=config)
    assert again.returncode == 1
    assert "403 handle_claimed: handle 'calm-otter-1a2b' is claimed by another key" in again.stderr
