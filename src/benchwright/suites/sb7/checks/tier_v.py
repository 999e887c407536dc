"""Tier V (rendered truth, §12) from the browser's ``load`` scenario: dates for people,
money that names its currency, the four frozen badge hexes, the phone viewport and
deliberate styling. The rows are the kit's (`kit.browser.rendered`) with sb-7's numbers."""

from __future__ import annotations

from dataclasses import replace

from benchwright.model import CheckResult
from benchwright.suites.kit.browser.rendered import (
    currency_of,
    dates_row,
    palette_row,
    responsive_row,
    styling_row,
)
from benchwright.suites.kit.browser.rows import quote, view
from benchwright.suites.kit.checks import app_check, frac, g, result
from benchwright.suites.sb7.browser import BROWSER, LOAD
from benchwright.suites.sb7.observations import Observations

PALETTE = {"settled": (0x05, 0x96, 0x69), "pending": (0xD9, 0x77, 0x06),
           "refunded": (0x7C, 0x3A, 0xED), "failed": (0xB9, 0x1C, 0x1C)}  # fmt: skip
"""Spec §7's badge hexes (the 3D field's four colours): #059669, #D97706, #7C3AED, #B91C1C."""


@app_check("v_dates_readable", needs=(BROWSER,))
def v_dates_readable(obs: Observations, _s) -> CheckResult:
    """Date cells with no raw ISO-8601 and at least one human text 1.0; formatted but not
    recognizably human 0.5; any ISO or no date cells 0."""
    load, refused = view(obs, "v_dates_readable", LOAD)
    return refused or dates_row("v_dates_readable", load.dates)


@app_check("v_money_presentation", needs=(BROWSER,))
def v_money_presentation(obs: Observations, _s) -> CheckResult:
    """The fraction of rendered amount cells naming a currency (€/EUR, $/USD, ¥/JPY,
    KWD/د.ك); no amount cells 0."""
    load, refused = view(obs, "v_money_presentation", LOAD)
    if refused:
        return refused
    cells = [text for _pid, text in load.amounts if text.strip()]
    if not cells:
        return result("v_money_presentation", 0.0, "0: no amount cells rendered")
    bare = [text for text in cells if currency_of(text) is None]
    score = frac(len(cells) - len(bare), len(cells))
    tail = f"; first without one: {quote(bare[0])}" if bare else ""
    return result("v_money_presentation", score, f"{g(score)}: {len(cells) - len(bare)}/"
                  f"{len(cells)} amount cells name their currency{tail}")  # fmt: skip


@app_check("v_status_badges", needs=(BROWSER,))
def v_status_badges(obs: Observations, _s) -> CheckResult:
    """0.6 x statuses at their frozen hex (+-8 per channel) / max(3, rendered) + 0.4 when
    >= 3 statuses render with pairwise distinct (color, background)."""
    load, refused = view(obs, "v_status_badges", LOAD)
    return refused or palette_row("v_status_badges", load.statuses, PALETTE)


@app_check("v_responsive_375", needs=(BROWSER,))
def v_responsive_375(obs: Observations, _s) -> CheckResult:
    """At 375x812: no horizontal scroll (+1 px) and at least one rendered row: 1.0; else 0.
    The canvas's box there is evidence (the row's definition does not grade it)."""
    load, refused = view(obs, "v_responsive_375", LOAD)
    if refused:
        return refused
    row = responsive_row("v_responsive_375", load)
    return replace(row, evidence={**row.evidence, "canvas_375": load.mobile_canvas})


@app_check("v_styling", needs=(BROWSER,))
def v_styling(obs: Observations, _s) -> CheckResult:
    """Stylesheet (0.3) + >= 3 distinct backgrounds (0.25) + a body font not Times (0.25) +
    a visible #app-header (0.2)."""
    load, refused = view(obs, "v_styling", LOAD)
    return refused or styling_row("v_styling", load)
