"""Acceptance on a real grading (slow: ~60 s): ``benchwright grade suites/vspro`` of the
golden reference, then ``view reports/vspro.json`` shows every screenshot the card keeps
(decoded, readable, each with the rows that rely on it) and every row, and ``report
--html`` of it opens over file:// with the screenshots inline; both fit a laptop and a
phone, the card page a bounded height (its trace and log are folded)."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from board._pages_seed import fresh_store, pages_server

from viewer.conftest import BENCHWRIGHT, cli, serving, thumbs_loaded
from viewer.layout import WIDTHS, assert_dates_whole, assert_fits, open_at

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def graded(golden_card: Path) -> Path:
    return golden_card


@pytest.fixture(scope="module")
def served(graded: Path) -> Iterator[str]:
    with serving(graded) as url:
        yield url


def _shots(card: dict) -> list[dict]:
    return card["grading"]["screenshots"]


def test_view_shows_a_real_gradings_screenshots_rows_and_trace(graded, served, page) -> None:
    card = json.loads(graded.read_text())
    page.goto(f"{served}/cards/{graded.stem}")
    assert page.locator(".score-value").inner_text() == f"{card['score']:.4f}"
    assert page.locator("tr.check").count() == sum(not r["missing"] for r in card["rows"])
    assert page.locator("img.thumb").count() == len(_shots(card)) == 9
    thumbs_loaded(page)
    widths = page.locator("img.thumb").evaluate_all("imgs => imgs.map(i => i.naturalWidth)")
    assert all(w > 0 for w in widths), widths
    shown = page.locator("img.thumb").evaluate_all(
        "imgs => imgs.map(i => i.getBoundingClientRect().width)"
    )
    assert all(w >= 320 for w in shown), shown
    for shot in _shots(card):  # each with the rows that rely on it, and its full size
        figure = page.locator(f'figure.shot-card[data-shot="{shot["name"]}"]')
        assert figure.locator(".shot-rows").inner_text() == (
            "relied on by: " + ", ".join(shot["rows"])
        )
        assert (figure.locator(".flag-on").count() == 1) == shot["published"]
        href = figure.locator("a.full-link").get_attribute("href")
        assert page.request.get(f"{served}{href}").body()[:4] == b"\x89PNG"
    assert page.locator("pre.app-log").text_content().strip() != ""
    assert page.locator("table.trace tbody tr").count() > 10
    assert not page.locator("table.trace").is_visible()  # folded: the file is one link away


def test_report_html_of_a_real_grading_opens_offline(graded, tmp_path: Path, page) -> None:
    out = tmp_path / "r.html"
    assert cli("report", str(graded), "--html", str(out)).returncode == 0
    page.goto(out.as_uri())
    thumbs_loaded(page)
    widths = page.locator("img.thumb").evaluate_all("imgs => imgs.map(i => i.naturalWidth)")
    assert len(widths) == len(_shots(json.loads(graded.read_text()))) and all(widths), widths


MAX_CARD_HEIGHT = 20_000
"""px: the card page was 133,703 px tall at 390 px when the vendor trace was inlined."""


@pytest.mark.parametrize("width", WIDTHS)
def test_a_real_card_fits_the_screen_at_a_bounded_height(
    graded, served, tmp_path: Path, page, width: int
) -> None:
    open_at(page, f"{served}/", width)  # the scorecards list, its tier columns included
    assert_fits(page, f"index at {width}")
    assert_dates_whole(page, f"index at {width}")
    open_at(page, f"{served}/cards/{graded.stem}", width)
    assert_fits(page, f"card at {width}")
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < MAX_CARD_HEIGHT, f"card at {width}: {height} px tall"
    out = tmp_path / "r.html"
    assert cli("report", str(graded), "--html", str(out)).returncode == 0
    open_at(page, out.as_uri(), width)
    assert_fits(page, f"report at {width}")
    assert page.evaluate("document.documentElement.scrollHeight") < MAX_CARD_HEIGHT


@pytest.fixture(scope="module")
def board_with_card(graded: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A local board the real card is published to (`benchwright publish`): its many tier
    columns are the widest the board's table gets."""
    base = tmp_path_factory.mktemp("board")
    store = fresh_store(base)
    with pages_server(store) as url:
        env = {**os.environ, "XDG_CONFIG_HOME": str(base / "config")}
        done = subprocess.run([str(BENCHWRIGHT), "publish", str(graded), "--to", url, "--model",
                               "golden-reference"], capture_output=True, text=True, env=env,
                              timeout=120)  # fmt: skip
        assert done.returncode == 0, done.stderr
        yield url
    store.engine.dispose()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_board_of_a_real_card_fits_the_screen(board_with_card: str, page, width: int) -> None:
    open_at(page, f"{board_with_card}/", width)
    assert page.locator("tr.entry:not(.baseline)").count() == 1
    assert_fits(page, f"board at {width}")
    with page.expect_navigation():  # measured on the card's page, not mid-way to it
        page.locator("tr.entry:not(.baseline) td.handle a").click()
    assert_fits(page, f"board card at {width}")
