"""The ``viz`` browser scenario: the 3D field at load, at rest and under the budget drag.

It opens the page with the GL wrapper (`_js.INIT`), keeps the ``/api/viz/records`` answer
the page itself downloaded (the scene the grader recomputes is the one the page drew),
waits for the field to draw and settle, then reads the canvas and its context, the
``vs7dbg`` answers, 500 ms rest windows, the scripted 40-move drag, rest windows again
once any coast has ended, the camera, picks, clicks, heights and brush, and last the live
stream (`stream`: it commits vendor changes, so nothing reads the field after it). It
observes; the checks judge.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchwright.probes.browser import Instrumentation, Lane
from benchwright.suites.kit.browser.nav import open_page
from benchwright.suites.kit.browser.reads import Lost, PageReads, Stop
from benchwright.suites.sb7.viz import _js as JS
from benchwright.suites.sb7.viz import aim, coast, heights, labels, scene
from benchwright.suites.sb7.viz import camera as C
from benchwright.suites.sb7.viz.stream import observe_stream
from benchwright.suites.sb7.viz.view import (
    SCENARIO,
    BrushLook,
    BrushRun,
    CameraRun,
    ClickRun,
    ContextFacts,
    Counters,
    Drag,
    HeightRun,
    HeightStrip,
    LabelBox,
    LabelRun,
    PickProbe,
    PickRun,
    VizView,
    Vs7Answer,
    Window,
)

if TYPE_CHECKING:
    from benchwright.probes.browser import Scenario

RECORDS_PATH = "/api/viz/records"
SETTLE_S = 15.0
"""Bound on the first draw and the quiet after it (a field that never rests is probed all
the same: its idle windows say so)."""
GRID = (16, 10)
"""The blind pixel grid over the drawing buffer (columns, rows)."""
VS7_AT_LOAD = ("layout", "sceneDigest", "camera", "frames", "brush")
IDLE_MS = 500
IDLE_BEFORE, IDLE_AFTER = 3, 2
"""Rest windows after the load settled, and after the drag's coast ended."""
DRAG_MOVES, DRAG_STEP_PX, DRAG_GAP_MS = 40, 5, 40
"""The budget drag (§8.2's M = 40): 5 px every 40 ms, 150 px/s to the left."""
REST_S = 4.0
"""Bound on the drag's coast ending (the spec caps a coast at 2.5 s)."""
LAW_MOVES, LAW_STEP_PX, LAW_GAP_MS = 4, 20, 30
"""The drag-law drag: 80 px to the right, read before its pointerup (few moves: under
SwiftShader at full count each move waits for a frame of its own)."""
WHEEL_DY, CLAMP_DY = 100.0, 2000.0
PITCH_MOVES, PITCH_STEP_PX = 4, 50
"""The pitch-clamp drag: 200 px down (+60° from 40: past 85)."""
FLICK_MOVES, FLICK_STEP_PX, FLICK_GAP_MS = 4, 20, 30
"""The flick a double-click must stop: 20 px every 30 ms (200°/s)."""
PICK_POSE = (30.0, 15.0, 35.0)
"""A close, low pose: columns many pixels wide, and plenty of occlusion to construct."""
HEIGHT_POSE = (30.0, 40.0, 35.0)
"""A close pose looking down enough that top faces are several pixels tall and many
tops stand clear against the background (13 px per world unit at the anchor: a JPY
or KWD exponent off by one moves a top by 5 px or more)."""


def observe_viz(lane: Lane, ctx: Any, shots: Path) -> VizView:
    """The ``viz`` scenario on ``lane`` against the app at ``ctx.base_url``."""
    got: list[Any] = []
    parts: dict[str, Any] = {}
    with lane.scenario(SCENARIO, Instrumentation(), artifacts=shots) as sc:
        sc.context.add_init_script(script=JS.INIT)
        sc.page.on("response", lambda r: got.append(r) if _is_records(r.url) else None)
        run = PageReads(sc)
        open_page(sc, ctx.base_url.rstrip("/") + "/")
        _downloaded(sc, got)
        run.poll(JS.SETTLE, timeout_s=SETTLE_S)
        parts["records"] = _body(sc, got)
        _drive(run, sc, parts)
        if run.lost:
            parts["starved"] = starved(run)
        observe_stream(run, sc, ctx, parts, _ground)
        sc.screenshot("viz-field", selector="#viz3d")
    return VizView(scenario=sc.observation, lost=dict(run.lost), **parts)


