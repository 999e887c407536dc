"""The golden 3D field (``app/web/viz.js``) in real headless Chromium against the golden
ledgerd, synced from the real v3 mock: it draws on ``#viz3d`` with the pinned context,
``vs7dbg`` answers what Python recomputes from ``/api/viz/records`` (layout, digest,
picks along the analytic ray, labels), it draws nothing at rest and at most 8 times per
frame under a drag, the coast follows the closed form, clicks and the table's event share
one brush, a vendor change arrives as a byte-bounded diff, and without WebGL the page says
so and keeps the brush.

One page serves the module; the tests run in file order, each from the pose it sets.
A page-side wrapper (installed before the page's scripts) attributes draws and read-backs
to the framebuffer bound at the time, counts uploaded buffer bytes and reallocations,
records the context attributes asked for, and keeps the drawing buffer for read-back.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from sb7_reference_app import Golden, eventually
from sb7_vizgolden_scene import (
    BACKGROUND,
    TOP,
    Camera,
    Column,
    columns,
    digest,
    expected_labels,
    pixel_centre,
)

from benchwright.probes.browser import BrowserSession, Instrumentation, browser_available
from benchwright.services.meridian_v3 import MeridianV3Mock, V3Timing

NO_BROWSER = browser_available()
pytestmark = [pytest.mark.slow, pytest.mark.skipif(NO_BROWSER is not None, reason=str(NO_BROWSER))]
STRIDE_PLUS_SLACK = 64 + 4096
"""The most bytes one toggle or one one-record batch may upload (a 64-byte stride bound)."""
TOLERANCE = 8
WRAPPER = """(() => {
  const t = window.__vizgolden = { attrs: undefined, defaultDraws: 0, offscreenDraws: 0,
                                   uploads: 0, reallocs: 0, offscreenReads: 0, brushEvents: [] };
  document.addEventListener("vs7:brush", (e) => t.brushEvents.push(e.detail));
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (type, attrs) {
    if (String(type).startsWith("webgl") && this.id === "viz3d" && t.attrs === undefined) {
      t.attrs = attrs ? { ...attrs } : null;
    }
    return getContext.call(this, type, { ...(attrs || {}), preserveDrawingBuffer: true });
  };
  for (const Ctx of [window.WebGLRenderingContext, window.WebGL2RenderingContext]) {
    const P = Ctx.prototype;
    const bound = new WeakMap();
    const bind = P.bindFramebuffer;
    P.bindFramebuffer = function (target, fb) {
      bound.set(this, fb);
      return bind.call(this, target, fb);
    };
    for (const name of ["drawArrays", "drawElements", "drawArraysInstanced",
                        "drawElementsInstanced"]) {
      const draw = P[name];
      if (!draw) continue;
      P[name] = function (...args) {
        if (bound.get(this)) t.offscreenDraws += 1; else t.defaultDraws += 1;
        return draw.apply(this, args);
      };
    }
    const data = P.bufferData;
    P.bufferData = function (target, src, ...rest) {
      const bytes = typeof src === "number" ? src : src ? src.byteLength : 0;
      t.uploads += bytes;
      if (bytes > 4096) t.reallocs += 1;
      return data.call(this, target, src, ...rest);
    };
    const sub = P.bufferSubData;
    P.bufferSubData = function (target, offset, src, ...rest) {
      t.uploads += src.byteLength;
      return sub.call(this, target, offset, src, ...rest);
    };
    const read = P.readPixels;
    P.readPixels = function (...args) {
      if (bound.get(this)) t.offscreenReads += 1;
      return read.apply(this, args);
    };
  }
})();"""
PIXELS = """(points) => {
  const c = document.getElementById("viz3d");
  const gl = c.getContext("webgl2") || c.getContext("webgl");
  const dpr = window.devicePixelRatio || 1;
  const px = new Uint8Array(4);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  return points.map(([sx, sy]) => {
    gl.readPixels(Math.round(sx * dpr), c.height - 1 - Math.round(sy * dpr), 1, 1,
                  gl.RGBA, gl.UNSIGNED_BYTE, px);
    return [px[0], px[1], px[2]];
  });
}"""
DRAG = """([x, y, moves]) => {
  const c = document.getElementById("viz3d");
  const r = c.getBoundingClientRect();
  const fire = (type, px) => c.dispatchEvent(new PointerEvent(type, {
    pointerId: 7, isPrimary: true, bubbles: true, button: 0,
    clientX: r.left + px, clientY: r.top + y }));
  const wait = (ms) => { const end = performance.now() + ms; while (performance.now() < end); };
  fire("pointerdown", x);
  let at = x;
  for (const [dx, gap] of moves) { wait(gap); at += dx; fire("pointermove", at); }
  fire("pointerup", at);
  return vs7dbg.camera();
}"""
"""A drag of ``moves`` ([px right, ms after the previous event]) from canvas point (x, y),
dispatched in one task; the camera at release."""
NO_WEBGL2 = """(() => {
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
    return type === "webgl2" ? null : getContext.call(this, type, ...rest);
  };
})();"""
"""A browser without WebGL2 (WebGL1 still there)."""
DRAWN = "window.vs7dbg && vs7dbg.sceneDigest().count > 0 && vs7dbg.frames() > 0"
"""The page has its records (a frame before them is background only)."""
STILL = """new Promise((done) => {
  const end = performance.now() + 5000;
  let last = window.scrollY, since = performance.now();
  const look = () => {
    if (window.scrollY !== last) { last = window.scrollY; since = performance.now(); }
    if (performance.now() - since > 600 || performance.now() > end) done();
    else setTimeout(look, 50);
  };
  look();
})"""
"""Resolves once the page has not scrolled for 600 ms (or after 5 s)."""


@dataclass
class Field:
    """The module's one page over the synced golden."""

    page: Any
    vendor: MeridianV3Mock
    viz: dict
    basis: dict
    cols: list[Column]
    session: BrowserSession
    base: str

    def js(self, expression: str, arg: Any = None) -> Any:
        return self.page.evaluate(expression, arg)

    def counters(self) -> dict:
        return self.js(
            "({...window.__vizgolden, brushEvents: window.__vizgolden.brushEvents.length,"
            " frames: vs7dbg.frames()})"
        )

    def pose(self, yaw: float, pitch: float, distance: float) -> Camera:
        self.js("([y, p, d]) => vs7dbg.setCamera(y, p, d)", [yaw, pitch, distance])
        w, h = self.js(
            "(() => { const c = document.getElementById('viz3d');"
            " return [c.clientWidth, c.clientHeight]; })()"
        )
        return Camera(yaw, pitch, distance, w, h)

    def pixels(self, points: list[tuple[float, float]]) -> list[list[int]]:
        return self.js(PIXELS, [list(p) for p in points])

    def page_point(self, sx: float, sy: float) -> tuple[float, float]:
        box = self.js(
            "(() => { const r = document.getElementById('viz3d').getBoundingClientRect();"
            " return [r.left, r.top]; })()"
        )
        return box[0] + sx, box[1] + sy

    def click(self, sx: float, sy: float, record: str | None = None) -> None:
        """A real click at canvas point (sx, sy), the canvas scrolled into view first. A
        click on ``record`` moves the table to its page (a search through the API, then a
        scroll): wait for its row, then until the page stops scrolling."""
        self.js("document.getElementById('viz3d').scrollIntoView({block: 'center'})")
        self.page.mouse.click(*self.page_point(sx, sy))
        if record is not None:
            self.page.wait_for_selector(f'#rows tr[data-id="{record}"]', timeout=60_000)
            self.js(STILL)

    def fronts(
        self, cam: Camera, want: int, stride: int = 53
    ) -> list[tuple[Column, tuple[float, float]]]:
        """Up to ``want`` columns whose top centre is the front surface at its pixel."""
        found = []
        for col in self.cols[::stride]:
            anchor = cam.project(col.x, col.h, col.z)
            if anchor is None or not (2 <= anchor[0] < cam.w - 2 and 2 <= anchor[1] < cam.h - 2):
                continue
            if cam.nearest(*pixel_centre(*anchor), self.cols) == col.n:
                found.append((col, anchor))
            if len(found) == want:
                break
        return found


