"""What the layout tests assert in Chromium, from the DOM: a page fits its screen's width
(nothing scrolls sideways) and a date is never broken inside a token."""

from __future__ import annotations

from typing import Any

WIDTHS = (1280, 390)
"""A laptop and a phone (CSS px)."""

WIDEST = "() => [document.documentElement.scrollWidth, window.innerWidth]"
DATES_ON_ONE_LINE = """() => [...document.querySelectorAll('.when')].filter(cell => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    return range.getClientRects().length > 1;
}).map(cell => cell.textContent)"""


def assert_fits(page: Any, what: str) -> None:
    """``document.documentElement.scrollWidth <= window.innerWidth`` on the open page."""
    wide, screen = page.evaluate(WIDEST)
    assert wide <= screen, f"{what}: {wide} px wide on a {screen} px screen"


def assert_dates_whole(page: Any, what: str) -> None:
    broken = page.evaluate(DATES_ON_ONE_LINE)
    assert broken == [], f"{what}: dates wrapped: {broken}"


def open_at(page: Any, url: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(url)