STARVED_READ_S, STARVED_MS = 30.0, 2000
"""After a lost read: each counter reading may take this long, this far apart."""


def starved(run: PageReads) -> Window | None:
    """What a page that outran the read bound does at rest: the coast gets `REST_S` to
    end, then two counter readings `STARVED_MS` apart, each allowed `STARVED_READ_S`, the
    probe sending nothing. A field that drew between them redraws at rest, which is what
    starved the probe's reads (§12 p_idle_flatness fails it by design); None when even
    these reads ran out."""
    try:
        run.wait(REST_S * 1000)
        start = Counters.of(run.js(JS.SNAP, timeout_s=STARVED_READ_S, despite_loss=True))
        run.wait(STARVED_MS)
        end = Counters.of(run.js(JS.SNAP, timeout_s=STARVED_READ_S, despite_loss=True))
    except Lost:
        return None
    return Window(start, end)


def _downloaded(sc: Scenario, got: list[Any]) -> None:
    """Wait (at most `SETTLE_S`) for the page's records answer: a field that drew its
    empty frame first must not settle before its columns are drawn."""
    deadline = time.monotonic() + SETTLE_S
    while not got and time.monotonic() < deadline:
        sc.page.wait_for_timeout(100)  # yields to Playwright, which delivers the response


def _is_records(url: str) -> bool:
    return url.split("?", 1)[0].endswith(RECORDS_PATH)


def _body(sc: Scenario, got: list[Any]) -> dict[str, Any] | None:
    """The first successful records answer the page downloaded, parsed (None: none)."""
    from playwright.sync_api import Error

    for response in got:
        try:
            if response.ok:
                found = json.loads(response.body())
                return found if isinstance(found, dict) else None
        except (Error, ValueError):
            sc.session.ensure_alive("reading the page's viz records")
    return None


def _drive(run: PageReads, sc: Scenario, parts: dict[str, Any]) -> None:
    with run.section("context"):
        parts["context"] = _context(run.js(JS.CONTEXT, list(GRID)))
    with run.section("vs7dbg"):
        parts["vs7dbg"] = _vs7(run.js(JS.VS7DBG, list(VS7_AT_LOAD)))
    idle: list[Window] = []
    with run.section("idle"):
        idle += _rest(run, IDLE_BEFORE)
    context: ContextFacts | None = parts.get("context")
    with run.section("drag"):
        if context is None or not context.canvas or min(context.css) <= 0:
            raise Stop
        parts["drag"] = _drag(run, sc)
        run.poll(JS.SETTLE, timeout_s=REST_S)  # the coast ends (or the field never rests)
    with run.section("idle"):
        idle += _rest(run, IDLE_AFTER)
    parts["idle"] = tuple(idle)
    with run.section("camera"):
        if parts.get("drag") is None:
            raise Stop
        parts["camera"] = _camera(run, sc)
    with run.section("coast"):
        if parts.get("drag") is None:
            raise Stop
        parts["coast"] = coast.observe(run, sc, lambda: _centre(sc), lambda p: _free(run, sc, p))
    with run.section("picks"):
        if parts.get("drag") is None or parts.get("records") is None:
            raise Stop
        parts["picks"] = (_picks(run, sc, parts["records"], PICK_POSE),)
    with run.section("clicks"):
        if not parts.get("picks"):
            raise Stop
        parts["clicks"] = _clicks(run, sc, parts["picks"][0])
    with run.section("heights"):
        if parts.get("drag") is None or parts.get("records") is None:
            raise Stop
        parts["heights"] = _heights(run, sc, parts["records"])
    with run.section("brush"):
        if parts.get("heights") is None or not parts["heights"].strips:
            raise Stop
        parts["brush"] = _brush(run, sc, parts["heights"])
    with run.section("labels"):
        if parts.get("drag") is None or parts.get("records") is None:
            raise Stop
        parts["labels"] = _labels(run, sc, parts["records"])


