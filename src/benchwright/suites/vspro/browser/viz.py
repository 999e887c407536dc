"""The 3D panel's browser probes (facts C7, methodology §09 T rows): they observe, never judge.

`observe_viz` opens the page in a fresh context with WebGL on, lets the first frame
settle, and records the canvas and its context, whole-framebuffer readbacks (baseline,
after a wheel, mid-drag, after the drag, after the reset), a `window.vsdbg` snapshot,
a hover, bar clicks with the table they produced, a depth-pair click, frames and draw
calls under a 60-move drag, and the 2D toggle. Click targets are aimed with the
contract's own camera (`camera.py`) over the fixture's buckets; the checks recompute
what each answer should have been. `observe_viz_fallback` reloads with WebGL removed.

A JS read that runs into its bound loses its section (``lost``: UNAVAILABLE in the
checks); a canvas that cannot be brought fully into view blocks the interaction sections
(``blocked``: the app's fault). A browser that dies raises ``BrowserUnavailable``.
"""

from __future__ import annotations

import base64
import math
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchwright.probes.browser import (
    Instrumentation,
    ScenarioHost,
)
from benchwright.suites.kit.browser.nav import open_page
from benchwright.suites.kit.browser.reads import WAIT_S, PageReads, Stop
from benchwright.suites.vspro.browser import _viz_js as JS
from benchwright.suites.vspro.browser import camera as C
from benchwright.suites.vspro.browser._viz_types import (
    DRAG_GAP_MS,
    DRAG_MOVES,
    DRAG_STEP_PX,
    WHEEL_DELTA,
    CameraProbe,
    CanvasFacts,
    Framebuffer,
    PickProbe,
    ServedFilter,
    ToggleProbe,
    TooltipProbe,
    VizFallbackObservation,
    VizObservation,
    VsdbgSnapshot,
)
from benchwright.suites.vspro.observations import body

if TYPE_CHECKING:
    from benchwright.probes.browser import Scenario
    from benchwright.suites.vspro.context import GradeContext

ROWS = "tbody tr"
MAX_PICKS, MAX_SPOTS, MAX_VSDBG_PICKS = 5, 6, 4
SERVED_LIMIT = 50
"""The table's page size (facts C6): the served answer a picked table should show."""


# -- the probes -------------------------------------------------------------------------------


def observe_viz(session: ScenarioHost, ctx: GradeContext, shots: Path) -> VizObservation:
    """The normal 3D run against the app at ``ctx.base_url`` (WebGL on).

    Args:
        session: a started `BrowserSession` or one of its lanes; the scenario is named
            ``viz``.
        ctx: the grading context; its mock's fixture buckets aim the clicks.
        shots: where the before/after-drag screenshots of the canvas go.
    """
    bars = C.scene_bars(ctx.mock.fixture.expect.buckets)
    parts: dict[str, Any] = {}
    with session.scenario("viz", Instrumentation(row_selector=ROWS), artifacts=shots) as sc:
        sc.context.add_init_script(script=JS.INIT)
        run = PageReads(sc)
        _drive(run, sc, ctx.base_url, bars, parts)
    if parts["picks"] or parts["depth_pick"]:
        parts["served"] = _served(ctx, sorted({b.status for b in bars}))
    return VizObservation(scenario=sc.observation, lost=dict(run.lost), **parts)


def _drive(run: PageReads, sc: Scenario, base_url: str, bars: Sequence[C.Bar], parts: dict) -> None:
    parts.update(canvas=CanvasFacts(False), draw_calls=0, baseline=None, vsdbg=None, tooltip=None,
                 picks=(), depth_pick=None, camera=None, toggle=None, notice=None)  # fmt: skip
    if open_page(sc, base_url.rstrip("/") + "/") is None:
        parts["blocked"] = "the page did not load"
        return
    sc.wait_for_first_row(timeout_s=WAIT_S)
    _network_idle(sc)  # the buckets have arrived (a page that keeps polling: bounded)
    run.poll(JS.SETTLE, timeout_s=WAIT_S)  # a first draw, then no new draw for 500 ms
    with run.section("context"):
        run.js("() => { const c = document.getElementById('viz3d');"
               " if (c) c.scrollIntoView({block: 'center'}); return true; }")  # fmt: skip
        run.wait(250)
        read = run.js(JS.READ, True)
        parts["canvas"] = _canvas(read)
        parts["draw_calls"] = int(read.get("draws") or 0)
        parts["baseline"] = _framebuffer(read)
    with run.section("toggle"):
        parts["notice"] = run.js(JS.NOTICE)  # while 3D runs: a no-WebGL notice must be absent
    canvas: CanvasFacts = parts["canvas"]
    if not canvas.found or canvas.css_width <= 0 or canvas.css_height <= 0:
        parts["blocked"] = "no visible canvas#viz3d"
    else:
        _interact(run, sc, bars, canvas, parts)
    with run.section("toggle"):
        parts["toggle"] = _toggle(run, sc)