def _close(a: list[int], b: tuple[int, ...]) -> bool:
    return all(abs(x - y) <= TOLERANCE for x, y in zip(a, b, strict=True))


@pytest.fixture(scope="module")
def field(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Field]:
    vendor = MeridianV3Mock(0, timing=V3Timing(retry_after_secs=0.5, create_hold_secs=1.0))
    vendor.start()
    golden = Golden(tmp_path_factory.mktemp("sb7-vizgolden"), vendor.base_url)
    try:
        golden.notifierd.start()
        golden.ledgerd.start()
        eventually(lambda: golden.ledgerd.get("/api/health").body["last_sync"], 180, "first sync")
        assert vendor.wait_deliveries(30)
        viz = golden.ledgerd.get("/api/viz/records").body
        basis, cols = columns(viz)
        with BrowserSession(artifacts=tmp_path_factory.mktemp("sb7-vizgolden-shots")) as session:
            with session.scenario("field") as scenario:
                scenario.page.add_init_script(script=WRAPPER)
                scenario.goto(golden.ledgerd.base + "/")
                scenario.page.wait_for_function(
                    "window.vs7dbg && vs7dbg.sceneDigest().count > 0 && vs7dbg.frames() > 0",
                    timeout=60_000,
                )
                yield Field(scenario.page, vendor, viz, basis, cols, session, golden.ledgerd.base)
            assert not scenario.observation.page_errors, scenario.observation.page_errors
            assert not scenario.observation.console_errors, scenario.observation.console_errors
    finally:
        golden.close()
        vendor.stop()


