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
import json
import math
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchwright.probes.browser import (
    BrowserSession,
    Instrumentation,
    ScenarioObservation,
    WebGLContext,
)
from benchwright.suites.vspro.browser import camera as C

if TYPE_CHECKING:
    from benchwright.probes.browser import Scenario
    from benchwright.suites.vspro.context import GradeContext

ROWS = "tbody tr"
WAIT_S = 10.0
"""Bound on each page-side read; a read that runs into it loses its section."""
WHEEL_DELTA = 400
DRAG_MOVES, DRAG_STEP_PX, DRAG_GAP_MS = 60, 2, 16
MAX_PICKS, MAX_SPOTS, MAX_VSDBG_PICKS = 5, 6, 4


@dataclass(frozen=True)
class Framebuffer:
    """One ``readPixels`` of the default framebuffer, RGB rows top-down."""

    width: int
    height: int
    css_width: float
    css_height: float
    rgb: bytes = field(repr=False)

    def pixel(self, bx: int, by: int) -> tuple[int, int, int]:
        bx, by = min(self.width - 1, max(0, bx)), min(self.height - 1, max(0, by))
        o = (by * self.width + bx) * 3
        return self.rgb[o], self.rgb[o + 1], self.rgb[o + 2]

    def backing(self, sx: float, sy: float) -> tuple[int, int]:
        """The backing-store pixel under CSS point ``(sx, sy)`` of the canvas."""
        return (math.floor(sx * self.width / self.css_width),
                math.floor(sy * self.height / self.css_height))  # fmt: skip

    def differing(self, other: Framebuffer, tol: int = 8) -> float:
        """Fraction of pixels whose colour moved by more than ``tol`` on some channel."""
        if (self.width, self.height) != (other.width, other.height):
            return 1.0
        a, b, n = self.rgb, other.rgb, self.width * self.height
        step = max(1, n // 20000)  # a strided census is plenty to tell still from moved
        seen = moved = 0
        for p in range(0, n, step):
            o = p * 3
            seen += 1
            moved += any(abs(a[o + k] - b[o + k]) > tol for k in range(3))
        return moved / seen


@dataclass(frozen=True)
class CanvasFacts:
    found: bool
    """An element ``#viz3d`` exists (and is a canvas)."""
    context_kind: str | None = None
    """The WebGL context on ``#viz3d`` (``webgl``/``webgl2``), None when it has none."""
    requested_attrs: Mapping[str, Any] | None = None
    """The attributes the app asked for (the probe adds preserveDrawingBuffer to read back)."""
    css_width: float = 0.0
    css_height: float = 0.0
    left: float = 0.0
    top: float = 0.0
    backing_width: int = 0
    backing_height: int = 0
    dpr: float = 1.0
    in_view: bool = False
    """The whole canvas was inside the viewport after scrolling it into view."""


@dataclass(frozen=True)
class VsdbgSnapshot:
    """``window.vsdbg``'s answers, verbatim (values the app returned, or ``{"error": ...}``)."""

    present: bool
    version: Any = None
    scene: Any = None
    camera: Any = None
    frames: Any = None
    projections: tuple[tuple[C.Vec, Any], ...] = ()
    """(world point, ``project(x, y, z)``) at the default camera."""
    picks: tuple[tuple[tuple[float, float], Any], ...] = ()
    """(CSS point, ``pick(sx, sy)``) at the default camera."""


@dataclass(frozen=True)
class TooltipProbe:
    sx: float
    sy: float
    """Where the pointer hovered (canvas CSS px, default camera)."""
    appeared: bool
    text: str | None
    latency_ms: float | None
    """Page clock: pointermove listener stamp to the stamp of the tooltip becoming visible."""
    hidden_after_leave: bool


@dataclass(frozen=True)
class PickProbe:
    sx: float
    sy: float
    data_value: str | None
    """``#status-filter``'s ``data-value`` after the click (None: no such attribute)."""
    row_statuses: tuple[str, ...]
    """Status cell (3rd column) of each visible payments row, lowercased."""
    total: int | None
    """TOTAL of the 'showing X-Y of TOTAL' readout, or None."""


@dataclass(frozen=True)
class CameraProbe:
    """Wheel, double-click, drag and double-click again, in that order (canvas centre)."""

    top_before: float
    top_after_wheel: float
    scroll_before: float
    scroll_after_wheel: float
    camera_after_wheel: Any
    after_wheel: Framebuffer | None
    camera_after_first_reset: Any
    mid_drag: Framebuffer | None
    after_drag: Framebuffer | None
    camera_after_drag: Any
    frames_before: Any
    frames_after: Any
    draws_before: int
    draws_after: int
    idle_frames: Any
    """vsdbg frames counted over an idle 500 ms before the drag (evidence only)."""
    drag_ms: float
    after_reset: Framebuffer | None
    camera_after_reset: Any
    wheel_delta: float = WHEEL_DELTA
    drag_dx: float = DRAG_MOVES * DRAG_STEP_PX


@dataclass(frozen=True)
class ToggleProbe:
    present: bool
    """A visible ``#viz-toggle``."""
    table_shown: bool
    cells: Mapping[str, str]
    """``day|status`` -> cell text of ``#viz-fallback`` after the click."""
    pressed: str | None
    """``aria-pressed`` after the click."""


@dataclass(frozen=True)
class VizObservation:
    scenario: ScenarioObservation
    canvas: CanvasFacts
    draw_calls: int
    """Draw calls on ``#viz3d``'s context once the first frame settled."""
    baseline: Framebuffer | None
    vsdbg: VsdbgSnapshot | None
    tooltip: TooltipProbe | None
    picks: tuple[PickProbe, ...]
    depth_pick: PickProbe | None
    camera: CameraProbe | None
    toggle: ToggleProbe | None
    notice: str | None
    """A no-WebGL-style notice visible in the panel while 3D runs (should be None)."""
    lost: Mapping[str, str] = field(default_factory=dict)
    """Section -> why the probe lost it (its bound ran out): UNAVAILABLE, not the app's."""
    blocked: str | None = None
    """Why the interaction sections were not run (canvas not fully in view): the app's."""

    @property
    def context(self) -> WebGLContext | None:
        return next((c for c in self.scenario.webgl_contexts if c.canvas_id == "viz3d"), None)

    @property
    def first_draw_ms(self) -> float | None:
        ctx = self.context
        return None if ctx is None else ctx.first_draw_ms


@dataclass(frozen=True)
class VizFallbackObservation:
    scenario: ScenarioObservation
    fallback_shown: bool
    cells: Mapping[str, str]
    notice: str | None
    """Text of the visible in-panel notice matching the no-WebGL wording, or None."""
    payment_rows: int
    lost: Mapping[str, str] = field(default_factory=dict)
    loaded: bool = True
    """The page loaded at all (False: nothing else here was measured; the app's fault)."""


# -- page-side scripts ------------------------------------------------------------------------

_INIT = r"""(() => {
  if (window.__bwviz__) return;
  const rec = { byCanvas: new WeakMap() };
  const WEBGL = /^(experimental-)?webgl2?$/i;
  const original = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (type, attrs, ...rest) {
    if (!WEBGL.test(String(type))) return original.call(this, type, attrs, ...rest);
    const asked = attrs && typeof attrs === "object" ? Object.assign({}, attrs) : {};
    const ctx = original.call(this, type, Object.assign({}, asked, { preserveDrawingBuffer: true }),
                              ...rest);
    if (ctx && !rec.byCanvas.has(this)) rec.byCanvas.set(this, { gl: ctx, asked, type });
    return ctx;
  };
  // Helpers for the probe's reads (each read starts with "const { ... } = window.__bwviz__").
  const draws = () => {
    const s = window.__benchwright__ ? window.__benchwright__.snapshot() : {};
    let n = 0;
    for (const c of s.contexts || []) {
      if (c.canvas === "viz3d") for (const k in c.calls) n += c.calls[k];
    }
    return n;
  };
  const vis = (el) => !!el && (typeof el.checkVisibility !== "function"
    || el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }))
    && el.getClientRects().length > 0 && el.getBoundingClientRect().width > 0;
  const tryit = (f) => {
    try { const v = f(); JSON.stringify(v); return v === undefined ? null : v; }
    catch (e) { return { error: String(e && e.message || e) }; }
  };
  Object.assign(rec, { draws, vis, tryit });
  Object.defineProperty(window, "__bwviz__", { value: rec, enumerable: false });
})();"""

_SETTLE = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const s = window.__bwsettle__ || (window.__bwsettle__ = { n: -1, t: performance.now() });
  const n = draws();
  if (n !== s.n) { s.n = n; s.t = performance.now(); return false; }
  return n > 0 && performance.now() - s.t > 500;
}"""

_READ = r"""(wantPixels) => {
  const { draws, vis, tryit } = window.__bwviz__;
  const cv = document.getElementById("viz3d");
  const out = { found: !!cv && cv instanceof HTMLCanvasElement, draws: draws(),
                scrollY: window.scrollY, innerW: innerWidth, innerH: innerHeight };
  if (!out.found) return JSON.stringify(out);
  const r = cv.getBoundingClientRect();
  Object.assign(out, { left: r.left, top: r.top, w: r.width, h: r.height,
                       bw: cv.width, bh: cv.height, dpr: devicePixelRatio });
  const rec = window.__bwviz__ && window.__bwviz__.byCanvas.get(cv);
  if (rec) { out.kind = /2/.test(rec.type) ? "webgl2" : "webgl"; out.asked = rec.asked; }
  const g = rec && rec.gl;
  if (wantPixels && g && !g.isContextLost()) {
    const W = g.drawingBufferWidth, H = g.drawingBufferHeight, px = new Uint8Array(W * H * 4);
    const prev = g.getParameter(g.FRAMEBUFFER_BINDING);
    g.bindFramebuffer(g.FRAMEBUFFER, null);
    g.readPixels(0, 0, W, H, g.RGBA, g.UNSIGNED_BYTE, px);
    g.bindFramebuffer(g.FRAMEBUFFER, prev);
    const rgb = new Uint8Array(W * H * 3);
    for (let y = 0; y < H; y++) {
      const src = (H - 1 - y) * W * 4, dst = y * W * 3;
      for (let x = 0; x < W; x++) {
        rgb[dst + 3 * x] = px[src + 4 * x]; rgb[dst + 3 * x + 1] = px[src + 4 * x + 1];
        rgb[dst + 3 * x + 2] = px[src + 4 * x + 2];
      }
    }
    let s = "";
    for (let i = 0; i < rgb.length; i += 0x8000)
      s += String.fromCharCode.apply(null, rgb.subarray(i, i + 0x8000));
    out.fb = { w: W, h: H, b64: btoa(s) };
  }
  return JSON.stringify(out);
}"""

_VSDBG = r"""(a) => {
  const { draws, vis, tryit } = window.__bwviz__;
  const d = window.vsdbg;
  if (!d || (typeof d !== "object" && typeof d !== "function"))
    return JSON.stringify({ present: false });
  const call = (name, ...args) => tryit(() => d[name](...args));
  return JSON.stringify({ present: true, version: tryit(() => d.version), scene: call("scene"),
    camera: call("camera"), frames: call("frames"),
    projections: a.points.map((p) => call("project", p[0], p[1], p[2])),
    picks: a.picks.map((p) => call("pick", p[0], p[1])) });
}"""

_VSDBG_NOW = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const d = window.vsdbg;
  return JSON.stringify({ camera: d ? tryit(() => d.camera()) : null,
                          frames: d ? tryit(() => d.frames()) : null, draws: draws() });
}"""

