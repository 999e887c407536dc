"""The ``viz`` scenario's coast section (spec §8.4's inertia, rows t_coast_identity and
t_coast_reality): a fast flick and a slow drag, each released and watched until the field
rests.

The page's own clock decides everything: the release's rate is the last two pointermoves'
``event.timeStamp``s (as the spec's page computes it), the coast's samples are
``vs7dbg.camera()`` read as each frame begins (the GL wrapper's ``watch``: the pose that
frame draws, at the time it is drawn), and the pixels are read with ``camera()`` in one
evaluation between frames, so that a pose and an image always belong together. Under a
software GPU a frame takes a large part of a second and a pointermove waits for it, so
the flick's last step is sized from the gap the page measured between the moves before
it: the rate aimed at is `FLICK_PX_S`, whatever the host's frame time.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from benchwright.suites.kit.browser.reads import PageReads
from benchwright.suites.sb7.viz import _js as JS
from benchwright.suites.sb7.viz.view import CoastFrame, CoastRun, Release, Spot

if TYPE_CHECKING:
    from benchwright.probes.browser import Scenario

Where = Callable[[], tuple[float, float, float, float]]
"""The canvas's viewport centre and CSS size, the canvas scrolled into view."""
Free = Callable[[tuple[float, float]], tuple[float, float]]
"""A viewport point near the one asked for where the canvas itself takes the input."""

POSE = (30.0, 40.0, 80.0)
"""Set before the flick: close enough that columns are several pixels wide (a spot-check
then tells one pose from another), far enough that the whole field is in front of the eye."""
GRID = (20, 8)
"""The spot-check points: this grid over the canvas (columns, rows)."""
FLICK_LEAD_PX, FLICK_PX_S, FLICK_MIN_GAP_MS = 12, 800.0, 40
"""Lead moves, then one step sized to `FLICK_PX_S` over the gap the page measured between
two of them (the last pair at least 40 ms apart: the spec promises 30): §8.4's fast flick
is 600 px/s."""
FLICK_MIN_PX, FLICK_SPAN = 60, 0.75
"""The flick's step: at least this many pixels, at most this share of the canvas width."""
FLICK_TRIES, FLICK_RETRY_PX_S = 2, 650.0
"""A flick released under this rate (the spec's 600 with margin) is made once more."""
SLOW_LEAD_PX, SLOW_LAST_PX, SLOW_GAP_MS = 20, 1, 700
"""The slow drag: two lead moves, then a 1 px move 700 ms later (under 1.5 px/s; §8.4
says a release slower than 6 px/s must not coast)."""
REST_S, QUIET_MS, SPOT_MS, REST_SPEED = 4.0, 500.0, 30, 2.0
"""Bound on a coast ending (the spec caps one at 2.5 s); a camera() that stood still for
`QUIET_MS` of the page's clock, its speeds under `REST_SPEED`, rests (an idle drawing
loop is p_idle_flatness's to grade, not the coast's); the pause between two spot reads."""

_CAM = """const cam = () => { const d = window.vs7dbg;
  try { return d && typeof d.camera === "function" ? d.camera() : null; }
  catch (e) { return null; } };"""

ARM = (
    "() => {"
    + _CAM
    + """
  const R = { moves: [], up: null, release: null, frames: [] };
  window.__sb7coast__ = R;
  if (!window.__sb7coastOn__) {
    window.__sb7coastOn__ = true;
    const at = () => window.__sb7coast__;
    addEventListener("pointermove", (e) => { const r = at();
      if (r) { r.moves.push([e.timeStamp, e.clientX]); r.moves = r.moves.slice(-2); } }, true);
    addEventListener("pointerup", () => { const r = at();
      if (r && r.up === null) r.up = performance.now(); }, true);
    addEventListener("pointerup", () => { const r = at();
      if (r && r.release === null) r.release = { camera: cam() }; });
  }
  window.__sb7viz__.watch(() => {
    if (R.up !== null && R.frames.length < 400) R.frames.push([performance.now(), cam()]);
  });
  return true;
}"""
)
"""A fresh recorder: the last two pointermoves (page timestamp, x), the pointerup's page
time (capture phase: before the app's handler), ``camera()`` after the app handled it
(bubble phase), and ``camera()`` as each frame after the pointerup begins."""

MOVES = "() => JSON.stringify(window.__sb7coast__.moves)"
"""The last two pointermoves so far."""

READ = """() => {
  window.__sb7viz__.watch(null);
  const r = window.__sb7coast__;
  window.__sb7coast__ = null;
  return JSON.stringify(r);
}"""
"""The recorder's record, the recording stopped."""

SPOT = (
    "(points) => {"
    + _CAM
    + """
  const r = devicePixelRatio;
  const shown = window.__sb7viz__.pixels(points.map(([x, y]) => [Math.round(x * r),
                                                                  Math.round(y * r)]));
  return JSON.stringify({ t: performance.now(), camera: cam(), pixels: shown });
}"""
)
"""``camera()`` and the visible pixels at CSS ``points``, at one instant."""


