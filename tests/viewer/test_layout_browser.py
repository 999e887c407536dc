"""Every viewer page, the one-file report and the board (the stylesheet is shared) fit a
1280 px laptop and a 390 px phone in Chromium without scrolling sideways, asserted from
the DOM; dates stay whole; long evidence (the app log, the vendor trace) is folded."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from board._pages_seed import seeded_board

from viewer.conftest import cli
from viewer.layout import WIDTHS, assert_dates_whole, assert_fits, open_at


def _viewer_pages(runs: dict[str, Any]) -> list[str]:
    nop, oracle = runs["nop"], runs["oracle"]
    return ["/", f"/runs/{nop}", f"/runs/{nop}/tasks/fix-01", f"/runs/{nop}/trials/fix-01/1",
            f"/compare?a=run:{oracle}&b=run:{nop}", "/compare?a=card:good&b=card:worse",
            "/cards/good", "/runs/evil-run", "/runs/evil-run/trials/fix-01/1"]  # fmt: skip


@pytest.mark.parametrize("width", WIDTHS)
def test_every_viewer_page_fits_the_screen(viewer, runs, page, width: int) -> None:
    for path in _viewer_pages(runs):
        open_at(page, viewer + path, width)
        assert_fits(page, f"{path} at {width}")
    open_at(page, viewer + "/", width)
    assert page.locator("td.when").count() == 6  # three runs, three scorecards
    assert_dates_whole(page, f"/ at {width}")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_report_fits_the_screen(runs, cards, tmp_path: Path, page, width: int) -> None:
    out = tmp_path / "r.html"
    done = cli("report", str(runs["dir"]), str(cards["good"]), "--html", str(out))
    assert done.returncode == 0, done.stderr
    open_at(page, out.as_uri(), width)
    for trial in page.locator("details.report-trial > summary").all():
        trial.click()  # every trial open: the widest the report gets
    assert_fits(page, f"report at {width}")
    assert_dates_whole(page, f"report at {width}")
    # the app log and the trace are folded, linked where they lie
    log = page.locator("details.evidence-file", has=page.locator("pre.app-log"))
    assert log.get_attribute("open") is None
    assert log.locator("summary a").get_attribute("href") == (
        (cards["good"].parent / "good.app.log").as_uri()
    )


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    with seeded_board(Path(tmp_path_factory.mktemp("board"))) as served:
        yield served


@pytest.mark.parametrize("width", WIDTHS)
def test_the_boards_pages_fit_the_screen(board, page, width: int) -> None:
    url, ids = board
    for path in ("/", f"/runs/{ids['xss']}", f"/runs/{ids['sb6'][0]}"):
        open_at(page, url + path, width)
        assert_fits(page, f"board {path} at {width}")