def _network_idle(sc: Scenario, timeout_s: float = 5.0) -> None:
    from playwright.sync_api import Error

    try:
        sc.page.wait_for_load_state("networkidle", timeout=timeout_s * 1000)
    except Error:  # includes the timeout: a page that never idles is still probed
        sc.session.ensure_alive("waiting for the page's requests to settle")


def _interact(
    run: PageReads, sc: Scenario, bars: Sequence[C.Bar], canvas: CanvasFacts, parts: dict
):
    """vsdbg at the default camera, then hover, clicks and the camera, aimed by `camera.py`."""
    w, h = canvas.css_width, canvas.css_height
    tops = [s for s in C.samples(bars, C.DEFAULT_CAMERA, w, h) if s.kind == "top"]
    with run.section("vsdbg"):
        spots = [(b.x, b.h, b.z) for b in _strided(bars, MAX_SPOTS)]
        picks = [(s.sx, s.sy) for s in _strided(tops, MAX_VSDBG_PICKS)]
        got = run.js(JS.VSDBG, {"points": spots, "picks": picks})
        parts["vsdbg"] = _vsdbg(got, spots, picks)
    if not canvas.in_view:
        parts["blocked"] = f"canvas#viz3d ({w:g}x{h:g} CSS px) cannot be brought fully into view"
        return
    origin = (canvas.left, canvas.top)
    with run.section("tooltip"):
        parts["tooltip"] = _hover(run, sc, origin, canvas, bars, tops)
    with run.section("picking"):
        parts["depth_pick"], parts["picks"] = _picks(run, sc, origin, bars, tops, w, h)
    with run.section("camera"):
        sc.screenshot("viz-before-drag", selector="#viz3d")
        parts["camera"] = _camera(run, sc, origin, w, h)


def _hover(run, sc, origin, canvas, bars, tops) -> TooltipProbe | None:
    if not tops:
        return None
    by_key = {b.key: b for b in bars}
    w, h = canvas.css_width, canvas.css_height
    target = max(tops, key=lambda s: C.top_area(by_key[s.key], C.DEFAULT_CAMERA, w, h))
    _off_canvas(sc, canvas)
    run.poll(JS.TIP_HIDDEN, timeout_s=1.0)
    run.js(JS.TIP_ARM)
    sc.page.mouse.move(origin[0] + target.sx, origin[1] + target.sy)
    run.poll(JS.TIP_SHOWN, timeout_s=1.5)
    read = run.js(JS.TIP_READ)
    _off_canvas(sc, canvas)
    hidden = bool(run.poll(JS.TIP_HIDDEN, timeout_s=1.0))
    return TooltipProbe(target.sx, target.sy, bool(read["shown"]), read.get("text"),
                        read.get("latency"), hidden)  # fmt: skip


def _off_canvas(sc, canvas: CanvasFacts) -> None:
    sc.page.mouse.move(canvas.left + 2, max(1.0, canvas.top - 30))  # above the canvas, outside


def _picks(run, sc, origin, bars, tops, w, h) -> tuple[PickProbe | None, tuple[PickProbe, ...]]:
    by_key = {b.key: b for b in bars}
    depth = None
    pair = C.depth_pair(bars, C.DEFAULT_CAMERA, w, h)
    last = None
    if pair is not None:
        near, _far, point = pair
        depth = _click(run, sc, origin, point, near.status)
        last = near.status
    ordered, pool = [], list(_strided(tops, MAX_PICKS))
    while pool:  # consecutive clicks on different statuses when possible: a stale table shows
        nxt = next((s for s in pool if by_key[s.key].status != last), pool[0])
        pool.remove(nxt)
        ordered.append(nxt)
        last = by_key[nxt.key].status
    done = [_click(run, sc, origin, (s.sx, s.sy), by_key[s.key].status) for s in ordered]
    return depth, tuple(done)


