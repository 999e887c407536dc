"""The ``load`` scenario: the graded app's page at 1280x800 (first row, the table, its
dates and statuses, the paging and filter controls, styling), one turn of the page, then
a fresh load at a 375-pixel phone width."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchwright.probes.browser import Instrumentation, ScenarioHost
from benchwright.suites.kit.browser.nav import SETTLE_MS, open_page, reload_at
from benchwright.suites.kit.browser.waits import APPEAR_S, click
from benchwright.suites.vendorsync.browser import _dom
from benchwright.suites.vendorsync.browser._views import LoadView, StatusCell

ROW = "#payments tbody tr"
TURN_S = 5.0
"""Bound on ``#page-info`` changing after ``#next`` was clicked."""


def observe_load(session: ScenarioHost, ctx: Any, shots: Path) -> LoadView:
    """Load ``/``; read the table, its cells and controls and the page's styling; click
    ``#next`` once; load ``/`` again at 375x812 and measure what scrolls sideways."""
    with session.scenario("load", Instrumentation(row_selector=ROW), artifacts=shots) as sc:
        open_page(sc, ctx.base_url + "/")
        first_row_ms = sc.wait_for_first_row(timeout_s=APPEAR_S)
        sc.page.wait_for_timeout(SETTLE_MS)
        read = sc.page.evaluate(_dom.LOAD)
        sc.screenshot("load-1280")
        turned = _turn(sc, read["page_info"])
        # a page that never showed a row will not now: no second wait for one
        mobile = reload_at(sc, ctx.base_url + "/", _dom.MOBILE, "load-375",
                           wait_row=first_row_ms is not None)  # fmt: skip
    return LoadView(
        scenario=sc.observation,  # type: ignore[arg-type]
        collection=ctx.mock.fixture.total,
        first_row_ms=first_row_ms,
        rows=int(read["rows"]),
        page_info=read["page_info"],
        page_text=str(read["page_text"]),
        dates=tuple(read["dates"]),
        statuses=tuple(StatusCell(**cell) for cell in read["statuses"]),
        controls=tuple(read["controls"]),
        turned_to=turned,
        stylesheet=bool(read["stylesheet"]),
        backgrounds=tuple(read["backgrounds"]),
        font_family=str(read["font_family"]),
        mobile_rows=int(mobile["rows"]),
        mobile_scroll_width=int(mobile["scroll_width"]),
        mobile_client_width=int(mobile["client_width"]),
    )


def _turn(sc: Any, before: str | None) -> str | None:
    """Click a visible ``#next``; ``#page-info`` once it changed, else None."""
    button = sc.page.locator("#next")
    if before is None or button.count() == 0 or not button.first.is_visible():
        return None
    if not click(button.first):
        return None
    changed = f"() => {{ {_dom.HELPERS} return textOf('page-info') !== {json.dumps(before)}; }}"
    if not sc.wait_for_function(changed, timeout_s=TURN_S):
        return None
    return sc.page.evaluate(_dom.PAGE_INFO)