def test_it_draws_on_viz3d_with_the_pinned_context_and_a_device_sized_buffer(field: Field) -> None:
    assert field.js("window.__vizgolden.attrs") == {"antialias": False, "alpha": False}
    contexts = field.js("window.__benchwright__.snapshot().contexts")
    assert [c["canvas"] for c in contexts] == ["viz3d"]
    size = field.js(
        "(() => { const c = document.getElementById('viz3d'); return [c.width, c.height,"
        " c.clientWidth, c.clientHeight, devicePixelRatio]; })()"
    )
    assert size[:2] == [round(size[2] * size[4]), round(size[3] * size[4])]
    cam = field.pose(30, 40, 260)
    corners = field.pixels([(3, 3), (cam.w - 4, 3), (3, cam.h - 4), (cam.w - 4, cam.h - 4)])
    assert all(_close(p, BACKGROUND) for p in corners), corners
    grid = field.pixels(
        [(cam.w * (i + 0.5) / 24, cam.h * (j + 0.5) / 12) for i in range(24) for j in range(12)]
    )
    assert len({tuple(p) for p in grid if not _close(p, BACKGROUND)}) >= 2


def test_layout_and_digest_are_the_python_recompute(field: Field) -> None:
    assert field.js("vs7dbg.layout()") == field.basis
    got, want = field.js("vs7dbg.sceneDigest()"), digest(field.cols)
    assert got["count"] == want["count"] == field.viz["count"]
    for key in ("Sh", "Sh2", "Sx", "Sz", "Sxh", "Szh"):
        assert abs(got[key] - want[key]) <= max(0.5, 1e-4 * abs(want[key])) / 100, key
    assert got["brushedCount"] == 0


def test_at_rest_nothing_is_drawn(field: Field) -> None:
    field.pose(30, 40, 260)
    before = field.counters()
    frames = field.js("vs7dbg.frames()")
    field.page.wait_for_timeout(1200)
    after = field.counters()
    assert after["defaultDraws"] == before["defaultDraws"]
    assert after["offscreenDraws"] == before["offscreenDraws"]
    assert field.js("vs7dbg.frames()") == frames


