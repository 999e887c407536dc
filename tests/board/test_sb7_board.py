"""The sb-7 era on the board: an sb-7 card is published as ``benchwright publish`` sends it
to a real board, which re-composes it to the card's own score, refuses it when a figure
or a critical's leg was edited, and shows it on the sb-7 board alone.

sb-7's criticals may read a row's ``severity_leg`` (the DST-window cells, the rows kept
after a kill) instead of its score, so a card whose rows are posted without their legs
composes to another number: the post carries each leg, and the board composes with it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic import command

from benchwright.board.app import create_app
from benchwright.board.identity import Identity
from benchwright.board.migrate import _config, upgrade
from benchwright.board.publish import PublishError, build_payload, post
from benchwright.board.recompose import load_scorers
from benchwright.board.store import BoardStore
from benchwright.model import CheckResult, Status
from benchwright.reports.scorecard import scorecard_dict
from benchwright.scoring import Scorer, compose, defect_rows, load_rows, load_scorer
from benchwright.scoring.criticals import SEVERITY_LEG
from benchwright.scoring.thresholds import ThresholdsPin
from benchwright.services._server import BackgroundServer
from board._posts import INSTALL_ID, ROOT, sb6

POSTER = Identity("crimson-heron-7f3a", INSTALL_ID, bytes(range(32)))
SB7 = ROOT / "scorers" / "sb7.yaml"
WORKED = ROOT / "tests" / "scoring" / "data" / "sb7-worked.json"
LOST_ROWS = "0: the restart after the B3 kill held 1382 of 1536 rows"


def _card(folder: Path, scorer: Scorer, rows: list[CheckResult], name: str = "sb7") -> Path:
    """A scorecard file as ``grade --json`` writes one."""
    doc = scorecard_dict(compose(rows, scorer))
    doc["provenance"] = {"suite": "sb7", "tree_sha256": "cd" * 32, "agent": "goose"}
    doc["grading"] = {"phases": [{"name": "sync1", "seconds": 61.0}], "evidence": {}}
    path = folder / f"{name}.json"
    path.write_text(json.dumps(doc))
    return path


def _with_lost_rows(scorer: Scorer) -> list[CheckResult]:
    """The worked example's rows, plus a kill that lost a tenth of the rows: r_no_row_loss
    scores 0 (binary) and its data-loss multiplier is sized by its leg, 0.9 (capped 0.5)."""
    rows = [r for r in load_rows(WORKED, scorer) if r.check_id != "r_no_row_loss"]
    return [*rows, CheckResult("r_no_row_loss", Status.FAIL, 0.0, LOST_ROWS, {SEVERITY_LEG: 0.9})]


def _posted(url: str, card: Path) -> dict[str, Any]:
    run_id = post(build_payload(card, POSTER, model="m"), httpx.URL(url), POSTER).rsplit("/")[-1]
    return httpx.get(f"{url}/api/benchmark-runs/{run_id}", timeout=10).json()


def _leaderboard(url: str, version: str) -> list[str]:
    answer = httpx.get(f"{url}/api/leaderboard", params={"version": version}, timeout=10)
    assert answer.status_code == 200, answer.text
    return [row["runId"] for row in answer.json()["rows"]]


@pytest.fixture(scope="module")
def sb7() -> Scorer:
    scorer = load_scorer(SB7)
    assert scorer.version == "sb-7.0-rc"  # the shipped pin is uncalibrated until the freeze
    return scorer


@pytest.fixture
def released(tmp_path: Path) -> Scorer:
    """sb-7 as it ships after calibration: the same thresholds claimed calibrated and
    pinned (``--thresholds``), hence version ``sb-7.0``."""
    values = json.loads((ROOT / "scorers" / "sb7-thresholds.json").read_text())
    path = tmp_path / "sb7-calibrated.json"
    path.write_text(json.dumps({**values, "calibrated": True}))
    pin = ThresholdsPin(path, hashlib.sha256(path.read_bytes()).hexdigest())
    return load_scorer(SB7, thresholds=pin)


@pytest.fixture
def both_boards(tmp_path: Path, released: Scorer) -> Iterator[str]:
    """A board holding the shipped scorers and the released sb-7 beside its rc."""
    store = BoardStore(f"sqlite:///{tmp_path / 'board.sqlite'}")
    upgrade(store.engine)
    scorers = {**load_scorers(ROOT / "scorers"), released.version: released}
    with BackgroundServer(create_app(store, scorers=scorers)) as server:
        yield server.base_url
    store.engine.dispose()


def test_the_worked_example_is_recomposed_to_its_own_score_on_the_sb7_board(
    board, sb7, tmp_path
) -> None:
    url, _ = board
    assert "sb-7.0-rc" in httpx.get(f"{url}/api/scorers", timeout=10).json()["accepted"]
    card = _card(tmp_path, sb7, load_rows(WORKED, sb7))
    shown = _posted(url, card)
    assert (shown["scorerVersion"], shown["score"]) == ("sb-7.0-rc", 0.8166)
    assert len(shown["checks"]) == 92
    assert _leaderboard(url, "sb-7.0-rc") == [shown["id"]]
    assert shown["id"] not in _leaderboard(url, "sb-6.0") + _leaderboard(url, "sb-5.2")
    page = httpx.get(f"{url}/?version=sb-7.0-rc", timeout=10).text
    assert f'data-run="{shown["id"]}"' in page and "published baseline</span>" not in page
    runs_page = httpx.get(f"{url}/runs/{shown['id']}", timeout=10)
    assert runs_page.status_code == 200 and "j_workflow_journey" in runs_page.text


def test_a_critical_leg_travels_with_its_row_and_sizes_the_multiplier(board, sb7, tmp_path):
    url, _ = board
    card = _card(tmp_path, sb7, _with_lost_rows(sb7))
    expected = json.loads(card.read_text())
    (factor,) = [f for f in expected["factors"] if f["check_id"] == "r_no_row_loss"]
    assert factor["factor"] == pytest.approx(0.6 + 0.4 * 0.5)  # the leg 0.9, capped at 0.5
    shown = _posted(url, card)
    assert shown["score"] == expected["score"] < 0.8166
    (row,) = [c for c in shown["checks"] if c["id"] == "r_no_row_loss"]
    assert (row["score"], row["severityLeg"]) == (0.0, 0.9)
    assert "r_no_row_loss" in httpx.get(f"{url}/runs/{shown['id']}", timeout=10).text


@pytest.mark.parametrize(
    ("edit", "code"),
    [
        (lambda doc: doc.update(score=round(doc["score"] + 0.01, 4)), "score_mismatch"),
        (lambda doc: _row(doc, "r_no_row_loss").update(severity_leg=0.2), "score_mismatch"),
        (lambda doc: _row(doc, "r_no_row_loss").pop("severity_leg"), "score_mismatch"),
        (lambda doc: _row(doc, "j_workflow_journey").update(score=0.9), "score_mismatch"),
    ],
    ids=["score", "leg lowered", "leg dropped", "row score"],
)
def test_a_tampered_sb7_card_is_refused(board, sb7, tmp_path, edit, code) -> None:
    card = _card(tmp_path, sb7, _with_lost_rows(sb7))
    doc = json.loads(card.read_text())
    edit(doc)
    card.write_text(json.dumps(doc))
    with pytest.raises(PublishError, match=code):
        post(build_payload(card, POSTER, model="m"), httpx.URL(board[0]), POSTER)
    assert _leaderboard(board[0], "sb-7.0-rc") == []


def _row(doc: dict[str, Any], check_id: str) -> dict[str, Any]:
    (row,) = [r for r in doc["rows"] if r["check_id"] == check_id]
    return row


def test_rc_and_released_sb7_cards_each_keep_their_own_board(
    both_boards, sb7, released, tmp_path
) -> None:
    url = both_boards
    rc = _posted(url, _card(tmp_path, sb7, _with_lost_rows(sb7), "rc"))
    final = _posted(url, _card(tmp_path, released, _with_lost_rows(released), "final"))
    vspro = _posted(url, _card(tmp_path, sb6(), defect_rows(sb6(), {"server_runs": 0.5}), "v"))
    assert final["scorerVersion"] == "sb-7.0" and final["score"] == rc["score"]
    assert _leaderboard(url, "sb-7.0") == [final["id"]]
    assert _leaderboard(url, "sb-7.0-rc") == [rc["id"]]
    assert _leaderboard(url, "sb-6.0") == [vspro["id"]]


def test_0004_adds_the_leg_column_keeping_the_runs_and_downgrades(tmp_path) -> None:
    board = BoardStore(f"sqlite:///{tmp_path / 'b.sqlite'}")
    config = _config()
    with board.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0003")
    before = board.leaderboard("sb-5.2").rows
    assert upgrade(board.engine) == ("0003", "0004")
    assert board.leaderboard("sb-5.2").rows == before
    with board.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0003")
    with board.engine.connect() as connection:
        columns = [r[1] for r in connection.exec_driver_sql("PRAGMA table_info(check_rows)")]
    assert "severity_leg" not in columns and "weight" in columns
    assert board.leaderboard("sb-5.2").rows == before
    board.engine.dispose()