_TIP_ARM = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const w = window.__bwtip__ = { moved: null, shown: null };
  const el = () => document.getElementById("viz-tooltip");
  const shownNow = () => { const t = el(); return vis(t) && t.textContent.trim().length > 0; };
  addEventListener("pointermove", () => {
    if (w.moved === null) w.moved = performance.now();
  }, true);
  const stamp = () => {
    if (w.moved !== null && w.shown === null && shownNow()) w.shown = performance.now();
  };
  new MutationObserver(stamp).observe(document.documentElement,
    { subtree: true, childList: true, attributes: true, characterData: true });
  const frame = () => { stamp(); if (w.shown === null) requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  return JSON.stringify(!shownNow());
}"""

_TIP_SHOWN = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const t = document.getElementById("viz-tooltip");
  return vis(t) && t.textContent.trim().length > 0;
}"""

_TIP_READ = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const t = document.getElementById("viz-tooltip"), w = window.__bwtip__ || {};
  return JSON.stringify({ shown: vis(t) && t.textContent.trim().length > 0,
    text: t ? t.textContent.trim() : null,
    latency: w.moved != null && w.shown != null ? w.shown - w.moved : null });
}"""

_TIP_HIDDEN = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const t = document.getElementById("viz-tooltip");
  return !(vis(t) && t.textContent.trim().length > 0);
}"""

