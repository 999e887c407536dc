"""The ``note`` scenario: an optimistic note edit under an 800 ms held response, then a
second edit against an always-412 vendor (the 409 revert with ``#notice``)."""

from __future__ import annotations

import re
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

from playwright.sync_api import Error, Route
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from benchwright.probes.browser import Instrumentation, ScenarioHost
from benchwright.suites.kit.browser import dom as _dom
from benchwright.suites.kit.browser.nav import open_page
from benchwright.suites.kit.browser.waits import APPEAR_S, CLICK_S, EDITOR_S, WRITE_S
from benchwright.suites.vspro.browser._views import NoteView
from benchwright.suites.vspro.context import GradeContext
from benchwright.suites.vspro.observations import rows_of

ROW = "tbody tr"
HOLD_MS = 800
CHECK_AT_MS = 250
HOLD_MAX_S = 10.0
"""The longest a write is held while the probe has not yet read the page at +250 ms (a
loaded host can take longer than the 800 ms hold to get there); never reached on an
idle host, where the hold ends at 800 ms as the seed prescribes."""
CONFLICT_WAIT_S = 15.0
NOTE_PATH = re.compile(r"/api/payments/[^/?#]+/note(\?|$)")
NOTE_ROW, CONFLICT_ROW = 2, 3
"""Rows 0 and 10/20/30/40 belong to the conflict dance and the webhook script."""


def observe_note(session: ScenarioHost, ctx: GradeContext, shots: Path) -> NoteView:
    """Edit a note with its POST held 800 ms: painted while held? saving -> saved? Then
    a second edit against an always-412 vendor: reverted, with ``#notice``?"""
    held: dict[str, float | None] = {"start": None, "end": None, "read": None}

    def hold(route: Route) -> None:
        """Hold the POST 800 ms; until the probe has read the page at +250 ms, longer
        (bounded by ``HOLD_MAX_S``): "was it painted while held" is then read inside the
        hold however slowly a loaded host got there. Later writes (the conflict step)
        are held the 800 ms alone."""
        if route.request.method != "POST":
            route.fallback()
            return
        start = time.monotonic()
        held["start"], held["end"] = start, None
        try:
            sc.page.wait_for_timeout(HOLD_MS)
            while held["read"] is None and time.monotonic() - start < HOLD_MAX_S:
                sc.page.wait_for_timeout(50)
        except Error:
            return
        held["end"] = time.monotonic()
        with suppress(Error):  # the scenario closed while the request was held
            route.fallback()

    with session.scenario("note", Instrumentation(row_selector=ROW), artifacts=shots) as sc:
        sc.page.route(NOTE_PATH, hold)
        open_page(sc, ctx.base_url + "/")
        sc.wait_for_first_row(timeout_s=APPEAR_S)
        sc.page.wait_for_timeout(300)
        td = _note_cell(sc.page, NOTE_ROW)
        value = f"bw note {int(time.time() * 1000) % 100000}"
        edit = _edit(sc, td, value) if td is not None else None
        mid: dict[str, Any] = {}
        saved, state = False, None
        if edit and edit["committed"]:
            _await_hold(sc, held)
            sc.page.wait_for_timeout(CHECK_AT_MS)
            mid = sc.page.evaluate(_dom.NOTE_STATE, [edit["handle"], value])
            mid["pending"] = held["start"] is not None and held["end"] is None
            held["read"] = time.monotonic()  # the hold may end now (after its 800 ms)
            sc.page.wait_for_timeout(HOLD_MS + 200)
            end = _settled(sc, edit["handle"], value)
            state = end.get("state")
            saved = bool(end.get("painted")) and state not in ("error", "conflict") \
                and _server_has(ctx, value)  # fmt: skip
        conflict = _conflict(sc, ctx) if td is not None else None
    stamp = (mid.get("stamp") or {}) if mid else {}
    enter, paint = stamp.get("enter"), stamp.get("paint")
    return NoteView(
        scenario=sc.observation,  # type: ignore[arg-type]
        cell_found=td is not None,
        editor_opened=bool(edit and edit["opened"]),
        committed=bool(edit and edit["committed"]),
        held_pending=bool(mid.get("pending")),
        painted_while_held=bool(mid.get("painted")) and bool(mid.get("pending")),
        saving_seen=bool(mid.get("saving")),
        paint_ms=None if enter is None or paint is None else round(paint - enter, 1),
        preexisting=bool(stamp.get("pre")),
        saved=saved,
        saved_state=state,
        conflict_reverted=None if conflict is None else conflict["reverted"],
        conflict_notice=None if conflict is None else conflict["notice"],
        conflict_notice_role=None if conflict is None else conflict["role"],
    )