def _context(read: dict[str, Any]) -> ContextFacts:
    if not read.get("canvas"):
        return ContextFacts(bool(read.get("found")))
    samples = tuple(tuple(int(c) for c in px) for px in read.get("samples") or ())
    return ContextFacts(True, True, read.get("kind"), dict(read.get("asked") or {}),
                        (float(read["cssW"]), float(read["cssH"])),
                        (int(read["bw"]), int(read["bh"])), float(read["dpr"]),
                        int(read["draws"]), samples)  # type: ignore[arg-type]  # fmt: skip


def _vs7(read: dict[str, Any]) -> dict[str, Vs7Answer] | None:
    if not read.get("present"):
        return None
    out = {}
    for name in VS7_AT_LOAD:
        got = read.get(name)
        if got is None:
            out[name] = Vs7Answer(error="missing")
        else:
            out[name] = Vs7Answer(got.get("value"), None if got.get("ok") else got.get("error"))
    return out


def _rest(run: PageReads, windows: int) -> list[Window]:
    found = []
    for _ in range(windows):
        start = Counters.of(run.js(JS.SNAP))
        run.wait(IDLE_MS)
        found.append(Window(start, Counters.of(run.js(JS.SNAP))))
    return found


def _centre(sc: Scenario) -> tuple[float, float, float, float]:
    """The canvas's centre in the viewport and its CSS size, the canvas scrolled into the
    middle of the viewport first (a field click moves the table, which may scroll the
    page: spec §8.6)."""
    sc.page.evaluate("() => { const c = document.getElementById('viz3d');"
                     " if (c) c.scrollIntoView({ block: 'center' }); }")  # fmt: skip
    box = sc.page.locator("#viz3d").bounding_box()
    if box is None:
        raise Stop
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, box["width"], box["height"]


def _drag(run: PageReads, sc: Scenario) -> Drag:
    x, y, _w, _h = _centre(sc)
    mouse = sc.page.mouse
    mouse.move(x, y)
    mouse.down()
    start = Counters.of(run.js(JS.SNAP))
    for step in range(1, DRAG_MOVES + 1):
        mouse.move(x - DRAG_STEP_PX * step, y)
        run.wait(DRAG_GAP_MS)
    mouse.up()
    run.js(JS.RAF_ARM)
    return Drag(DRAG_MOVES, Window(start, Counters.of(run.js(JS.RAF_READ))))


FREE_REACH_PX = 60
"""How far from a wanted input point the probe looks for one the canvas itself receives."""


def _free(run: PageReads, sc: Scenario, want: tuple[float, float]) -> tuple[float, float]:
    """A viewport point near ``want`` where the pointer reaches the canvas itself, not a
    label or an overlay above it (those take the input: the app's choice, not a law the
    camera rows grade); ``want`` itself when there is none."""
    x, y, w, h = _centre(sc)
    left, top = x - w / 2, y - h / 2
    rel = (want[0] - left, want[1] - top)
    rings = [(dx, dy) for r in range(0, FREE_REACH_PX + 1, 12)
             for dx, dy in ((r, 0), (-r, 0), (0, r), (0, -r), (r, r), (-r, -r))]  # fmt: skip
    points = [[rel[0] + dx, rel[1] + dy] for dx, dy in rings
              if 0 < rel[0] + dx < w and 0 < rel[1] + dy < h]  # fmt: skip
    found = run.js(JS.FREE, [points])
    return (left + found[0], top + found[1]) if found else want


