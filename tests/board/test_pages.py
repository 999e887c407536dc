"""The board's HTML pages over real HTTP: one scorer version at a time, server-side sort and
pagination, run cards with every row, screenshots as image/png, and nothing a poster wrote
(nor any install id) reaching a page as markup."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from board._pages_seed import INSTALL_PREFIX, XSS, png, seeded_board


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    with seeded_board(Path(tmp_path_factory.mktemp("board"))) as served:
        yield served


def get(board: tuple[str, dict[str, Any]], path: str) -> httpx.Response:
    return httpx.get(board[0] + path, timeout=10)


def run_ids(html: str) -> list[str]:
    return re.findall(r'data-run="([^"]+)"', html)


def cells(html: str, cls: str) -> list[str]:
    return re.findall(rf'<td class="{cls}">([^<]*)</td>', html)


def test_the_board_shows_the_newest_version_and_lists_older_ones_as_historic(board) -> None:
    page = get(board, "/")
    assert page.status_code == 200
    assert 'scorer <span class="version">sb-6.0-rc</span>' in page.text
    assert 'href="/?version=sb-5.2">sb-5.2</a> <span class="note">(historic)' in page.text
    shown = run_ids(page.text)
    assert len(shown) == 50 and not set(shown) & set(board[1]["old"])


def test_an_older_version_is_its_own_board_never_mixed(board) -> None:
    page = get(board, "/?version=sb-5.2")
    shown = run_ids(page.text)
    baselines = [i for i in shown if i.startswith("baseline-")]
    assert sorted(set(shown) - set(baselines)) == sorted(board[1]["old"]) and len(baselines) == 3
    assert page.text.count('class="entry baseline"') == 3
    assert "claude-opus-5" in page.text and "0.9755" in page.text
    assert "frozen historic board" in page.text
    assert get(board, "/?version=sb-9").status_code == 404


def test_score_sort_is_best_first_and_ranks_hold_under_other_sorts(board) -> None:
    scores = [float(s) for s in cells(get(board, "/").text, "num score")]
    assert scores == sorted(scores, reverse=True) and scores[0] == 0.99
    by_wall = get(board, "/?sort=wall&dir=asc").text
    assert run_ids(by_wall)[0] != run_ids(get(board, "/").text)[0]
    assert re.search(r'<td class="num">1</td>\s*<td class="handle">[^\n]*&lt;img', by_wall)


def test_wall_sort_ascending_and_descending_are_mirrors(board) -> None:
    up = run_ids(get(board, "/?sort=wall&dir=asc&page=1").text)
    down = run_ids(get(board, "/?sort=wall&dir=desc&page=2").text)
    assert up[:5] == list(reversed(down))[:5]


def test_pagination_is_fifty_per_page_on_the_server(board) -> None:
    first, second = get(board, "/").text, get(board, "/?page=2").text
    assert "page 1 of 2 (56 entries)" in first and 'rel="next"' in first
    assert len(run_ids(second)) == 6 and 'rel="prev"' in second and 'rel="next"' not in second
    assert not set(run_ids(first)) & set(run_ids(second))
    past = get(board, "/?page=3")
    assert past.status_code == 404 and "page 3 is past the last page (2)" in past.text


def test_a_bad_sort_is_a_400_page(board) -> None:
    page = get(board, "/?sort=install&dir=up")
    assert page.status_code == 400 and "sort by one of score, date, wall, model" in page.text


def test_the_run_card_shows_composition_every_row_and_metadata(board) -> None:
    run_id = board[1]["sb6"][10]
    page = get(board, f"/runs/{run_id}")
    assert page.status_code == 200
    for text in (
        "0.4000",
        "inner",
        "excellence gate",
        "x 1.0000",
        "server_runs",
        "b_summary",
        "0: summary missing",
        "badge-fail",
        "goose",
        "16 min 10 s",
        "calm-otter-000a",
    ):
        assert text in page.text, text  # fmt: skip
    assert "No screenshots were posted" in page.text


def test_screenshots_are_served_as_png_with_nosniff(board) -> None:
    run_id = board[1]["xss"]
    card = get(board, f"/runs/{run_id}").text
    assert card.count(f'src="/runs/{run_id}/screenshots/') == 6  # thumbnail + full, x3
    shot = get(board, f"/runs/{run_id}/screenshots/1.png")
    assert shot.headers["content-type"] == "image/png"
    assert shot.headers["x-content-type-options"] == "nosniff"
    assert shot.content == png(65, 40)
    assert get(board, f"/runs/{run_id}/screenshots/3.png").status_code == 404


def test_an_unknown_run_is_a_404_page(board) -> None:
    page = get(board, "/runs/nope")
    assert page.status_code == 404 and "no run &#39;nope&#39; on this board" in page.text


def test_poster_text_is_escaped_and_no_install_id_is_on_any_page(board) -> None:
    run_id = board[1]["xss"]
    pages = [get(board, p) for p in ("/", "/?page=2", "/?version=sb-5.2", f"/runs/{run_id}")]
    for page in pages:
        assert XSS not in page.text and INSTALL_PREFIX not in page.text
        assert "script-src 'none'" in page.headers["content-security-policy"]
    assert get(board, f"/runs/{run_id}").text.count("&lt;img src=x onerror=") >= 3


def test_the_stylesheet_is_served_from_the_board(board) -> None:
    css = get(board, "/static/web.css")
    assert css.headers["content-type"].startswith("text/css") and ".badge-pass" in css.text


def test_a_baseline_card_is_marked_as_a_baseline(board) -> None:
    page = get(board, "/runs/baseline-claude-opus-5")
    assert page.status_code == 200
    assert "baseline</span></h1>" in page.text and "0.9755" in page.text
    assert "No per-check rows were recorded" in page.text and ">None<" not in page.text


def board_rows(html: str) -> dict[str, str]:
    """Each entry row's markup by run id."""
    return dict(re.findall(r'<tr class="entry[^"]*" data-run="([^"]+)">(.*?)</tr>', html, re.S))


def test_the_sb52_board_shows_the_three_published_baselines_marked_as_published(board) -> None:
    page = get(board, "/?version=sb-5.2")
    rows = board_rows(page.text)
    published = {i: r for i, r in rows.items() if "published baseline</span>" in r}
    assert sorted(published) == [
        "baseline-claude-haiku-4-5", "baseline-claude-opus-5", "baseline-claude-sonnet-5"
    ]  # fmt: skip
    assert set(rows) - set(published) == set(board[1]["old"])  # posted runs are not marked
    figures = {
        i: re.findall(r'class="num (?:score|wall)">([^<]*)<', r) for i, r in published.items()
    }
    assert figures == {  # methodology §04: score and wall clock, as published
        "baseline-claude-opus-5": ["0.9755", "19 min 30 s"],
        "baseline-claude-sonnet-5": ["0.9692", "6 min 50 s"],
        "baseline-claude-haiku-4-5": ["0.7861", "5 min 18 s"],
    }
    assert "no per-check rows behind them" in page.text


def test_no_other_scorer_board_shows_the_published_baselines(board) -> None:
    path, shown = "/", []
    while path:
        page = get(board, path)
        assert 'scorer <span class="version">sb-6.0-rc</span>' in page.text
        shown += list(board_rows(page.text))
        assert "published baseline</span>" not in page.text  # no row flagged
        assert "<em>published baseline</em>" not in page.text  # nor the note about them
        after = re.search(r'<a rel="next" href="([^"]+)"', page.text)
        path = after[1].replace("&amp;", "&") if after else ""
    assert len(shown) > 50 and not [i for i in shown if i.startswith("baseline-")]
