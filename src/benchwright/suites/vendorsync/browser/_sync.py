"""The ``sync`` scenario: ``#sync-now`` clicked on the second instance while it shows its
empty state, so that a working sync must change what is shown (facts entry 49)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from benchwright.probes.browser import Hold, Instrumentation, ScenarioHost
from benchwright.suites.kit.browser.nav import SETTLE_MS, open_page
from benchwright.suites.kit.browser.waits import APPEAR_S, click
from benchwright.suites.vendorsync.browser import _dom
from benchwright.suites.vendorsync.browser._load import ROW
from benchwright.suites.vendorsync.browser._views import Snapshot, SyncView

SYNC = "**/api/sync"
HOLD_MS = 400
"""The page's sync request is held this long, so that a button disabled while it runs is
seen even when the sync itself is instant."""
SYNC_WAIT_S = 120.0
"""Bound on the sync (the vendor's documented waits included) ending after the click."""
IDLE_S = 5.0
"""A click that neither disables the button nor sends ``POST /api/sync`` within this long
started no sync: nothing to wait for."""
REFRESH_S = 10.0
"""Bound on the view changing once the sync has ended."""


def observe_sync(session: ScenarioHost, ctx: Any, shots: Path) -> SyncView:
    """Click ``#sync-now``; watch it go disabled, the page's ``POST /api/sync`` answered,
    the button enabled again and the view change."""
    held = Instrumentation(row_selector=ROW, holds=(Hold(SYNC, HOLD_MS),))
    with session.scenario("sync", held, artifacts=shots) as sc:
        answers: list[int] = []
        sc.page.on("response", lambda r: _note_sync(r, answers))
        open_page(sc, ctx.base_url + "/")
        sc.wait_for_function(_dom.SETTLED, timeout_s=APPEAR_S)
        sc.page.wait_for_timeout(SETTLE_MS)
        before = _snapshot(sc)
        button = sc.page.locator("#sync-now")
        found = button.count() > 0 and button.first.is_visible()
        clicked, busy, enabled = False, False, False
        started = time.monotonic()
        if found:
            handle = button.first.element_handle()
            sc.page.evaluate(_dom.WATCH_SYNC, handle)
            clicked = click(button.first)
            if clicked:
                busy, enabled = _wait_done(sc, handle, answers)
                _wait_changed(sc, before)
        after = _snapshot(sc)
        sc.screenshot("sync-after", full_page=False)
    return SyncView(
        scenario=sc.observation,  # type: ignore[arg-type]
        found=found,
        clicked=clicked,
        disabled_while_running=busy,
        sync_status=answers[-1] if answers else None,
        enabled_after=enabled,
        before=before,
        after=after,
        wait_s=round(time.monotonic() - started, 3),
    )


def _note_sync(response: Any, answers: list[int]) -> None:
    if response.request.method == "POST" and response.url.split("?")[0].endswith("/api/sync"):
        answers.append(response.status)


def _wait_done(sc: Any, handle: Any, answers: list[int]) -> tuple[bool, bool]:
    """(disabled while running, enabled again) once the sync was answered and the button
    idles, or at the bound."""
    started = time.monotonic()
    state = sc.page.evaluate(_dom.SYNC_STATE, handle)
    while time.monotonic() - started < SYNC_WAIT_S and (not answers or state["busy"]):
        if time.monotonic() - started > IDLE_S and not (answers or state["seen_busy"]):
            break  # no sync began
        sc.page.wait_for_timeout(100)
        state = sc.page.evaluate(_dom.SYNC_STATE, handle)
    return bool(state["seen_busy"]), bool(answers) and not state["busy"]


def _wait_changed(sc: Any, before: Snapshot) -> None:
    """Until the page shows rows and something differs from ``before`` (bounded)."""
    was = (before.rows, before.page_info, before.summary, before.empty_visible)
    expr = (f"() => {{ const s = ({_dom.SNAPSHOT})(); return s.rows > 0 && "
            f"JSON.stringify([s.rows, s.page_info, s.summary, s.empty_visible]) !== "
            f"{_json(was)}; }}")  # fmt: skip
    sc.wait_for_function(expr, timeout_s=REFRESH_S)
    sc.page.wait_for_timeout(SETTLE_MS)


def _json(value: Any) -> str:
    """``value`` as a JS string literal of ``JSON.stringify(value)``."""
    return json.dumps(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


def _snapshot(sc: Any) -> Snapshot:
    return Snapshot(**sc.page.evaluate(_dom.SNAPSHOT))