_TABLE = r"""(want) => {
  const { draws, vis, tryit } = window.__bwviz__;
  const f = document.getElementById("status-filter");
  const fb = document.getElementById("viz-fallback");
  const rows = [...document.querySelectorAll("tbody tr")]
    .filter((r) => vis(r) && !(fb && fb.contains(r)) && r.cells.length >= 2);
  const n = "[\\d,.\\s\\u202f]+";
  const m = new RegExp("showing\\s+" + n + "\\s*(?:[-\\u2013\\u2014]|to)\\s*" + n
                       + "\\s+of\\s+([\\d,.\\u202f]+)", "i").exec(document.body.innerText);
  const out = { value: f ? f.getAttribute("data-value") : null,
    statuses: rows.map((r) => (r.cells[2] ? r.cells[2].innerText : "").trim().toLowerCase()),
    total: m ? Number(m[1].replace(/[^\d]/g, "")) : null };
  if (want === null) return JSON.stringify(out);
  const settled = out.value === want && out.statuses.length > 0
    && out.statuses.every((s) => s === want) && out.total !== null;
  return settled ? JSON.stringify(out) : false;
}"""

_NOTICE = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const re = /2d|fallback|unavailable|not\s+supported|webgl/i;
  const ids = ["viz3d", "viz-fallback", "viz-toggle"].map((i) => document.getElementById(i))
    .filter(Boolean);
  if (!ids.length) return JSON.stringify(null);
  let panel = ids[0].parentElement;
  while (panel && !ids.every((e) => panel.contains(e))) panel = panel.parentElement;
  panel = panel || document.body;
  const skip = (el) => el.closest("#viz-fallback, #viz-toggle, script, style");
  for (const el of panel.querySelectorAll("*")) {
    if (skip(el) || !vis(el)) continue;
    const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent)
      .join(" ").trim();
    if (own && own.length <= 300 && re.test(own)) return JSON.stringify(el.innerText.trim());
  }
  return JSON.stringify(null);
}"""

_TOGGLE_AT = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const t = document.getElementById("viz-toggle");
  if (!vis(t)) return JSON.stringify(null);
  t.scrollIntoView({ block: "center" });
  const r = t.getBoundingClientRect();
  return JSON.stringify([r.left + r.width / 2, r.top + r.height / 2]);
}"""