def observe(run: PageReads, sc: Scenario, where: Where, free: Free) -> CoastRun:
    """The flick from `POSE` (set by ``vs7dbg.setCamera``: the flick runs from wherever
    the camera is when the page has none), then the slow drag."""
    x, y, w, h = where()
    run.js(JS.INVALIDATE, list(POSE))
    run.poll(JS.SETTLE, timeout_s=REST_S)
    cols, rows = GRID
    grid = tuple((round((i + 0.5) * w / cols), round((j + 0.5) * h / rows))
                 for j in range(rows) for i in range(cols))  # fmt: skip
    flick = _flick(run, sc, free((x - 0.42 * w, y)), w, grid)
    slow = _slow(run, sc, free((x - 0.1 * w, y + 0.2 * h)))
    return CoastRun((w, h), grid, flick, slow)


def _press(run: PageReads, sc: Scenario, start: tuple[float, float]) -> None:
    run.js(ARM)
    sc.page.mouse.move(*start)
    sc.page.mouse.down()


def _flick(
    run: PageReads, sc: Scenario, start: tuple[float, float], w: float,
    grid: tuple[tuple[int, int], ...],
) -> Release:  # fmt: skip
    """A flick, and (at most `FLICK_TRIES` times) again with its step scaled by how far its
    release fell short of `FLICK_PX_S`: the host's frame time varies from move to move."""
    got = _one_flick(run, sc, start, w, grid, None)
    for _ in range(FLICK_TRIES - 1):
        if got.px_per_s >= FLICK_RETRY_PX_S or got.px_per_s <= 0:
            break
        got = _one_flick(run, sc, start, w, grid, abs(got.dx_px) * FLICK_PX_S / got.px_per_s)
    return got


def _one_flick(
    run: PageReads, sc: Scenario, start: tuple[float, float], w: float,
    grid: tuple[tuple[int, int], ...], step: float | None,
) -> Release:  # fmt: skip
    """Three lead moves, then ``step`` pixels (None: the step that makes `FLICK_PX_S` over
    the gap the page measured between the first two; the third keeps that read out of
    the last gap)."""
    _press(run, sc, start)
    for i in (1, 2):
        sc.page.mouse.move(start[0] + FLICK_LEAD_PX * i, start[1])
    if step is None:
        moves = run.js(MOVES)
        gap = max(moves[-1][0] - moves[-2][0] if len(moves) == 2 else 0.0, FLICK_MIN_GAP_MS)
        step = FLICK_PX_S * (gap + FLICK_MIN_GAP_MS) / 1000
    sc.page.mouse.move(start[0] + FLICK_LEAD_PX * 3, start[1])
    run.wait(FLICK_MIN_GAP_MS)
    step = min(max(step, FLICK_MIN_PX), FLICK_SPAN * w)
    sc.page.mouse.move(start[0] + FLICK_LEAD_PX * 3 + step, start[1])
    return _let_go(run, sc, grid)


def _slow(run: PageReads, sc: Scenario, start: tuple[float, float]) -> Release:
    _press(run, sc, start)
    for i in (1, 2):
        sc.page.mouse.move(start[0] + SLOW_LEAD_PX * i, start[1])
        run.wait(FLICK_MIN_GAP_MS)
    run.wait(SLOW_GAP_MS)
    sc.page.mouse.move(start[0] + 2 * SLOW_LEAD_PX + SLOW_LAST_PX, start[1])
    return _let_go(run, sc, ())


def _let_go(run: PageReads, sc: Scenario, grid: tuple[tuple[int, int], ...]) -> Release:
    """Release, then read spots (kept when the pose changed) until the field rests, one
    more at rest, and the recorder."""
    sc.page.mouse.up()
    spots: list[Spot] = []
    quiet: tuple[float, Any] | None = None  # (page time, camera()) when the pose last moved
    rested, deadline = False, time.monotonic() + REST_S
    while time.monotonic() < deadline:
        read = run.js(SPOT, [list(p) for p in grid])
        if not spots or read["camera"] != spots[-1].camera:
            spots.append(_spot(read))
        if quiet is None or read["camera"] != quiet[1] or _coasting(read["camera"]):
            quiet = (read["t"], read["camera"])
        elif read["t"] - quiet[0] >= QUIET_MS:
            rested = True
            break
        run.wait(SPOT_MS)
    last = _spot(run.js(SPOT, [list(p) for p in grid]))
    got = run.js(READ)
    (t1, x1), (t2, x2) = got["moves"] if len(got["moves"]) == 2 else ((0.0, 0.0), (0.0, 0.0))
    frames = tuple(CoastFrame(float(t), c) for t, c in got["frames"])
    release = (got.get("release") or {}).get("camera")
    return Release(x2 - x1, t2 - t1, float(got["up"] or 0.0), release, frames, rested,
                   last.camera, (*spots, last) if grid else ())  # fmt: skip


def _coasting(cam: Mapping[str, Any] | None) -> bool:
    """camera() says it still moves (§8.4: a coast stops under 2 deg/s on both axes): a
    pose that held between two slow frames is no rest."""
    speeds = [(cam or {}).get(k) for k in ("vyaw", "vpitch")]
    return any(isinstance(v, int | float) and abs(v) >= REST_SPEED for v in speeds)


def _spot(read: Mapping[str, Any]) -> Spot:
    shown = read.get("pixels")
    pixels = tuple(tuple(int(c) for c in px[:3]) for px in shown) if shown else None
    return Spot(float(read["t"]), read.get("camera"), pixels)  # type: ignore[arg-type]