def _assert_picks_are_the_front_column(field: Field, pose: tuple[float, float, float]) -> None:
    """pick, pickPixel and the analytic ray agree on a 7 x 5 grid of points at ``pose``."""
    cam = field.pose(*pose)
    points = [(cam.w * (i + 0.5) / 7, cam.h * (j + 0.5) / 5) for i in range(7) for j in range(5)]
    answers = field.js(
        "(ps) => ps.map(([x, y]) => [vs7dbg.pick(x, y), vs7dbg.pickPixel(x, y)])", points
    )
    for (sx, sy), (picked, raw) in zip(points, answers, strict=True):
        want = cam.nearest(*pixel_centre(sx, sy), field.cols)
        decoded = raw[0] + 256 * raw[1] + 65536 * raw[2]
        assert decoded == (0 if want is None else want + 1), (pose, sx, sy)
        assert picked == (None if want is None else {"id": field.cols[want].id, "index": want})


def test_picks_are_the_analytic_front_column_and_match_the_raw_pixel(field: Field) -> None:
    for pose in ((30, 40, 60), (200, 12, 40)):
        _assert_picks_are_the_front_column(field, pose)


def test_a_pick_after_a_move_draws_offscreen_and_reads_back_never_on_the_canvas(
    field: Field,
) -> None:
    field.pose(50, 30, 90)
    before = field.counters()
    field.pose(55, 30, 90)  # the move; its frame re-culls the labels through a fresh pick pass
    moved = field.counters()
    field.js("vs7dbg.pick(100, 100)")
    after = field.counters()
    assert 1 <= after["offscreenDraws"] - before["offscreenDraws"] <= 4
    assert after["offscreenReads"] > before["offscreenReads"]
    assert after["defaultDraws"] == moved["defaultDraws"]


def test_tops_show_their_status_colour_at_a_close_pose(field: Field) -> None:
    cam = field.pose(30, 60, 40)
    fronts = field.fronts(cam, 12)
    assert len(fronts) >= 6
    got = field.pixels([anchor for _col, anchor in fronts])
    for (col, _anchor), pixel in zip(fronts, got, strict=True):
        assert _close(pixel, TOP[col.status]), (col, pixel)
    assert {col.status for col, _ in fronts} >= {"settled", "pending"}


def test_labels_are_the_greedy_cull_through_the_pick_buffer(field: Field) -> None:
    for pose in ((30, 40, 260), (10, 25, 120)):
        cam = field.pose(*pose)
        want = expected_labels(cam, field.cols)
        shown = field.js(
            """(() => { const c = document.getElementById('viz3d').getBoundingClientRect();
               return [...document.querySelectorAll('#viz-labels .viz-label')]
                 .filter((e) => !e.hidden && e.offsetParent !== null)
                 .map((e) => { const r = e.getBoundingClientRect();
                   return [e.dataset.id, r.left - c.left, r.top - c.top, r.width, r.height,
                           e.textContent]; }); })()"""
        )
        assert {s[0] for s in shown} == set(want), pose
        assert want, pose
        for label_id, left, top, width, height, _text in shown:
            assert (width, height) == (110, 18)
            assert abs(left - want[label_id][0]) <= 2 and abs(top - want[label_id][1]) <= 2


def test_a_drag_draws_at_most_8_per_frame_and_frames_count_the_draws(field: Field) -> None:
    cam = field.pose(30, 40, 260)
    x, y = field.page_point(cam.w / 2, cam.h / 2)
    field.page.mouse.move(x, y)
    field.page.mouse.down()
    before = field.counters()
    for step in range(1, 41):
        field.page.mouse.move(x + 2 * step, y + (step % 3))
        time.sleep(0.01)
    field.page.mouse.up()
    field.js("new Promise((done) => requestAnimationFrame(() => done()))")
    after = field.counters()  # one read: the release may start a coast that keeps drawing
    drawn, frames = (
        after["defaultDraws"] - before["defaultDraws"],
        after["frames"] - before["frames"],
    )
    assert frames >= 1 and drawn == frames
    assert drawn <= 8 * max(frames, 1) and drawn <= 8 * (40 + 8)
    yaw = field.js("vs7dbg.camera()")["yaw"]
    assert yaw < 30  # dragged right: yaw goes down (it may still be coasting)


