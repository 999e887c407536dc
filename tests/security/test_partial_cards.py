"""Red team, issue #24 item 18: rows turned UNAVAILABLE to lift a card.

Under sb-6's measured-mean policy an UNAVAILABLE (or INFRA, SKIPPED) row leaves its mean,
so a poster who relabels the FAIL rows of a run re-composes a much higher score from the
rows left, and the board's re-composition agrees: the rows say so. What the board must do
is show it: the leaderboard ranks such a partial card after every complete one and shows
the share of the weight that was not measured beside the score; the card page lists the
rows that were not measured. All over real HTTP against a real board.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from board._pages_seed import fresh_store
from board._posts import board_client, post, sb6

from benchwright.board.payload import scorecard_fields
from benchwright.model import CheckResult, Status
from benchwright.reports.scorecard import scorecard_dict
from benchwright.scoring import compose, defect_rows

API = "/api/benchmark-runs"
LOST = {"server_runs": 0.0, "t_camera": 0.0, "v_filter": 0.0, "p_list_latency": 0.0}


def card(relabel: Status | None = None, losses: dict[str, float] = LOST) -> dict[str, Any]:
    """The scorecard part of a run that failed ``losses``; with ``relabel``, the same run
    with those FAIL rows relabelled (what the attack posts)."""
    rows = defect_rows(sb6(), losses)
    if relabel is not None:
        rows = [
            CheckResult(r.check_id, relabel, 0.0, "probe could not measure")
            if r.status is Status.FAIL
            else r
            for r in rows
        ]
    return scorecard_fields(scorecard_dict(compose(rows, sb6())))


def share(fields: dict[str, Any]) -> float:
    tiered = [c for c in fields["checks"] if c["tier"] is not None]
    lost = sum(c["weight"] for c in tiered if c["status"] in ("UNAVAILABLE", "INFRA", "SKIPPED"))
    return lost / sum(c["weight"] for c in tiered)


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[httpx.Client, dict]]:
    """A board holding an honest card, a worse honest card, and the attacks."""
    posted: dict[str, Any] = {}
    entries = {
        "honest": card(),
        "worse": card(losses={**LOST, "j_first_use": 0.0, "v_pagination": 0.0, "t_picking": 0.0}),
        "unavailable": card(Status.UNAVAILABLE),
        "infra": card(Status.INFRA),
        "one_skipped": card(Status.SKIPPED, losses={"e_hard_mastery": 0.0}),
    }
    for client, _ in board_client(fresh_store(Path(tmp_path_factory.mktemp("board")))):
        for n, (name, fields) in enumerate(entries.items()):
            body = post(install_id=f"install-{name}", handle=f"poster-{n}", **fields)
            answer = client.post(API, json=body, headers={"X-Forwarded-For": f"10.8.0.{n + 1}"})
            assert answer.status_code == 201, (name, answer.text)
            posted[name] = {"id": answer.json()["id"], "fields": fields}
        yield client, posted


def test_the_attack_composes_a_higher_score_than_the_honest_run(board) -> None:
    _, posted = board
    honest, lifted = posted["honest"]["fields"], posted["unavailable"]["fields"]
    assert lifted["score"] > honest["score"] and lifted["composition"]["partial"]
    assert posted["infra"]["fields"]["score"] == lifted["score"]


def test_partial_cards_rank_after_every_complete_one_in_the_api(board) -> None:
    client, posted = board
    rows = client.get("/api/leaderboard", params={"version": "sb-6.0"}).json()["rows"]
    by_id = {r["runId"]: r for r in rows}
    complete = [posted[n]["id"] for n in ("honest", "worse")]
    partial = [posted[n]["id"] for n in ("unavailable", "infra", "one_skipped")]
    order = [r["runId"] for r in rows]
    assert set(order[:2]) == set(complete) and set(order[2:]) == set(partial), rows
    assert [by_id[i]["rank"] for i in complete] == [1, 2]
    assert all(by_id[i]["rank"] >= 3 and by_id[i]["partial"] for i in partial)
    assert by_id[posted["worse"]["id"]]["score"] < by_id[posted["unavailable"]["id"]]["score"]


def test_the_unavailable_share_is_the_weight_not_measured(board) -> None:
    client, posted = board
    rows = client.get("/api/leaderboard", params={"version": "sb-6.0"}).json()["rows"]
    by_id = {r["runId"]: r for r in rows}
    for name in ("honest", "unavailable", "infra", "one_skipped"):
        expected = share(posted[name]["fields"])
        assert by_id[posted[name]["id"]]["unavailableShare"] == pytest.approx(expected), name
    assert 0 < by_id[posted["one_skipped"]["id"]]["unavailableShare"] < 0.05
    found = client.get(f"{API}/{posted['unavailable']['id']}").json()
    assert found["partial"] and found["unavailableShare"] == pytest.approx(
        share(posted["unavailable"]["fields"])
    )


def test_the_board_page_shows_the_share_beside_the_score_and_the_partial_flag(board) -> None:
    client, posted = board
    page = client.get("/", params={"version": "sb-6.0"}).text
    order = re.findall(r'data-run="([^"]+)"', page)
    assert order.index(posted["worse"]["id"]) < order.index(posted["unavailable"]["id"])
    row = re.search(rf'data-run="{posted["unavailable"]["id"]}">.*?</tr>', page, re.S)
    assert row, page[:400]
    percent = f"{share(posted['unavailable']['fields']) * 100:.0f} %"
    assert re.search(
        rf'<td class="num score">{posted["unavailable"]["fields"]["score"]:.4f}</td>\s*'
        rf'<td class="num unavailable">{percent} '
        r'<span class="flag flag-partial">partial</span>',
        row[0],
    ), row[0]
    honest = re.search(rf'data-run="{posted["honest"]["id"]}">.*?</tr>', page, re.S)
    assert honest and '<td class="num unavailable">0 %</td>' in honest[0]


def test_the_card_page_lists_the_rows_not_measured(board) -> None:
    client, posted = board
    page = client.get(f"/runs/{posted['unavailable']['id']}").text
    section = re.search(r'<section class="unmeasured".*?</section>', page, re.S)
    assert section and f"Not measured ({len(LOST)})" in section[0]
    listed = re.findall(r'<li data-check="([^"]+)">', section[0])
    assert sorted(listed) == sorted(LOST)
    assert "badge-unavailable" in section[0]
    honest = client.get(f"/runs/{posted['honest']['id']}").text
    assert "Not measured" not in honest