def _click(run, sc, origin, point, aim: str) -> PickProbe:
    sc.page.mouse.click(origin[0] + point[0], origin[1] + point[1])
    read = run.poll(JS.TABLE, aim, timeout_s=1.5) or run.js(JS.TABLE, None)
    return PickProbe(point[0], point[1], read.get("value"), tuple(read.get("statuses") or ()),
                     read.get("total"))  # fmt: skip


def _served(ctx: GradeContext, statuses: Sequence[str]) -> dict[str, ServedFilter]:
    """The app's own answer for each status filter (one GET each, outside the timed
    sections), so t_picking can tell a stale table from a server-side filter bug."""
    out = {}
    for status in statuses:
        found = body(ctx.call(f"/api/payments?status={status}&limit={SERVED_LIMIT}")) or {}
        rows, total = found.get("data"), found.get("total")
        if not isinstance(rows, list):
            continue  # no answer to judge a table by: the fixture decides
        out[status] = ServedFilter(
            tuple(str(r.get("status", "")).lower() for r in rows if isinstance(r, dict)),
            total if isinstance(total, int) and not isinstance(total, bool) else None,
        )
    return out


def _camera(run: PageReads, sc, origin, w: float, h: float) -> CameraProbe:
    cx, cy = origin[0] + w / 2, origin[1] + h / 2
    mouse = sc.page.mouse
    mouse.move(cx, cy)
    before = run.js(JS.READ, False)
    mouse.wheel(0, WHEEL_DELTA)
    run.wait(350)
    wheel = run.js(JS.READ, True)
    wheel_cam = run.js(JS.VSDBG_NOW)["camera"]
    mouse.dblclick(cx, cy)
    run.wait(350)
    reset1 = run.js(JS.VSDBG_NOW)["camera"]
    idle0 = run.js(JS.VSDBG_NOW)
    run.wait(500)
    idle1 = run.js(JS.VSDBG_NOW)
    mouse.move(cx, cy)
    start = run.js(JS.VSDBG_NOW)
    began = time.perf_counter()
    mouse.down()
    mid = None
    for step in range(1, DRAG_MOVES + 1):
        mouse.move(cx + DRAG_STEP_PX * step, cy)
        run.wait(DRAG_GAP_MS)
        if step == DRAG_MOVES // 2:
            mid = _framebuffer(run.js(JS.READ, True))
    mouse.up()
    drag_ms = (time.perf_counter() - began) * 1000
    run.wait(250)
    end = run.js(JS.VSDBG_NOW)
    after = run.js(JS.READ, True)
    # the evidence of the drag, taken while the camera is still where the drag left it
    # (after the reset below it would show the default view again, like the before-shot)
    sc.screenshot("viz-after-drag", selector="#viz3d")
    mouse.dblclick(cx, cy)
    run.wait(350)
    reset = run.js(JS.READ, True)
    return CameraProbe(
        top_before=float(before["top"]), top_after_wheel=float(wheel["top"]),
        scroll_before=float(before["scrollY"]), scroll_after_wheel=float(wheel["scrollY"]),
        camera_after_wheel=wheel_cam, after_wheel=_framebuffer(wheel),
        camera_after_first_reset=reset1, mid_drag=mid, after_drag=_framebuffer(after),
        camera_after_drag=end["camera"], frames_before=start["frames"],
        frames_after=end["frames"], draws_before=int(start["draws"]),
        draws_after=int(end["draws"]), idle_frames=_delta(idle0["frames"], idle1["frames"]),
        drag_ms=drag_ms, after_reset=_framebuffer(reset),
        camera_after_reset=run.js(JS.VSDBG_NOW)["camera"],
    )  # fmt: skip


def _toggle(run: PageReads, sc) -> ToggleProbe:
    at = run.js(JS.TOGGLE_AT)
    if not at:
        return ToggleProbe(False, False, {}, None)
    sc.page.mouse.click(*at)  # a real click where the button is; no actionability waits
    run.poll(JS.FALLBACK_READY, timeout_s=2.0)
    read = run.js(JS.FALLBACK)
    at = run.js(JS.TOGGLE_AT)
    if at:
        sc.page.mouse.click(*at)  # back to 3D
        run.wait(200)
    return ToggleProbe(True, bool(read["shown"]), dict(read["cells"]), read.get("pressed"))