def test_the_coast_follows_the_closed_form_and_a_slow_release_does_not_coast(field: Field) -> None:
    """The drags are dispatched in one page task with busy waits between the moves, so
    their spacing is exact however long the host takes to draw a frame."""
    cam = field.pose(30, 40, 260)
    released = field.js(DRAG, [cam.w / 3, cam.h / 2, [[60, 40]] * 8])
    assert abs(released["yaw"] - (30 - 0.3 * 480)) < 1e-6
    assert -450 <= released["vyaw"] <= -10  # 1500 px/s at most: a busy host spaces moves out
    samples = []
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        now = field.js("vs7dbg.camera()")
        if now["vyaw"] == 0 and now["vpitch"] == 0:
            break
        samples.append(now)
        time.sleep(0.05)
    rest = field.js("vs7dbg.camera()")
    assert rest["vyaw"] == 0 and released["yaw"] - rest["yaw"] >= 3
    assert abs(rest["yaw"] - (released["yaw"] + released["vyaw"] * 0.4)) <= 1.0
    for s in samples:
        assert abs((rest["yaw"] - s["yaw"]) - s["vyaw"] * 0.4) <= max(
            1.0, 0.15 * abs(s["vyaw"] * 0.4)
        )

    released = field.js(DRAG, [cam.w / 3, cam.h / 2, [[20, 30]] * 4 + [[0.1, 100], [0.1, 100]]])
    assert abs(released["vyaw"]) < 2
    field.page.wait_for_timeout(400)
    assert abs(field.js("vs7dbg.camera()")["yaw"] - released["yaw"]) <= 0.5


def test_clicks_and_table_events_share_one_brush_that_dims_the_rest(field: Field) -> None:
    cam = field.pose(30, 60, 40)
    fronts = field.fronts(cam, 4)
    (target, anchor), (other, other_anchor) = fronts[0], fronts[1]
    events0 = field.js("window.__vizgolden.brushEvents.length")
    uploads0 = field.counters()
    field.click(*anchor, target.id)
    eventually(lambda: field.js("vs7dbg.brush()") == [target.id], 10, "field click brushes")
    uploads1 = field.counters()
    assert uploads1["uploads"] - uploads0["uploads"] <= STRIDE_PLUS_SLACK
    assert uploads1["reallocs"] == uploads0["reallocs"]
    event = field.js("window.__vizgolden.brushEvents.at(-1)")
    assert event == {"ids": [target.id], "toggled": target.id, "source": "field"}
    assert field.js("window.__vizgolden.brushEvents.length") == events0 + 1
    eventually(lambda: _close(field.pixels([anchor])[0], TOP[target.status]), 10, "brushed keeps")
    dim = tuple(round(0.3 * c) for c in TOP[other.status])
    eventually(lambda: _close(field.pixels([other_anchor])[0], dim), 10, "the rest dims")
    assert field.js("vs7dbg.sceneDigest()")["brushedCount"] == 1

    field.js(
        "(id) => document.dispatchEvent(new CustomEvent('vs7:brush-toggle', {detail: {id}}))",
        other.id,
    )
    assert field.js("vs7dbg.brush()") == sorted([target.id, other.id])
    assert field.js("window.__vizgolden.brushEvents.at(-1)")["source"] == "table"
    field.click(*anchor, target.id)
    eventually(lambda: field.js("vs7dbg.brush()") == [other.id], 10, "a second click unbrushes")
    background = next(
        (sx, sy) for sx in (5, 15, 25) for sy in (5, 15, 25)
        if cam.nearest(*pixel_centre(sx, sy), field.cols) is None
    )  # fmt: skip
    for _attempt in range(3):  # the table's late scroll to the record may eat a click
        field.click(*background)
        if field.js("vs7dbg.brush()") == []:
            break
    assert field.js("vs7dbg.brush()") == []
    assert field.js("window.__vizgolden.brushEvents.at(-1)")["source"] == "clear"
    eventually(lambda: _close(field.pixels([other_anchor])[0], TOP[other.status]), 10, "undimmed")