def _note_cell(page: Any, index: int) -> Any:
    """The note cell of the ``index``-th visible payments row (`_dom.NOTE_CELL`), or None."""
    return page.evaluate_handle(_dom.NOTE_CELL, index).as_element()


def _openers(td: Any) -> list[tuple[str, Any]]:
    """Ways to open the cell's editor, in order: its note text, a button inside it, a click
    on its centre, a double-click there. Targets the cell does not have are left out."""
    found = td.evaluate_handle(_dom.NOTE_OPENERS)
    text, button = (found.get_property(str(i)).as_element() for i in (0, 1))
    ways = [("note text", text and text.click), ("button", button and button.click)]
    ways += [("centre click", td.click), ("double-click", td.dblclick)]
    return [(name, act) for name, act in ways if act]


def _edit(sc: Any, td: Any, value: str) -> dict[str, Any]:
    """Open the editor (the note text, a button in the cell, the centre, a double-click:
    the first that gives an editor focus), type ``value``, press Enter. Each try is
    bounded by ``CLICK_S`` to click and ``EDITOR_S`` for the editor to take focus."""
    page = sc.page
    opened_by = None
    for name, action in _openers(td):
        try:
            action(timeout=CLICK_S * 1000)
        except Error:
            continue
        if _editor_focused(page):
            opened_by = name
            break
    if opened_by is None:
        return {"opened": False, "committed": False, "handle": td, "opened_by": None}
    page.keyboard.press("Control+A")
    page.keyboard.type(value, delay=5)
    page.evaluate(_dom.STAMP_NOTE, [td, value])
    page.keyboard.press("Enter")
    return {"opened": True, "committed": True, "handle": td, "opened_by": opened_by}


def _await_hold(sc: Any, held: dict[str, float | None]) -> None:
    """Wait, bounded by ``WRITE_S``, until the edit's write reaches the hold, so that
    "painted while held" is read inside the hold even when a loaded host made the app's
    POST leave late (an app that never writes still fails: nothing is ever held)."""
    deadline = time.monotonic() + WRITE_S
    while held["start"] is None and time.monotonic() < deadline:
        sc.page.wait_for_timeout(50)  # a Playwright wait: the route handler runs meanwhile


EDITOR_FOCUSED = (
    "() => { const a = document.activeElement; return !!a && a !== document.body && "
    "(a.matches('input, textarea') || a.isContentEditable); }"
)


def _editor_focused(page: Any) -> bool:
    """Whether an editor took focus within ``EDITOR_S`` (polled: a quick app pays 0 s)."""
    try:
        page.wait_for_function(EDITOR_FOCUSED, timeout=EDITOR_S * 1000, polling=50)
    except PlaywrightTimeout:
        return False
    return True


def _settled(sc: Any, handle: Any, value: str) -> dict[str, Any]:
    deadline = time.monotonic() + 3
    state: dict[str, Any] = {}
    while time.monotonic() < deadline:
        state = sc.page.evaluate(_dom.NOTE_STATE, [handle, value])
        if state.get("state") != "saving":
            break
        sc.page.wait_for_timeout(100)
    return state


def _server_has(ctx: GradeContext, value: str) -> bool:
    rows = rows_of(ctx.call("/api/payments?limit=50")) or []
    return any(isinstance(r, dict) and r.get("note") == value for r in rows)


def _conflict(sc: Any, ctx: GradeContext) -> dict[str, Any] | None:
    td = _note_cell(sc.page, CONFLICT_ROW)
    if td is None:
        return None
    old = td.inner_text().strip()
    ctx.mock.arm_conflict_second()
    try:
        edit = _edit(sc, td, "bw conflicting edit")
        if not edit["committed"]:
            return None
        with suppress(PlaywrightTimeout):  # bounded: a page that never reverts is observed
            sc.page.wait_for_function(
                "(td) => { const n = document.getElementById('notice'); return !!n && "
                "n.getClientRects().length > 0 && !td.innerText.includes('bw conflicting edit'); }",
                arg=edit["handle"],
                timeout=CONFLICT_WAIT_S * 1000,
            )
        sc.page.wait_for_timeout(300)
    finally:
        ctx.mock.set_conflict_mode("off")
    read = sc.page.evaluate(
        "(td) => { const n = document.getElementById('notice');"
        " const shown = !!n && n.getClientRects().length > 0;"
        " return {text: td.innerText.trim(), notice: shown ? n.innerText.trim() : null,"
        " role: n ? n.getAttribute('role') : null}; }",
        edit["handle"],
    )
    sc.screenshot("note-conflict", full_page=False)
    return {"reverted": read["text"] == old, "notice": read["notice"], "role": read["role"]}
