"""Acceptance on a real grading (slow: ~60 s): ``benchwright grade suites/vspro`` of the
golden reference, then ``view reports/vspro.json`` shows every screenshot the card keeps
(decoded, readable, each with the rows that rely on it) and every row, and ``report
--html`` of it opens over file:// with the screenshots inline."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from viewer.conftest import cli, serving, thumbs_loaded

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
    assert page.locator("pre.app-log").inner_text().strip() != ""
    assert page.locator("table.trace tbody tr").count() > 10


def test_report_html_of_a_real_grading_opens_offline(graded, tmp_path: Path, page) -> None:
    out = tmp_path / "r.html"
    assert cli("report", str(graded), "--html", str(out)).returncode == 0
    page.goto(out.as_uri())
    thumbs_loaded(page)
    widths = page.locator("img.thumb").evaluate_all("imgs => imgs.map(i => i.naturalWidth)")
    assert len(widths) == len(_shots(json.loads(graded.read_text()))) and all(widths), widths