def test_a_vendor_change_arrives_as_a_one_record_diff(field: Field) -> None:
    cam = field.pose(30, 60, 40)
    col, anchor = next((c, a) for c, a in field.fronts(cam, 20) if c.status != "failed")
    before = field.counters()
    digest0 = field.js("vs7dbg.sceneDigest()")
    field.vendor.commit_mutation(col.id, status="failed")
    assert field.vendor.wait_deliveries(30)
    eventually(lambda: _close(field.pixels([anchor])[0], TOP["failed"]), 20, "the new colour")
    after = field.counters()
    assert 0 < after["uploads"] - before["uploads"] <= STRIDE_PLUS_SLACK
    assert after["reallocs"] == before["reallocs"]
    assert field.js("vs7dbg.sceneDigest()") == digest0
    assert field.js("vs7dbg.layout()") == field.basis


def test_on_plain_webgl_it_draws_instanced_and_picks_through_its_own_pass(field: Field) -> None:
    """Where ``webgl2`` is missing: ANGLE_instanced_arrays, the visible draw and a separate
    pick pass, two instanced draws for a moved frame with its labels, the same picks."""
    with field.session.scenario("webgl1") as scenario:
        scenario.page.add_init_script(script=WRAPPER + NO_WEBGL2)
        scenario.goto(field.base + "/")
        scenario.page.wait_for_function(
            "window.vs7dbg && vs7dbg.sceneDigest().count > 0 && vs7dbg.frames() > 0", timeout=60_000
        )
        plain = Field(
            scenario.page,
            *[getattr(field, k) for k in ("vendor", "viz", "basis", "cols", "session", "base")],
        )
        calls = "window.__benchwright__.snapshot().contexts[0].calls"
        assert plain.js("window.__benchwright__.snapshot().contexts[0].kind") == "webgl"
        plain.pose(30, 40, 60)
        before = plain.js(calls)
        plain.pose(31, 40, 60)
        after = plain.js(calls)
        assert after == {
            **before,
            "drawElementsInstancedANGLE": before["drawElementsInstancedANGLE"] + 2,
        }
        _assert_picks_are_the_front_column(plain, (200, 12, 40))
        fronts = plain.fronts(plain.pose(30, 60, 40), 6)
        got = plain.pixels([anchor for _col, anchor in fronts])
        now = plain.js("fetch('/api/viz/records').then((r) => r.json())")  # after the stream test
        status = dict(zip(now["id"], now["status"], strict=True))
        assert all(
            _close(px, TOP[status[col.id]]) for (col, _), px in zip(fronts, got, strict=True)
        )
    assert not scenario.observation.page_errors
    assert not scenario.observation.console_errors, scenario.observation.console_errors


def test_without_webgl_the_panel_says_so_and_the_brush_still_answers(field: Field) -> None:
    with field.session.scenario("nogl", Instrumentation(disable_webgl=True)) as scenario:
        page = scenario.page
        scenario.goto(field.base + "/")
        page.wait_for_function("window.vs7dbg !== undefined")
        page.wait_for_selector("#viz-status", state="visible")
        assert "not available" in page.inner_text("#viz-status")
        assert page.is_hidden("#viz3d")
        page.evaluate("""(id) => { window.seen = [];
              document.addEventListener('vs7:brush', (e) => window.seen.push(e.detail));
              document.dispatchEvent(new CustomEvent('vs7:brush-toggle', {detail: {id}})); }""",
                      field.cols[0].id)  # fmt: skip
        assert page.evaluate("vs7dbg.brush()") == [field.cols[0].id]
        assert page.evaluate("window.seen")[-1]["ids"] == [field.cols[0].id]
        page.wait_for_function("vs7dbg.sceneDigest().count > 0")
        assert page.evaluate("vs7dbg.sceneDigest().brushedCount") == 1
    assert not scenario.observation.page_errors
    assert not scenario.observation.console_errors, scenario.observation.console_errors