GROUND_GRID = (8, 5)
"""Candidate double-click points: this grid over the canvas, its outer ring first (the
field's background is likeliest at the edges)."""
RESET_S = 3.0
"""Bound on a double-click's reset showing in ``vs7dbg.camera()``."""
HOME = [C.DEFAULT.yaw, C.DEFAULT.pitch, C.DEFAULT.distance, 0.5]
"""The defaults and the tolerance the reset is awaited with (the check's pose read)."""


def _ground(run: PageReads, sc: Scenario) -> tuple[float, float]:
    """A viewport point where a double-click reaches the canvas on its background: a
    click there empties the brush, so the reset's two clicks never move the table, whose
    scroll would land seconds later under the next camera input (seen on the golden: the
    page scrolled mid-stroke and between wheel steps). The canvas centre when none."""
    x, y, w, h = _centre(sc)
    cols, rows = GROUND_GRID
    grid = [(i, j) for j in range(rows) for i in range(cols)]
    grid.sort(key=lambda ij: min(ij[0], cols - 1 - ij[0], ij[1], rows - 1 - ij[1]))
    points = [[round(4 + i * (w - 8) / (cols - 1)), round(4 + j * (h - 8) / (rows - 1))]
              for i, j in grid]  # fmt: skip
    found = run.js(JS.GROUND, [points])
    left, top = x - w / 2, y - h / 2
    return (left + found[0], top + found[1]) if found else _free(run, sc, (x, y))


def _cam(run: PageReads) -> dict[str, Any]:
    return run.js(JS.CAMERA)


def _stroke(
    run: PageReads,
    sc: Scenario,
    start: tuple[float, float],
    step: tuple[float, float],
    moves: int,
    gap_ms: float,
) -> dict[str, Any] | None:
    """Press at ``start``, move ``moves`` times by ``step``; the camera before the release
    (then release)."""
    mouse = sc.page.mouse
    start = _free(run, sc, start)
    mouse.move(*start)
    mouse.down()
    for i in range(1, moves + 1):
        mouse.move(start[0] + step[0] * i, start[1] + step[1] * i)
        run.wait(gap_ms)
    during = _cam(run)["camera"]
    mouse.up()
    return during


def _camera(run: PageReads, sc: Scenario) -> CameraRun:
    """The camera's laws by scripted input, each from the defaults (a double-click)."""
    mouse = sc.page.mouse

    def at(dx: float = 0.0, dy: float = 0.0) -> tuple[float, float]:
        """The canvas centre moved by (dx, dy), where the canvas is now."""
        x, y, _w, _h = _centre(sc)
        return x + dx, y + dy

    def reset() -> None:
        mouse.dblclick(*_ground(run, sc))
        run.poll(JS.AT_HOME, HOME, timeout_s=RESET_S)

    reset()
    before = _cam(run)["camera"]
    start = at(-LAW_MOVES * LAW_STEP_PX / 2)
    during = _stroke(run, sc, start, (LAW_STEP_PX, 0), LAW_MOVES, LAW_GAP_MS)
    reset()
    mouse.move(*_free(run, sc, at()))
    wheel = [_cam(run)]
    for _ in range(2):
        mouse.wheel(0, WHEEL_DY)
        run.wait(200)
        wheel.append(_cam(run))
    reset()
    mouse.move(*_free(run, sc, at()))
    mouse.wheel(0, CLAMP_DY)
    run.wait(200)
    distance = _cam(run)["camera"]
    reset()
    top = at(0, -PITCH_MOVES * PITCH_STEP_PX / 2)
    pitch = _stroke(run, sc, top, (0, PITCH_STEP_PX), PITCH_MOVES, LAW_GAP_MS)
    reset()
    flick = at(-FLICK_MOVES * FLICK_STEP_PX / 2)
    _stroke(run, sc, flick, (FLICK_STEP_PX, 0), FLICK_MOVES, FLICK_GAP_MS)
    mouse.dblclick(*_ground(run, sc))
    run.poll(JS.AT_HOME, HOME, timeout_s=RESET_S)
    after = [_cam(run)["camera"]]
    run.wait(300)
    after.append(_cam(run)["camera"])
    _x, _y, w, h = _centre(sc)
    return CameraRun((w, h), LAW_MOVES * LAW_STEP_PX, before, during, WHEEL_DY,
                     tuple(r["camera"] for r in wheel),
                     (float(wheel[0]["scrollY"]), float(wheel[-1]["scrollY"])), pitch, distance,
                     tuple(after))  # fmt: skip


