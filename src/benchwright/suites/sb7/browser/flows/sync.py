"""The ``sync`` scenario (j_sync_journey): click ``#sync-now`` on the graded instance and
watch it go busy, come back idle and refresh the view, with the page's own evidence."""

from __future__ import annotations

import re
import time
from pathlib import Path

from benchwright.probes.browser import Instrumentation, Lane
from benchwright.suites.kit.browser.nav import SETTLE_MS, open_page
from benchwright.suites.kit.browser.waits import APPEAR_S, click
from benchwright.suites.sb7.browser.flows import _page
from benchwright.suites.sb7.browser.flows._calls import CallLog
from benchwright.suites.sb7.browser.flows.views import SyncView
from benchwright.suites.sb7.context import GradeContext

SYNC_WAIT_S = 150.0
"""Bound on the click's sync: the spec's 120 s walk, and a margin (a resync of an
already-synced collection takes seconds)."""
REFRESH_WAIT_S = 5.0
"""After the button is idle: the refresh the spec promises ("refreshes everything")."""
POLL_MS = 100
SYNC_PATH = re.compile(r"^/api/sync$")


def observe_sync(lane: Lane, ctx: GradeContext, shots: Path) -> SyncView:
    """Click ``#sync-now`` and watch it to completion: busy, idle, refetched, re-rendered."""
    with lane.scenario("sync", Instrumentation(row_selector=_page.ROW), artifacts=shots) as sc:
        open_page(sc, ctx.base_url + "/")
        sc.wait_for_first_row(timeout_s=APPEAR_S)
        sc.page.wait_for_timeout(SETTLE_MS)
        calls = CallLog(SYNC_PATH, ctx.tokens).attach(sc.page)
        before = sc.page.evaluate(_page.TABLE_HASH)
        button = sc.page.locator("#sync-now")
        found = button.count() == 1 and button.is_visible()
        clicked, state = False, {}
        if found:
            sc.page.evaluate(_page.WATCH_SYNC, button.element_handle())
            clicked = click(button)
        if clicked:
            state = _until(sc, "idle", SYNC_WAIT_S)
            if state.get("idle"):
                state = _until(sc, "rerendered", REFRESH_WAIT_S)
        after = sc.page.evaluate(_page.TABLE_HASH)
        sc.screenshot("sync-after", full_page=False)
    return SyncView(
        scenario=sc.observation,  # type: ignore[arg-type]
        button_found=found,
        clicked=clicked,
        in_flight_ms=state.get("inflight_ms"),
        completed=bool(state.get("idle")) and state.get("inflight_ms") is not None,
        notice=state.get("notice"),
        api_sync_status=calls.status_of("POST", SYNC_PATH),
        refetched=bool(state.get("refetched")),
        rerendered=bool(state.get("rerendered")),
        hash_before=before,
        hash_after=after,
    )


def _until(sc: object, key: str, bound_s: float) -> dict:
    """Poll the sync's page state until ``key`` is true, at most ``bound_s``; the last state."""
    deadline = time.monotonic() + bound_s
    while True:
        state = sc.page.evaluate(_page.SYNC_STATE)  # type: ignore[attr-defined]
        if state.get(key) or time.monotonic() > deadline:
            return state
        sc.page.wait_for_timeout(POLL_MS)  # type: ignore[attr-defined]