def observe_viz_fallback(
    session: ScenarioHost, ctx: GradeContext, shots: Path
) -> VizFallbackObservation:
    """The same page with WebGL removed: the table must stand in, with an in-panel notice.

    Args:
        session: a started `BrowserSession` or one of its lanes; the scenario is named
            ``viz_fallback``.
        ctx: the grading context (only its base URL is used).
        shots: where the screenshot of the degraded panel goes.
    """
    instrument = Instrumentation(row_selector=ROWS, disable_webgl=True)
    read: dict[str, Any] = {"shown": False, "cells": {}}
    notice, rows = None, 0
    with session.scenario("viz_fallback", instrument, artifacts=shots) as sc:
        sc.context.add_init_script(script=JS.INIT)
        run = PageReads(sc)
        loaded = open_page(sc, ctx.base_url.rstrip("/") + "/") is not None
        if loaded:
            sc.wait_for_first_row(timeout_s=WAIT_S)
            run.poll(JS.FALLBACK_READY, timeout_s=5.0)
        with run.section("fallback"):
            if not loaded:
                raise Stop
            run.wait(300)  # let late console errors land
            read = run.js(JS.FALLBACK)
            notice = run.js(JS.NOTICE)
            rows = int(run.js(JS.ROWS))
        if loaded and not run.lost:
            _into_view(sc, "#viz-fallback")
            sc.screenshot("viz-fallback", full_page=False)
    return VizFallbackObservation(sc.observation, bool(read["shown"]), dict(read["cells"]),
                                  notice, rows, dict(run.lost), loaded)  # fmt: skip


def _into_view(sc: Scenario, selector: str) -> None:
    """Scroll ``selector`` into the viewport (if the page has it) before a screenshot of
    the viewport, so the picture shows what the row that relies on it judged."""
    from playwright.sync_api import Error

    try:
        sc.page.locator(selector).first.scroll_into_view_if_needed(timeout=2000)
    except Error:  # absent or never visible: the screenshot shows the page as it is
        sc.session.ensure_alive(f"scrolling {selector} into view")


# -- parsing what the page returned -----------------------------------------------------------


def _canvas(read: Mapping[str, Any]) -> CanvasFacts:
    if not read.get("found"):
        return CanvasFacts(False)
    left, top, w, h = (float(read[k]) for k in ("left", "top", "w", "h"))
    right, bottom = left + w - read["innerW"], top + h - read["innerH"]
    in_view = w > 0 and h > 0 and min(left, top) >= -0.5 and max(right, bottom) <= 0.5
    return CanvasFacts(True, read.get("kind"), read.get("asked"), w, h, left, top,
                       int(read["bw"]), int(read["bh"]), float(read["dpr"]), in_view)  # fmt: skip


def _framebuffer(read: Mapping[str, Any]) -> Framebuffer | None:
    fb = read.get("fb")
    if not fb or not read.get("w") or not read.get("h"):
        return None
    return Framebuffer(int(fb["w"]), int(fb["h"]), float(read["w"]), float(read["h"]),
                       base64.b64decode(fb["b64"]))  # fmt: skip


def _vsdbg(got: Mapping[str, Any], spots: list, picks: list) -> VsdbgSnapshot:
    if not got.get("present"):
        return VsdbgSnapshot(False)
    return VsdbgSnapshot(
        True, got.get("version"), got.get("scene"), got.get("camera"), got.get("frames"),
        tuple(zip((tuple(p) for p in spots), got.get("projections") or (), strict=False)),
        tuple(zip((tuple(p) for p in picks), got.get("picks") or (), strict=False)),
    )  # fmt: skip


def _delta(a: Any, b: Any) -> Any:
    ok = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (a, b))
    return b - a if ok else None


def _strided(items: Sequence, most: int) -> list:
    stride = max(1, math.ceil(len(items) / most))
    return list(items[::stride])[:most]


__all__ = [
    "CameraProbe",
    "CanvasFacts",
    "Framebuffer",
    "PickProbe",
    "ServedFilter",
    "ToggleProbe",
    "TooltipProbe",
    "VizFallbackObservation",
    "VizObservation",
    "VsdbgSnapshot",
    "observe_viz",
    "observe_viz_fallback",
]
