"""The ``paint`` scenario (e_optimistic_paint): a note edit whose write the probe holds on
the wire, so that "painted before the network answered" is a causal fact, not a race.

The ``POST /api/payments/<id>/note`` is held at least ``HOLD_MS`` and until the probe has
read the page at +``CHECK_AT_MS`` (bounded by ``HOLD_MAX_S``: a loaded host may reach the
read late, and the read must fall inside the hold). Then the write goes on, and the row
must turn ``data-state="saved"`` with the server holding the note (§7)."""

from __future__ import annotations

import re
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

from playwright.sync_api import Error, Route
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from benchwright.probes.browser import Instrumentation, Lane
from benchwright.suites.kit.browser.nav import SETTLE_MS, open_page
from benchwright.suites.kit.browser.waits import APPEAR_S, CLICK_S, EDITOR_S, WRITE_S
from benchwright.suites.kit.wire import body
from benchwright.suites.sb7.browser.flows import _page
from benchwright.suites.sb7.browser.flows.views import PaintView
from benchwright.suites.sb7.context import GradeContext

HOLD_MS = 800
CHECK_AT_MS = 250
HOLD_MAX_S = 10.0
SAVED_S = 5.0
"""After the release: the row turning ``saved`` (a loaded host answers late)."""
NOTE_PATH = re.compile(r"/api/payments/[^/?#]+/note(\?|$)")
NOTE_ROW = 2
"""The third visible row: away from the first, which other scenarios read."""


class _Hold:
    """The route that holds the note write: when it started, whether it still holds."""

    def __init__(self, page: Any) -> None:
        self.page, self.start, self.end, self.read = page, None, None, False

    def __call__(self, route: Route) -> None:
        if route.request.method != "POST":
            route.fallback()
            return
        self.start = time.monotonic()
        try:
            self.page.wait_for_timeout(HOLD_MS)
            while not self.read and time.monotonic() - self.start < HOLD_MAX_S:
                self.page.wait_for_timeout(50)
        except Error:
            return  # the scenario closed while the write was held
        self.end = time.monotonic()
        with suppress(Error):
            route.fallback()

    @property
    def pending(self) -> bool:
        return self.start is not None and self.end is None


def observe_paint(lane: Lane, ctx: GradeContext, shots: Path) -> PaintView:
    """Edit a Note cell with its write held: painted while held, saving, then saved?"""
    with lane.scenario("paint", Instrumentation(row_selector=_page.ROW), artifacts=shots) as sc:
        hold = _Hold(sc.page)
        sc.page.route(NOTE_PATH, hold)
        open_page(sc, ctx.base_url + "/")
        sc.wait_for_first_row(timeout_s=APPEAR_S)
        sc.page.wait_for_timeout(SETTLE_MS)
        td = sc.page.evaluate_handle(_page.NOTE_CELL, NOTE_ROW).as_element()
        value = f"bw paint {int(time.time() * 1000) % 100000}"
        opened = td is not None and _type_note(sc.page, td, value)
        mid: dict[str, Any] = {}
        end: dict[str, Any] = {}
        if opened:
            _await(sc.page, lambda: hold.start is not None, WRITE_S)
            sc.page.wait_for_timeout(CHECK_AT_MS)
            mid = sc.page.evaluate(_page.NOTE_STATE, [td, value])
            mid["pending"] = hold.pending
            sc.screenshot("paint-held", full_page=False)
            hold.read = True
            _await(sc.page, lambda: hold.end is not None, HOLD_MAX_S)
            end = _settled(sc.page, td, value)
        row_id = td.evaluate("(td) => td.closest('tr').getAttribute('data-id')") if td else None
    stamp = mid.get("stamp") or {}
    enter, paint = stamp.get("enter"), stamp.get("paint")
    state = end.get("state")
    return PaintView(
        scenario=sc.observation,  # type: ignore[arg-type]
        cell_found=td is not None,
        editor_opened=opened,
        held_pending=bool(mid.get("pending")),
        painted_while_held=bool(mid.get("painted")) and bool(mid.get("pending")),
        saving_seen=mid.get("state") == "saving",
        paint_ms=None if enter is None or paint is None else round(paint - enter, 1),
        preexisting=bool(stamp.get("pre")),
        saved=state == "saved" and bool(end.get("painted")) and _server_has(ctx, row_id, value),
        saved_state=state,
    )


def _type_note(page: Any, td: Any, value: str) -> bool:
    """Click the cell (§7: a click on the Note cell opens the editor), type ``value`` into
    the focused editor and press Enter; False when no editor took focus."""
    try:
        td.click(timeout=CLICK_S * 1000)
        page.wait_for_function(_page.EDITOR_FOCUSED, timeout=EDITOR_S * 1000, polling=50)
    except (Error, PlaywrightTimeout):
        return False
    page.keyboard.press("Control+A")
    page.keyboard.type(value, delay=5)
    page.evaluate(_page.STAMP_NOTE, [td, value])
    page.keyboard.press("Enter")
    return True


def _await(page: Any, done: Any, bound_s: float) -> None:
    """Until ``done()`` (set by the route handler, which runs during Playwright's waits)."""
    deadline = time.monotonic() + bound_s
    while not done() and time.monotonic() < deadline:
        page.wait_for_timeout(50)


def _settled(page: Any, td: Any, value: str) -> dict[str, Any]:
    """The cell once its row left ``saving`` (bounded by ``SAVED_S``)."""
    deadline = time.monotonic() + SAVED_S
    while True:
        state = page.evaluate(_page.NOTE_STATE, [td, value])
        if state.get("state") != "saving" or time.monotonic() > deadline:
            return state
        page.wait_for_timeout(100)


def _server_has(ctx: GradeContext, payment_id: str | None, value: str) -> bool:
    """ledgerd serves the payment with the typed note (the write was not only painted)."""
    if not payment_id:
        return False
    found = body(ctx.call(f"/api/payments/{payment_id}"))
    return isinstance(found, dict) and found.get("note") == value
