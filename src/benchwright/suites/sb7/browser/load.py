"""The ``load`` scenario: the first visit at 1280x800 (first data, the claimed total, the
rendered dates, money, badges and styling), then the same page reloaded at 375x812."""

from __future__ import annotations

from pathlib import Path

from benchwright.probes.browser import Instrumentation, ScenarioHost
from benchwright.suites.kit.browser import dom
from benchwright.suites.kit.browser.nav import open_page, reload_at
from benchwright.suites.kit.browser.waits import APPEAR_S
from benchwright.suites.sb7.browser import _dom
from benchwright.suites.sb7.browser.views import LoadView
from benchwright.suites.sb7.context import GradeContext

ROW = "tbody tr"
SETTLE_MS = 300
"""After the first row: the summary and the readout come with the same answers."""
MOBILE_SETTLE_MS = 500


def observe_load(session: ScenarioHost, ctx: GradeContext, shots: Path) -> LoadView:
    """Load ``/`` at 1280x800, wait (bounded) for a visible data row, read the page;
    reload at 375x812 and measure the scroll width, the rows and the canvas."""
    with session.scenario("load", Instrumentation(row_selector=ROW), artifacts=shots) as sc:
        before = ctx.mock.truth().total
        open_page(sc, ctx.base_url + "/")
        first_row_ms = sc.wait_for_first_row(timeout_s=APPEAR_S)
        sc.page.wait_for_timeout(SETTLE_MS)
        read = sc.page.evaluate(dom.LOAD)
        amounts = sc.page.evaluate(_dom.AMOUNTS)
        after = ctx.mock.truth().total
        sc.screenshot("load-1280")
        mobile = reload_at(sc, ctx.base_url + "/", dom.MOBILE, "load-375",
                           settle_ms=MOBILE_SETTLE_MS)  # fmt: skip
        canvas = sc.page.evaluate(_dom.CANVAS)
    return LoadView(
        scenario=sc.observation,  # type: ignore[arg-type]
        first_row_ms=first_row_ms,
        rows=int(read["rows"]),
        claimed_total=read["claimed_total"],
        vendor_total=(before, after),
        dates=tuple(read["dates"]),
        amounts=tuple((pid, text) for pid, text in amounts),
        statuses=tuple(tuple(s) for s in read["statuses"]),  # type: ignore[misc]
        stylesheet=bool(read["stylesheet"]),
        backgrounds=tuple(read["backgrounds"]),
        font_family=read["font_family"],
        header_visible=bool(read["header_visible"]),
        mobile_scroll_width=mobile["scroll_width"],
        mobile_inner_width=mobile["inner_width"],
        mobile_rows=int(mobile["rows"]),
        mobile_canvas=None if canvas is None else (float(canvas[0]), float(canvas[1])),
    )
