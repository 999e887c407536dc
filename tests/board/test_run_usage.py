"""Tokens and cost on the board: optional ``run.inputTokens``, ``run.outputTokens`` and
``run.costUsd``, bounded like every count; stored (SQLite, and PostgreSQL when
``BENCHWRIGHT_TEST_PG`` is set) and shown on the run page; posts from before still
validate, and a board migrated from 0002 keeps its runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic import command

from benchwright.board.migrate import _config, head, upgrade
from benchwright.board.payload import Payload
from benchwright.board.store import BoardStore
from board._posts import Clock, post

API = "/api/benchmark-runs"
USAGE = {"inputTokens": 181220, "outputTokens": 40213, "costUsd": 0.8544}


def with_usage(**usage: Any) -> dict[str, Any]:
    body = post()
    body["run"] |= usage
    return body


def test_tokens_and_cost_are_stored_and_shown(client: httpx.Client) -> None:
    answer = client.post(API, json=with_usage(**USAGE))
    assert answer.status_code == 201, answer.text
    card = client.get(f"{API}/{answer.json()['id']}").json()
    assert {k: card["run"][k] for k in USAGE} == USAGE
    page = client.get(answer.json()["url"]).text
    assert "<dt>tokens</dt><dd><bdi>181,220 in / 40,213 out</bdi>" in page
    assert "<dt>cost</dt><dd><bdi>$0.8544</bdi>" in page


def test_tokens_without_a_price_show_tokens_only(client: httpx.Client) -> None:
    answer = client.post(API, json=with_usage(inputTokens=10, outputTokens=2))
    assert answer.status_code == 201, answer.text
    assert "<dt>cost</dt><dd><bdi>tokens only</bdi>" in client.get(answer.json()["url"]).text


def test_a_post_from_before_still_validates_and_shows_no_tokens(client: httpx.Client) -> None:
    body = post()
    assert not {"inputTokens", "outputTokens", "costUsd"} & body["run"].keys()
    answer = client.post(API, json=body)
    assert answer.status_code == 201, answer.text
    page = client.get(answer.json()["url"]).text
    assert "<dt>tokens</dt><dd><bdi>-</bdi>" in page and "<dt>cost</dt><dd><bdi>-</bdi>" in page


def test_unmeasured_usage_is_left_out_of_the_wire() -> None:
    """A board from before these keys refuses any unknown key, even a null one."""
    assert "inputTokens" not in Payload.model_validate(post()).wire()["run"]
    measured = Payload.model_validate(with_usage(inputTokens=5, outputTokens=1)).wire()["run"]
    assert (measured["inputTokens"], "costUsd" in measured) == (5, False)


@pytest.mark.parametrize(
    ("usage", "where"),
    [
        ({"inputTokens": -1}, "run.inputTokens"),
        ({"outputTokens": 2**31}, "run.outputTokens"),
        ({"inputTokens": "12"}, "run.inputTokens"),
        ({"inputTokens": 1.5}, "run.inputTokens"),
        ({"outputTokens": True}, "run.outputTokens"),
        ({"costUsd": -0.01}, "run.costUsd"),
        ({"costUsd": 1e10}, "run.costUsd"),
        ({"costUsd": "free"}, "run.costUsd"),
    ],
)
def test_bad_usage_is_refused_naming_the_field(
    client: httpx.Client, usage: dict[str, Any], where: str
) -> None:
    answer = client.post(API, json=with_usage(**usage))
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["code"] == "invalid_payload" and error["message"].startswith(f"{where}: "), error


def test_a_0002_board_keeps_its_runs_through_0003(db_url: str) -> None:
    board = BoardStore(db_url)
    config = _config()
    with board.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0002")
    before = board.leaderboard("sb-5.2").rows
    assert upgrade(board.engine) == ("0002", head())
    assert board.leaderboard("sb-5.2").rows == before
    card = board.run("baseline-claude-opus-5")
    assert card is not None and card.run["inputTokens"] is card.run["costUsd"] is None
    run_id = board.add(Payload.model_validate(with_usage(**USAGE)), "10.0.0.1", Clock()())
    stored = board.run(run_id)
    assert stored is not None and {k: stored.run[k] for k in USAGE} == USAGE
    board.engine.dispose()


def test_0003_downgrades_to_0002(tmp_path: Path) -> None:
    board = BoardStore(f"sqlite:///{tmp_path / 'b.sqlite'}")
    upgrade(board.engine)
    config = _config()
    with board.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0002")
    with board.engine.connect() as connection:
        columns = [r[1] for r in connection.exec_driver_sql("PRAGMA table_info(runs)")]
    assert "input_tokens" not in columns and "engine_events" in columns
    assert len(board.leaderboard("sb-5.2").rows) == 3