_FALLBACK = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const t = document.getElementById("viz-fallback"), cells = {};
  if (t) for (const c of t.querySelectorAll("[data-day][data-status]"))
    cells[c.getAttribute("data-day") + "|" + c.getAttribute("data-status")] = c.textContent.trim();
  const toggle = document.getElementById("viz-toggle");
  return JSON.stringify({ shown: vis(t) && Object.keys(cells).length > 0, cells,
                          pressed: toggle ? toggle.getAttribute("aria-pressed") : null });
}"""

_FALLBACK_READY = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const t = document.getElementById("viz-fallback");
  return vis(t) && t.querySelectorAll("[data-day][data-status]").length > 0;
}"""

_ROWS = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const fb = document.getElementById("viz-fallback");
  return String([...document.querySelectorAll("tbody tr")]
    .filter((r) => vis(r) && !(fb && fb.contains(r)) && r.cells.length >= 2).length);
}"""


# -- the probes -------------------------------------------------------------------------------


class _Lost(Exception):
    """A page-side read ran into its bound: the section is lost to the probe."""


class _Stop(Exception):
    """Nothing to measure in this section (the app's doing): leave it, lose nothing."""


class _Run:
    """One scenario's page plus the sections it lost; reads are bounded and never judge."""

    def __init__(self, sc: Scenario) -> None:
        self.sc = sc
        self.lost: dict[str, str] = {}

    def js(self, expression: str, arg: Any = None, timeout_s: float = WAIT_S) -> Any:
        """The first truthy value of ``expression(arg)``, JSON-decoded when it is a string."""
        if self.lost:
            raise _Lost("skipped: an earlier section hit its bound (the page may be hung)")
        from playwright.sync_api import Error
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        try:
            handle = self.sc.page.wait_for_function(
                expression, arg=arg, timeout=timeout_s * 1000, polling=50
            )
        except PlaywrightTimeout:
            raise _Lost(f"page-side read exceeded {timeout_s:g} s") from None
        except Error as exc:
            self.sc.session.ensure_alive("reading the 3D panel")
            raise _Lost(f"page-side read failed: {str(exc).splitlines()[0]}") from exc
        try:
            value = handle.json_value()
        finally:
            handle.dispose()
        return json.loads(value) if isinstance(value, str) else value

    def poll(self, expression: str, arg: Any = None, timeout_s: float = 2.0) -> Any:
        """Like `js`, but running out of time is an answer (None), not a lost section."""
        try:
            return self.js(expression, arg, timeout_s)
        except _Lost:
            if self.lost:
                raise
            return None

    @contextmanager
    def section(self, name: str) -> Iterator[None]:
        from playwright.sync_api import Error

        try:
            yield
        except _Stop:
            pass
        except _Lost as why:
            self.lost.setdefault(name, str(why))
        except Error as exc:  # input or screenshot failed; a dead browser raises instead
            self.sc.session.ensure_alive(f"probing the 3D panel ({name})")
            self.lost.setdefault(name, f"{name} failed: {str(exc).splitlines()[0]}")

    def wait(self, ms: float) -> None:
        self.sc.page.wait_for_timeout(ms)


def observe_viz(session: BrowserSession, ctx: GradeContext, shots: Path) -> VizObservation:
    """The normal 3D run against the app at ``ctx.base_url`` (WebGL on).

    Args:
        session: a started `BrowserSession`; the scenario is named ``viz``.
        ctx: the grading context; its mock's fixture buckets aim the clicks.
        shots: where the before/after-drag screenshots of the canvas go.
    """
    bars = C.scene_bars(ctx.mock.fixture.expect.buckets)
    parts: dict[str, Any] = {}
    with session.scenario("viz", Instrumentation(row_selector=ROWS), artifacts=shots) as sc:
        sc.context.add_init_script(script=_INIT)
        run = _Run(sc)
        _drive(run, sc, ctx.base_url, bars, parts)
    return VizObservation(scenario=sc.observation, lost=dict(run.lost), **parts)


def _drive(run: _Run, sc: Scenario, base_url: str, bars: Sequence[C.Bar], parts: dict) -> None:
    parts.update(canvas=CanvasFacts(False), draw_calls=0, baseline=None, vsdbg=None, tooltip=None,
                 picks=(), depth_pick=None, camera=None, toggle=None, notice=None)  # fmt: skip
    if sc.goto(base_url.rstrip("/") + "/") is None:
        parts["blocked"] = "the page did not load"
        return
    sc.wait_for_first_row(timeout_s=WAIT_S)
    _network_idle(sc)  # the buckets have arrived (a page that keeps polling: bounded)
    run.poll(_SETTLE, timeout_s=WAIT_S)  # a first draw, then no new draw for 500 ms
    with run.section("context"):
        run.js("() => { const c = document.getElementById('viz3d');"
               " if (c) c.scrollIntoView({block: 'center'}); return true; }")  # fmt: skip
        run.wait(250)
        read = run.js(_READ, True)
        parts["canvas"] = _canvas(read)
        parts["draw_calls"] = int(read.get("draws") or 0)
        parts["baseline"] = _framebuffer(read)
    with run.section("toggle"):
        parts["notice"] = run.js(_NOTICE)  # while 3D runs: a no-WebGL notice must be absent
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


def _interact(run: _Run, sc: Scenario, bars: Sequence[C.Bar], canvas: CanvasFacts, parts: dict):
    """vsdbg at the default camera, then hover, clicks and the camera, aimed by `camera.py`."""
    w, h = canvas.css_width, canvas.css_height
    tops = [s for s in C.samples(bars, C.DEFAULT_CAMERA, w, h) if s.kind == "top"]
    with run.section("vsdbg"):
        spots = [(b.x, b.h, b.z) for b in _strided(bars, MAX_SPOTS)]
        picks = [(s.sx, s.sy) for s in _strided(tops, MAX_VSDBG_PICKS)]
        got = run.js(_VSDBG, {"points": spots, "picks": picks})
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
        sc.screenshot("viz-after-drag", selector="#viz3d")


def _hover(run, sc, origin, canvas, bars, tops) -> TooltipProbe | None:
    if not tops:
        return None
    by_key = {b.key: b for b in bars}
    w, h = canvas.css_width, canvas.css_height
    target = max(tops, key=lambda s: C.top_area(by_key[s.key], C.DEFAULT_CAMERA, w, h))
    _off_canvas(sc, canvas)
    run.poll(_TIP_HIDDEN, timeout_s=1.0)
    run.js(_TIP_ARM)
    sc.page.mouse.move(origin[0] + target.sx, origin[1] + target.sy)
    run.poll(_TIP_SHOWN, timeout_s=1.5)
    read = run.js(_TIP_READ)
    _off_canvas(sc, canvas)
    hidden = bool(run.poll(_TIP_HIDDEN, timeout_s=1.0))
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
    read = run.poll(_TABLE, aim, timeout_s=1.5) or run.js(_TABLE, None)
    return PickProbe(point[0], point[1], read.get("value"), tuple(read.get("statuses") or ()),
                     read.get("total"))  # fmt: skip


def _camera(run: _Run, sc, origin, w: float, h: float) -> CameraProbe:
    cx, cy = origin[0] + w / 2, origin[1] + h / 2
    mouse = sc.page.mouse
    mouse.move(cx, cy)
    before = run.js(_READ, False)
    mouse.wheel(0, WHEEL_DELTA)
    run.wait(350)
    wheel = run.js(_READ, True)
    wheel_cam = run.js(_VSDBG_NOW)["camera"]
    mouse.dblclick(cx, cy)
    run.wait(350)
    reset1 = run.js(_VSDBG_NOW)["camera"]
    idle0 = run.js(_VSDBG_NOW)
    run.wait(500)
    idle1 = run.js(_VSDBG_NOW)
    mouse.move(cx, cy)
    start = run.js(_VSDBG_NOW)
    began = time.perf_counter()
    mouse.down()
    mid = None
    for step in range(1, DRAG_MOVES + 1):
        mouse.move(cx + DRAG_STEP_PX * step, cy)
        run.wait(DRAG_GAP_MS)
        if step == DRAG_MOVES // 2:
            mid = _framebuffer(run.js(_READ, True))
    mouse.up()
    drag_ms = (time.perf_counter() - began) * 1000
    run.wait(250)
    end = run.js(_VSDBG_NOW)
    after = run.js(_READ, True)
    mouse.dblclick(cx, cy)
    run.wait(350)
    reset = run.js(_READ, True)
    return CameraProbe(
        top_before=float(before["top"]), top_after_wheel=float(wheel["top"]),
        scroll_before=float(before["scrollY"]), scroll_after_wheel=float(wheel["scrollY"]),
        camera_after_wheel=wheel_cam, after_wheel=_framebuffer(wheel),
        camera_after_first_reset=reset1, mid_drag=mid, after_drag=_framebuffer(after),
        camera_after_drag=end["camera"], frames_before=start["frames"],
        frames_after=end["frames"], draws_before=int(start["draws"]),
        draws_after=int(end["draws"]), idle_frames=_delta(idle0["frames"], idle1["frames"]),
        drag_ms=drag_ms, after_reset=_framebuffer(reset),
        camera_after_reset=run.js(_VSDBG_NOW)["camera"],
    )  # fmt: skip


def _toggle(run: _Run, sc) -> ToggleProbe:
    at = run.js(_TOGGLE_AT)
    if not at:
        return ToggleProbe(False, False, {}, None)
    sc.page.mouse.click(*at)  # a real click where the button is; no actionability waits
    run.poll(_FALLBACK_READY, timeout_s=2.0)
    read = run.js(_FALLBACK)
    at = run.js(_TOGGLE_AT)
    if at:
        sc.page.mouse.click(*at)  # back to 3D
        run.wait(200)
    return ToggleProbe(True, bool(read["shown"]), dict(read["cells"]), read.get("pressed"))


def observe_viz_fallback(
    session: BrowserSession, ctx: GradeContext, shots: Path
) -> VizFallbackObservation:
    """The same page with WebGL removed: the table must stand in, with an in-panel notice.

    Args:
        session: a started `BrowserSession`; the scenario is named ``viz_fallback``.
        ctx: the grading context (only its base URL is used).
        shots: where the screenshot of the degraded panel goes.
    """
    instrument = Instrumentation(row_selector=ROWS, disable_webgl=True)
    read: dict[str, Any] = {"shown": False, "cells": {}}
    notice, rows = None, 0
    with session.scenario("viz_fallback", instrument, artifacts=shots) as sc:
        sc.context.add_init_script(script=_INIT)
        run = _Run(sc)
        loaded = sc.goto(ctx.base_url.rstrip("/") + "/") is not None
        if loaded:
            sc.wait_for_first_row(timeout_s=WAIT_S)
            run.poll(_FALLBACK_READY, timeout_s=5.0)
        with run.section("fallback"):
            if not loaded:
                raise _Stop
            run.wait(300)  # let late console errors land
            read = run.js(_FALLBACK)
            notice = run.js(_NOTICE)
            rows = int(run.js(_ROWS))
        if loaded and not run.lost:
            sc.screenshot("viz-fallback", full_page=False)
    return VizFallbackObservation(sc.observation, bool(read["shown"]), dict(read["cells"]),
                                  notice, rows, dict(run.lost), loaded)  # fmt: skip


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