def _picks(
    run: PageReads, sc: Scenario, records: dict[str, Any], pose: tuple[float, float, float]
) -> PickRun:
    """``setCamera(pose)``, then pick and pickPixel at the points aimed for the
    constructions (with the page's own records), and the visible pixel at each."""
    _x, _y, w, h = _centre(sc)
    served = scene.truth_records(records, {})
    columns = scene.place(served, scene.basis(served, min((r.day for r in served), default="")))
    at = C.Screen(columns, C.View(C.Pose(*pose), w, h))
    points = aim.aim(at)
    if run.js(JS.INVALIDATE, list(pose)) is None:
        raise Stop
    _unbrush(run, sc, [p for p in points if aim.front(at, *p) is None])
    invalidated = run.js(JS.INVALIDATE, list(pose))  # the graded invalidation
    got = run.js(JS.PICKS, [list(p) for p in points])
    shown = run.js(JS.PIXELS, [list(p) for p in points]) or [None] * len(points)
    camera = _cam(run)["camera"]
    probes = tuple(
        PickProbe(float(sx), float(sy), g["pick"],
                  tuple(g["pixel"]) if g["pixel"] is not None else None,
                  tuple(px) if px is not None else None)  # type: ignore[arg-type]
        for (sx, sy), g, px in zip(points, got["picks"], shown, strict=True)
    )  # fmt: skip
    return PickRun(pose, (w, h), camera, Counters.of(invalidated), Counters.of(got["firstAfter"]
                   or got["after"]), Counters.of(got["before"]), Counters.of(got["after"]),
                   probes)  # fmt: skip


def _clicks(run: PageReads, sc: Scenario, picks: PickRun) -> ClickRun:
    """Click a picked record three times, then a point the pick buffer calls background,
    reading the brush after each (at the picks' pose: a click never moves the camera)."""
    _centre(sc)  # the canvas in view: a point out of the viewport is never free
    free = [p for p in picks.points
            if run.js(JS.FREE, [[[p.sx, p.sy]]]) is not None]  # no label over it  # fmt: skip
    target = next(((p.sx, p.sy) for p in free if p.pick is not None), None)
    if target is None:
        raise Stop
    ground = next(((p.sx, p.sy) for p in free if p.pick is None), None)
    brush = [run.js(JS.BRUSH)]
    for sx, sy in [target] * 3 + ([ground] if ground is not None else []):
        x, y, w, h = _centre(sc)
        left, top = x - w / 2, y - h / 2
        sc.page.mouse.click(left + sx, top + sy)
        run.wait(150)
        brush.append(run.js(JS.BRUSH))
    return ClickRun(target, ground, tuple(b.get("brush") for b in brush))


def _unbrush(run: PageReads, sc: Scenario, grounds: list[tuple[int, int]]) -> None:
    """Empty a brush the camera inputs left (a double-click on a record is two clicks) by
    a click on the background, as §8.3 says, so that the pixels read show undimmed
    colours."""
    if not run.js(JS.BRUSH).get("brush"):
        return
    x, y, w, h = _centre(sc)
    left, top = x - w / 2, y - h / 2
    free = next((p for p in grounds if run.js(JS.FREE, [[list(p)]]) is not None), None)
    if free is not None:
        sc.page.mouse.click(left + free[0], top + free[1])
        run.wait(200)


