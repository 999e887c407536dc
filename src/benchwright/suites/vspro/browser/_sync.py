"""The ``sync`` scenario: click #sync-now on a half-seeded instance, watch it complete."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Error

from benchwright.probes.browser import Instrumentation, ScenarioHost
from benchwright.suites.kit.browser import dom as _dom
from benchwright.suites.kit.browser.nav import open_page
from benchwright.suites.kit.browser.waits import APPEAR_S, CLICK_S
from benchwright.suites.vspro.browser._views import SyncView, ViewSnapshot
from benchwright.suites.vspro.context import GradeContext

ROW = "tbody tr"
SYNC_WAIT_S = 120.0
REFRESH_WAIT_S = 5.0


def observe_sync(session: ScenarioHost, ctx: GradeContext, shots: Path) -> SyncView:
    """Click ``#sync-now`` (or a visible /sync/ button) and watch it run to completion.

    ``ctx`` is an instance seeded from a half-capped vendor whose cap is now lifted,
    so a working sync changes the view (row total, last-sync text, table content).
    """
    half = ctx.health_count()
    with session.scenario("sync", Instrumentation(row_selector=ROW), artifacts=shots) as sc:
        open_page(sc, ctx.base_url + "/")
        sc.wait_for_first_row(timeout_s=APPEAR_S)
        sc.page.wait_for_timeout(300)
        before = _snap(sc)
        button = _sync_button(sc.page)
        clicked, completed, error, inflight, api_seen = False, False, None, None, False
        started = time.monotonic()
        if button is not None:
            handle = button.element_handle()
            sc.page.evaluate(_dom.WATCH_SYNC, handle)
            try:
                button.click(timeout=CLICK_S * 1000)
                clicked = True
            except Error:
                clicked = False
            if clicked:
                done = _wait_done(sc, handle)
                state = sc.page.evaluate(_dom.SYNC_STATE, handle)
                inflight, api_seen = state["inflight_ms"], bool(state["api_sync"])
                completed = bool(done) and not state["busy"]
                _wait_refresh(sc, before)
                errors = sc.page.evaluate(_dom.ERRORS)
                error = errors[0] if errors else None
        after = _snap(sc)
        sc.screenshot("sync-after", full_page=False)
    return SyncView(
        scenario=sc.observation,  # type: ignore[arg-type]
        button_found=button is not None,
        clicked=clicked,
        in_flight_ms=inflight,
        completed=completed,
        error_text=error,
        api_sync_seen=api_seen,
        before=before,
        after=after,
        half_seeded=half,
        wait_s=round(time.monotonic() - started, 3),
    )


def _wait_done(sc: Any, handle: Any) -> bool:
    """Until the button has been busy and is idle again (bounded by ``SYNC_WAIT_S``)."""
    deadline = time.monotonic() + SYNC_WAIT_S
    seen_busy = False
    while time.monotonic() < deadline:
        state = sc.page.evaluate(_dom.SYNC_STATE, handle)
        seen_busy = seen_busy or state["busy"] or state["inflight_ms"] is not None
        if seen_busy and not state["busy"]:
            return True
        if not seen_busy and time.monotonic() > deadline - SYNC_WAIT_S + 3:
            return False  # never went busy: nothing to wait for
        sc.page.wait_for_timeout(100)
    return False


def _wait_refresh(sc: Any, before: ViewSnapshot | None) -> None:
    if before is None:
        return
    total = "null" if before.readout_total is None else before.readout_total
    changed = f"s.table_hash !== {before.table_hash!r} || s.readout_total !== {total}"
    expr = "() => {" + _dom.HELPERS + f"const s = snapshot(); return {changed}; }}"
    sc.wait_for_function(expr, timeout_s=REFRESH_WAIT_S)


def _snap(sc: Any) -> ViewSnapshot:
    return ViewSnapshot(**sc.page.evaluate(_dom.SNAPSHOT))


def _sync_button(page: Any) -> Any:
    for found in (
        page.locator("#sync-now"),
        page.get_by_role("button", name=re.compile("sync", re.I)),
    ):
        for i in range(found.count()):
            if found.nth(i).is_visible():
                return found.nth(i)
    return None
