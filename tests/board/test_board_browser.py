"""The board in headless Chromium (the project's own launcher, `BrowserSession`): switching
scorer versions, sorting by a column header, paging, a run card's screenshot decoded, and
an XSS handle shown as text without any dialog firing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from board._pages_seed import XSS, seeded_board


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    with seeded_board(Path(tmp_path_factory.mktemp("board"))) as served:
        yield served


def test_the_scorer_selector_switches_to_a_historic_board(board, page) -> None:
    url, ids = board
    page.goto(url + "/")
    assert page.locator("h1 .version").inner_text() == "sb-6.0-rc"
    page.get_by_role("link", name="sb-5.2").click()
    page.wait_for_url("**version=sb-5.2**")
    assert page.locator("h1 .version").inner_text() == "sb-5.2"
    shown = page.locator("tr.entry:not(.baseline)").evaluate_all(
        "rows => rows.map(r => r.dataset.run)"
    )
    assert sorted(shown) == sorted(ids["old"])
    baselines = page.locator("tr.baseline")
    assert baselines.count() == 3 and "baseline" in baselines.first.inner_text()


def test_clicking_a_column_header_sorts_on_the_server(board, page) -> None:
    url, _ = board
    page.goto(url + "/")
    page.locator("th a[data-sort=wall]").click()
    page.wait_for_url("**sort=wall**")
    walls = page.locator("tr.entry td.wall").all_inner_texts()
    assert "▲" in page.locator("th a[data-sort=wall]").inner_text()
    seconds = [_secs(w) for w in walls]
    assert seconds == sorted(seconds) and len(seconds) == 50
    page.locator("th a[data-sort=wall]").click()  # the same header again flips the order
    page.wait_for_url("**dir=desc**")
    again = [_secs(w) for w in page.locator("tr.entry td.wall").all_inner_texts()]
    assert again == sorted(again, reverse=True)


def test_the_next_link_pages_through_the_board(board, page) -> None:
    url, _ = board
    page.goto(url + "/")
    first = page.locator("tr.entry").count()
    page.get_by_role("link", name="next").click()
    page.wait_for_url("**page=2**")
    assert (first, page.locator("tr.entry").count()) == (50, 6)
    assert "page 2 of 2" in page.locator(".pager").inner_text()


def test_a_run_card_shows_its_screenshots_decoded_and_enlarges_on_click(board, page) -> None:
    url, ids = board
    page.goto(f"{url}/runs/{ids['xss']}")
    thumbs = page.locator("img.thumb")
    assert thumbs.count() == 3
    thumbs.first.scroll_into_view_if_needed()
    page.wait_for_function("() => [...document.images].every(i => i.complete)")
    assert thumbs.first.evaluate("img => img.naturalWidth") == 64
    assert not page.locator("img.full").first.is_visible()
    page.locator(".shot summary").first.click()
    assert page.locator("img.full").first.is_visible()
    assert page.locator("tr.check").count() == 2


def test_an_xss_handle_model_and_detail_render_as_text_and_run_nothing(board, page) -> None:
    url, ids = board
    page.goto(url + "/")
    row = page.locator(f"tr.entry[data-run='{ids['xss']}']")
    assert row.locator("td.handle a").inner_text() == XSS
    assert row.locator("td.model").inner_text() == XSS
    page.goto(f"{url}/runs/{ids['xss']}")
    assert page.locator("h1 .handle").inner_text() == XSS
    assert page.locator("td.detail").first.inner_text() == XSS
    assert page.locator("main img:not(.thumb):not(.full)").count() == 0  # no injected <img>
    assert page.evaluate("() => window.__pwned === undefined") and page.dialogs == []


def _secs(text: str) -> int:
    """``16 min 40 s`` -> 1000 (the board's wall-time format)."""
    words = text.split()
    return int(words[0]) * 60 + int(words[2]) if "min" in words else int(words[0])
