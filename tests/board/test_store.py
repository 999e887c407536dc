"""`BoardStore` reads: versions newest first, ranks by score whatever the sort (ties
share a rank), pages, baselines flagged, and no install id in what it returns."""

from __future__ import annotations

import pytest

from benchwright.board.migrate import upgrade
from benchwright.board.payload import Payload
from benchwright.board.store import BoardStore, UnknownSort, version_key
from board._posts import INSTALL_ID, Clock, post, sb6


def test_versions_order_by_number_with_a_release_after_its_rc() -> None:
    found = sorted(["sb-6.0", "sb-5.2", "sb-7.0", "sb-6.0-rc", "sb-10.1"], key=version_key)
    assert found == ["sb-5.2", "sb-6.0-rc", "sb-6.0", "sb-7.0", "sb-10.1"]


def test_a_fresh_board_holds_the_three_baselines_only(store: BoardStore) -> None:
    assert store.versions() == ["sb-5.2"]
    page = store.leaderboard("sb-5.2")
    assert [(r.rank, r.score, r.baseline, r.excellent) for r in page.rows] == [
        (1, 0.9755, True, True),
        (2, 0.9692, True, True),
        (3, 0.7861, True, False),
    ]


def test_ranks_follow_score_under_any_sort_and_ties_share(store: BoardStore) -> None:
    clock = Clock()
    ids = []
    for n, wall in enumerate([900.0, 700.0, 800.0]):
        body = post(install_id=f"{n:032x}")
        body["run"]["wallSecs"] = wall
        ids.append(store.add(Payload.model_validate(body), f"10.0.0.{n}", clock()))
        clock.advance(minutes=1)
    by_wall = store.leaderboard(sb6().version, sort="wallSecs", descending=False)
    assert [r.run_id for r in by_wall.rows] == [ids[1], ids[2], ids[0]]
    assert {r.rank for r in by_wall.rows} == {1}  # the same genuine score three times
    assert store.versions() == [sb6().version, "sb-5.2"]
    second = store.leaderboard(sb6().version, page=2, per_page=2)
    assert (second.total, second.pages, len(second.rows)) == (3, 2, 1)


def test_an_unknown_sort_is_refused_by_name(store: BoardStore) -> None:
    with pytest.raises(UnknownSort, match="unknown sort 'installId'"):
        store.leaderboard("sb-5.2", sort="installId")


def test_the_card_keeps_everything_but_the_install_id(store: BoardStore) -> None:
    now = Clock()()
    run_id = store.add(Payload.model_validate(post()), "10.1.1.1", now)
    card = store.run(run_id)
    assert card is not None
    text = card.model_dump_json()
    assert INSTALL_ID not in text and "10.1.1.1" not in text
    assert card.posted_at == now and card.run["wallSecs"] == 3720.0
    assert card.run["finishedAt"] == "2026-11-30T11:02:00+00:00"
    assert store.screenshot(run_id, 1) is None


def test_migrate_is_idempotent(store: BoardStore) -> None:
    assert upgrade(store.engine) == ("0004", "0004")
    assert len(store.leaderboard("sb-5.2").rows) == 3
