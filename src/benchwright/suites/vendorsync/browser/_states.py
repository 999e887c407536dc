"""The state scenarios: ``error`` (the graded app with its API unreachable) and ``empty``
(a second instance on a brand-new database)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Error

from benchwright.probes.browser import DATA_REQUESTS, Instrumentation, ScenarioHost
from benchwright.suites.kit.browser import open_or_read
from benchwright.suites.kit.browser.waits import APPEAR_S, CLICK_S
from benchwright.suites.vendorsync.browser import _dom
from benchwright.suites.vendorsync.browser._load import ROW, SETTLE_MS
from benchwright.suites.vendorsync.browser._views import EmptyView, ErrorView


def observe_error(session: ScenarioHost, ctx: Any, shots: Path) -> ErrorView:
    """Load ``/`` with every data request refused; wait (bounded) for ``#error``; read the
    states; then let the network through and click ``#retry``."""
    offline = Instrumentation(
        row_selector=ROW, aborts=(DATA_REQUESTS,), abort_error="connectionrefused"
    )
    with session.scenario("error", offline, artifacts=shots) as sc:
        no_page = open_or_read(sc, ctx.base_url + "/")
        if no_page is None:
            sc.wait_for_function(_dom.ERROR_SHOWN, timeout_s=APPEAR_S)
            sc.page.wait_for_timeout(SETTLE_MS)
        read = sc.page.evaluate(_dom.STATES)
        sc.screenshot("error")
        recovered = _retry(sc) if read["retry"] and no_page is None else None
    return ErrorView(
        scenario=sc.observation,  # type: ignore[arg-type]
        error_visible=bool(read["error"]),
        error_text=str(read["error_text"]),
        retry_visible=bool(read["retry"]),
        others_visible=tuple(read["others"]),
        recovered=recovered,
        no_page=no_page,
    )


def _retry(sc: Any) -> bool:
    sc.context.unroute_all(behavior="ignoreErrors")
    try:
        sc.page.locator("#retry").first.click(timeout=CLICK_S * 1000)
    except Error:
        return False
    return sc.wait_for_first_row(timeout_s=APPEAR_S) is not None


def observe_empty(session: ScenarioHost, ctx: Any, shots: Path) -> EmptyView:
    """``ctx`` is a second instance on a brand-new database: wait (bounded) for the page to
    leave its loading state, then read what it shows."""
    with session.scenario("empty", Instrumentation(row_selector=ROW), artifacts=shots) as sc:
        no_page = open_or_read(sc, ctx.base_url + "/")
        if no_page is None:
            sc.wait_for_function(_dom.SETTLED, timeout_s=APPEAR_S)
            sc.page.wait_for_timeout(SETTLE_MS)
        read = sc.page.evaluate(_dom.STATES)
        sc.screenshot("empty")
    return EmptyView(
        scenario=sc.observation,  # type: ignore[arg-type]
        empty_visible=bool(read["empty"]),
        empty_text=str(read["empty_text"]),
        rows=int(read["rows"]),
        no_page=no_page,
    )