def _heights(run: PageReads, sc: Scenario, records: dict[str, Any]) -> HeightRun:
    """``setCamera(HEIGHT_POSE)`` with the brush emptied (a background click: dimmed
    colours are the brush's rows, not this one's), then a pixel strip per clean column
    `heights.cases` picks with the page's own records."""
    _x, _y, w, h = _centre(sc)
    served = scene.truth_records(records, {})
    columns = scene.place(served, scene.basis(served, min((r.day for r in served), default="")))
    at = C.Screen(columns, C.View(C.Pose(*HEIGHT_POSE), w, h))
    if run.js(JS.BRUSH).get("brush"):
        sc.page.mouse.click(*_ground(run, sc))
        run.wait(200)
    if run.js(JS.INVALIDATE, list(HEIGHT_POSE)) is None:
        raise Stop
    run.poll(JS.SETTLE, timeout_s=REST_S)  # the frame at the pose is drawn
    strips = []
    for n, sx, anchor, top in heights.cases(at, {i: r.currency for i, r in enumerate(served)}):
        top = max(0, top)
        read = run.js(JS.PIXELS, [[sx, y] for y in range(top, anchor + 1)])
        if read:
            shown = tuple(tuple(int(c) for c in px[:3]) for px in read)
            strips.append(HeightStrip(served[n].id, sx, top, anchor, shown))  # type: ignore[arg-type]
    return HeightRun(HEIGHT_POSE, (w, h), tuple(strips))


SHOWN_S = 8.0
"""Bound on the table reaching the field-clicked record's page (a binary search over the
API's order, request by request)."""


def _brush(run: PageReads, sc: Scenario, at: HeightRun) -> BrushRun:
    """A row click, a click on the first strip's column top, a background click; the
    brush, the count and the anchors' pixels after each (§8.6 both doors)."""
    anchors = [[s.sx, s.anchor] for s in at.strips]

    def look() -> BrushLook:
        run.wait(300)
        shown = run.js(JS.PIXELS, anchors)
        return BrushLook(run.js(JS.BRUSH).get("brush"), run.js(JS.COUNT).get("count"),
                         tuple(tuple(int(c) for c in px[:3]) for px in shown) if shown else None)  # type: ignore[misc]  # fmt: skip

    row = run.js(JS.ROW)
    if row.get("id") is not None:
        sc.page.mouse.click(row["x"], row["y"])
    after_row = look()
    target = at.strips[0]
    x, y, w, h = _centre(sc)
    sc.page.mouse.click(x - w / 2 + target.sx, y - h / 2 + target.anchor)
    shown = run.poll(JS.SHOWN, target.id, timeout_s=SHOWN_S)
    after_field = look()
    sc.page.mouse.click(*_ground(run, sc))
    return BrushRun(row.get("id"), after_row, target.id, after_field, shown, look())


def _labels(run: PageReads, sc: Scenario, records: dict[str, Any]) -> LabelRun:
    """``setCamera`` to the `labels.decisive` pose for the page's own records, the field
    settled (labels may follow the frame's pick read-back), then every label element and
    ``pick`` at each candidate's anchor."""
    _x, _y, w, h = _centre(sc)
    served = scene.truth_records(records, {})
    columns = scene.place(served, scene.basis(served, min((r.day for r in served), default="")))
    pose = labels.decisive(columns, w, h)
    view = C.View(pose, w, h)
    if run.js(JS.INVALIDATE, [pose.yaw, pose.pitch, pose.distance]) is None:
        raise Stop
    run.poll(JS.SETTLE, timeout_s=REST_S)
    chosen = labels.candidates(columns)
    anchors = [labels.anchor(view, c) for c in chosen]
    read = run.js(JS.LABELS, [[list(a) if a is not None else None for a in anchors]])
    found = tuple(LabelBox(None if e.get("id") is None else str(e["id"]), float(e["x"]),
                           float(e["y"]), float(e["w"]), float(e["h"]), bool(e["shown"]))
                  for e in read["labels"])  # fmt: skip
    picks = {c.id: (a, p) for c, a, p in zip(chosen, anchors, read["picks"], strict=True)}
    return LabelRun((pose.yaw, pose.pitch, pose.distance), (w, h), picks, found,
                    bool(read["layer"]))  # fmt: skip
