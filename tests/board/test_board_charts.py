"""The board's charts over real HTTP and in headless Chromium: every entry's score by
model with the published baselines as lines on each scorer's board, tier means against
their weights and the excellence conditions on a run's card, all without a script or an
inline style, under the page policy the board always sent."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from web._charts_browser import assert_charts_render

from benchwright.board.payload import Payload
from benchwright.web.charts import BAR_W
from board._pages_seed import add, fresh_store, pages_server, seed
from board._posts import post

NS = {"s": "http://www.w3.org/2000/svg"}
POLICY = "default-src 'self'; script-src 'none'; object-src 'none'"
BASELINES = {"Claude Opus 5": 0.9755, "Claude Sonnet 5": 0.9692, "Claude Haiku 4.5": 0.7861}


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    """The page tests' board, plus one genuine sb-6 post (rows the shipped scorer composed)."""
    store = fresh_store(Path(tmp_path_factory.mktemp("board")))
    ids = seed(store)
    ids["genuine"] = add(store, Payload.model_validate(post()), 90)
    with pages_server(store) as url:
        yield url, ids


def get(board: tuple[str, dict[str, Any]], path: str) -> httpx.Response:
    page = httpx.get(board[0] + path, timeout=10)
    assert page.status_code == 200 and page.headers["content-security-policy"] == POLICY
    return page


def chart(html: str, kind: str) -> ET.Element:
    """The ``<svg>`` of the page's ``data-chart=kind`` figure, parsed on its own."""
    found = re.search(rf'<figure class="chart" data-chart="{kind}">(<svg.*?</svg>)', html, re.S)
    assert found, f"no {kind} chart"
    return ET.fromstring(found.group(1))


def test_each_board_charts_every_entry_by_model(board) -> None:
    html = get(board, "/?version=sb-6.0-rc").text
    svg = chart(html, "entries")
    dots = [float(c.get("data-score")) for c in svg.iter("{http://www.w3.org/2000/svg}circle")]
    assert len(dots) == 56  # both pages' entries, not just the 50 shown
    assert max(dots) == 0.99 and not svg.findall(".//s:g[@class='baseline']", NS)
    assert "has no published baselines" in html
    assert "<script" not in svg.findtext("s:g[@class='model']/s:title", namespaces=NS)


def test_the_published_baselines_are_reference_lines_on_their_board(board) -> None:
    html = get(board, "/?version=sb-5.2").text
    svg = chart(html, "entries")
    lines = {
        g.findtext("s:title", namespaces=NS): float(g.get("data-score"))
        for g in svg.findall("s:g[@class='baseline']", NS)
    }
    assert sorted(lines.values()) == sorted(BASELINES.values())
    for name, score in BASELINES.items():
        assert any(name in title and f"{score:.4f}" in title for title in lines)
    assert len(list(svg.iter("{http://www.w3.org/2000/svg}circle"))) == 2  # entries, not lines


def test_a_genuine_card_charts_tier_means_against_weights_and_its_conditions(board) -> None:
    html = get(board, f"/runs/{board[1]['genuine']}").text
    card = post()
    rows = chart(html, "tiers").findall("s:g[@class='row']", NS)
    names = [r.findtext("s:text", namespaces=NS) for r in rows]
    assert names == ["A", "B", "C", "D", "J", "V", "P", "T", "HARD", "E"]
    bars = {n: float(r.find("s:rect[@class='bar']", NS).get("width"))
            for n, r in zip(names, rows, strict=True)}  # fmt: skip
    assert bars == {n: pytest.approx(card["tiers"][n] * BAR_W, abs=0.01) for n in names}
    assert "weight 0.06" in rows[0].findall("s:text", NS)[1].text  # sb-6's tier A weight
    assert "slice 0.12" in rows[-1].findall("s:text", NS)[1].text
    states = [g.get("data-state") for g in chart(html, "conditions").findall("s:g", NS)]
    assert len(states) == 14 and states.count("met") / 14 == pytest.approx(
        card["composition"]["excellenceGate"], abs=1e-4
    )


def test_a_card_whose_rows_do_not_compose_charts_its_stored_means_alone(board) -> None:
    html = get(board, f"/runs/{board[1]['old'][0]}").text  # seeded past recomposition
    rows = chart(html, "tiers").findall("s:g[@class='row']", NS)
    assert [r.findall("s:text", NS)[1].text for r in rows] == ["mean 0.7000", "mean 1.0000"]
    assert 'data-chart="conditions"' not in html
    baseline = get(board, "/runs/baseline-claude-opus-5").text  # no tier means, no chart
    assert 'data-chart="' not in baseline and "No tier means were recorded" in baseline


@pytest.mark.parametrize("width", [1280, 390])
def test_the_charts_render_in_chromium_within_the_page_and_the_policy(
    board, page, width: int
) -> None:
    paths = ["/?version=sb-5.2", f"/runs/{board[1]['genuine']}"]
    assert_charts_render(page, board[0], paths, width)
