"""The ``load`` scenario: first paint at 1280x800, the DOM contract, the status filter,
then the same page reloaded at 375x812."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from benchwright.probes.browser import Instrumentation, ScenarioHost
from benchwright.services.meridian.script import HOSTILE_FLAG, HOSTILE_NAME
from benchwright.suites.kit.browser import dom as _dom
from benchwright.suites.kit.browser.nav import open_page, reload_at
from benchwright.suites.kit.browser.waits import APPEAR_S, click
from benchwright.suites.vspro.browser._views import FilterDrive, LoadView, ViewSnapshot
from benchwright.suites.vspro.context import GradeContext

ROW = "tbody tr"
FIRST_ROW_S = APPEAR_S
SETTLE_S = 3.0
PAGE_SIZE = 50
_ALL_RE = re.compile(r"^\s*(all|any|clear)", re.I)
_NOT_A_CELL = ("(n) => n.id !== 'status-filter' && !n.closest('td, th, legend, "
               "[class*=\"legend\" i]')")  # fmt: skip
"""An option is never the control itself, a status badge in the table, nor a chart's
legend entry (the page-wide fallback for portaled menus would otherwise click one)."""
_HOSTILE = f"(name) => [window.{HOSTILE_FLAG} === 1, document.body.innerText.includes(name)]"
"""Did the markup counterparty name (phase ``hostile``) run, and is its text on the page?"""


def observe_load(session: ScenarioHost, ctx: GradeContext, shots: Path) -> LoadView:
    """Load ``/`` at 1280x800; read rows, totals, dates, amounts, badges, styling and
    pagination; drive ``#status-filter``; reload at 375x812 and measure the scroll width."""
    with session.scenario("load", Instrumentation(row_selector=ROW), artifacts=shots) as sc:
        open_page(sc, ctx.base_url + "/")
        first_row_ms = sc.wait_for_first_row(timeout_s=FIRST_ROW_S)
        sc.page.wait_for_timeout(300)  # let the summary and readout settle after the rows
        read = sc.page.evaluate(_dom.LOAD)
        hostile = sc.page.evaluate(_HOSTILE, HOSTILE_NAME)
        sc.screenshot("load-1280")
        drive = _drive_filter(sc)
        # a fresh document at phone width (its own stamp)
        mobile = reload_at(sc, ctx.base_url + "/", _dom.MOBILE, "load-375", settle_ms=500)
    return LoadView(
        scenario=sc.observation,  # type: ignore[arg-type]
        first_row_ms=first_row_ms,
        rows=int(read["rows"]),
        claimed_total=read["claimed_total"],
        claimed_hits=tuple(read["claimed_hits"]),
        dates=tuple(read["dates"]),
        amounts=tuple(read["amounts"]),
        statuses=tuple(tuple(s) for s in read["statuses"]),  # type: ignore[misc]
        stylesheet=bool(read["stylesheet"]),
        backgrounds=tuple(read["backgrounds"]),
        font_family=read["font_family"],
        header_visible=bool(read["header_visible"]),
        pagination=tuple(read["pagination"]),
        filter=drive,
        mobile_scroll_width=mobile["scroll_width"],
        mobile_inner_width=mobile["inner_width"],
        mobile_rows=int(mobile["rows"]),
        first_page=_first_page(ctx),
        hostile=(bool(hostile[0]), bool(hostile[1])),
    )


def _first_page(ctx: GradeContext) -> tuple[tuple[str, int], ...]:
    rows = sorted(ctx.mock.fixture.rows, key=lambda r: (r["_instant"], r["id"]))
    return tuple((r["currency"], r["amount_minor"]) for r in rows[:PAGE_SIZE])


def _snapshot(sc: Any) -> ViewSnapshot:
    return ViewSnapshot(**sc.page.evaluate(_dom.SNAPSHOT))


def _settle(sc: Any, before: ViewSnapshot) -> ViewSnapshot:
    """Wait (bounded) for the table to change after a pick, then read it."""
    expr = "() => {" + _dom.HELPERS + f"return snapshot().table_hash !== {before.table_hash!r}; }}"
    sc.wait_for_function(expr, timeout_s=SETTLE_S)
    sc.page.wait_for_timeout(200)
    return _snapshot(sc)


def _drive_filter(sc: Any) -> FilterDrive:
    page = sc.page
    control = page.locator("#status-filter")
    if control.count() == 0:
        return FilterDrive(False, False, False, None, False, None)
    opener = control.locator("button, [role=button], [aria-haspopup]").first
    opener = opener if opener.count() else control
    before = _snapshot(sc)
    opened = click(opener)
    page.wait_for_timeout(150)
    option = _option(page, control, "refunded")
    if option is None:
        return FilterDrive(True, opened, False, None, False, None)
    click(option)
    picked = _settle(sc, before)
    click(opener)
    page.wait_for_timeout(150)
    clear = _option(page, control, "")
    if clear is None:
        return FilterDrive(True, opened, True, picked, False, None)
    click(clear)
    restored = _settle(sc, picked)
    return FilterDrive(True, opened, True, picked, True, restored)


def _option(page: Any, control: Any, value: str) -> Any:
    """The first visible option for ``value`` ("" = the All/Any/Clear option): the
    contract's selectors first, then any visible clickable element (inside the control,
    then anywhere for portaled menus) whose data-* value or text names it."""
    if value:
        css = (f"[data-option='{value}'], [data-value='{value}'], "
               f"[role=option]:text-is('{value}'), li:text-is('{value}')")  # fmt: skip
        candidates = [control.locator(css), page.get_by_text(value, exact=True)]
    else:
        css = "[data-option=''], [data-value=''], [role=option], li"
        candidates = [control.locator(css).filter(has_text=_ALL_RE)]
    for found in candidates:
        for i in range(found.count()):
            item = found.nth(i)
            if item.is_visible() and item.evaluate(_NOT_A_CELL):
                return item
    return control.evaluate_handle(_dom.FILTER_OPTION, value).as_element()
