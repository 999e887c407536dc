"""Tier T (the raw-WebGL 3D panel), plus ``p_first_frame`` and ``e_frames_under_drag``.

Every expectation is recomputed here from the fixture's buckets with the contract's camera
(`browser/camera.py`); the probe's framebuffers, clicks and vsdbg answers are only read.
A browser that was unavailable, a viz scenario that raised, or a section the probe lost to
its bound is UNAVAILABLE (never the app's zero); a canvas that could not be brought into
view, or a page that shows nothing, is the app's FAIL. Rungs: methodology §09.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

from benchwright.model import CheckResult
from benchwright.scoring import Rung, ladder_score
from benchwright.suites.vspro.browser import camera as C
from benchwright.suites.vspro.checks._common import CheckSettings, g, is_int, result, unavailable
from benchwright.suites.vspro.checks._registry import vspro_check
from benchwright.suites.vspro.observations import Observations

TOL = 8
"""Per-channel colour tolerance of a pixel match."""
MAJORITY = 5
"""Of the 3x3 backing pixels around a sample, this many must match."""
SIDE_ACHIEVABLE = 0.75
CLASS_WEIGHTS = {"top": 0.50, "above": 0.25, "side": 0.15, "sky": 0.10}
FIRST_FRAME_RUNGS = (Rung(3000, 1.0), Rung(5000, 0.75), Rung(8000, 0.5), Rung(15000, 0.25))
TOOLTIP_RUNGS = ((150.0, 1.0), (400.0, 0.6), (1200.0, 0.3))
DRAG_RUNG_SCORES = (1.0, 0.75, 0.5, 0.25)
YAW_TOLERANCE = 1.5
PROJECTION_TOLERANCE_PX = 2.0
MOVED_FRACTION = 0.005
"""Mid-drag frame differs from the baseline on at least this share of pixels: it moved."""


# -- the evidence -----------------------------------------------------------------------------


def _view(obs: Observations, check_id: str, key: str, sections: Iterable[str]) -> Any:
    """The scenario's observation, or the UNAVAILABLE row that explains why there is none."""
    phase = obs["browser"]
    if getattr(phase, "unavailable", None):
        return unavailable(check_id, f"browser unavailable: {phase.unavailable}")
    found = phase.scenarios.get(key)
    if found is None:
        why = phase.scenario_errors.get(key, "the scenario did not run")
        return unavailable(check_id, f"{key} probe unavailable: {why}")
    lost = [f"{s}: {found.lost[s]}" for s in sections if s in found.lost]
    if lost:
        return unavailable(check_id, f"{key} probe lost its section ({'; '.join(lost)})")
    return found


def _bars(obs: Observations) -> tuple[C.Bar, ...]:
    return C.scene_bars(obs.expect.buckets)


def _matches(fb: Any, sx: float, sy: float, rgb: Sequence[int]) -> bool:
    """3x3 backing-pixel majority within ``TOL`` per channel."""
    bx, by = fb.backing(sx, sy)
    near = sum(_close(fb.pixel(bx + dx, by + dy), rgb) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
    return near >= MAJORITY


def _close(got: Sequence[int], want: Sequence[int]) -> bool:
    return all(abs(a - b) <= TOL for a, b in zip(got, want, strict=True))


def _tops(fb: Any, bars: Sequence[C.Bar], cam: C.Camera) -> tuple[int, int]:
    """(matched, graded) bar-top samples of ``fb`` against the scene seen from ``cam``."""
    if fb is None:
        return 0, 0
    tops = [s for s in C.samples(bars, cam, fb.css_width, fb.css_height) if s.kind == "top"]
    return sum(_matches(fb, s.sx, s.sy, s.expect) for s in tops), len(tops)


def _cam(answer: Any) -> str:
    if not isinstance(answer, dict):
        return repr(answer)[:60]
    return ", ".join(f"{k} {g(v) if isinstance(v, int | float) else v}" for k, v in answer.items())


# -- T checks ---------------------------------------------------------------------------------


@vspro_check("t_context_real", needs=("browser",))
def t_context_real(obs: Observations, _s: CheckSettings) -> CheckResult:
    """A WebGL context on #viz3d .25 + backing store = rect x DPR (+-1 px) .15 + >=1 draw
    call .15 + a blind 6x4 grid with >=3 non-background pixels in >=2 colours .25 + the four
    3 px-inset corners #0F172A within 8 .20."""
    v = _view(obs, "t_context_real", "viz", ("context",))
    if isinstance(v, CheckResult):
        return v
    cv, ctx, fb = v.canvas, v.context, v.baseline
    if not cv.found:
        return result("t_context_real", 0.0, "0: no canvas#viz3d on the page")
    parts = {"context": ctx is not None}
    want_w, want_h = round(cv.css_width * cv.dpr), round(cv.css_height * cv.dpr)
    parts["backing"] = max(abs(cv.backing_width - want_w), abs(cv.backing_height - want_h)) <= 1
    draws = max(v.draw_calls, ctx.draw_calls if ctx else 0)
    parts["draws"] = draws >= 1
    grid = [] if fb is None else [fb.pixel(*fb.backing((ix + .5) * fb.css_width / 6,
                                                       (iy + .5) * fb.css_height / 4))
                                  for ix in range(6) for iy in range(4)]  # fmt: skip
    lit = [p for p in grid if not _close(p, C.BACKGROUND)]
    parts["grid"] = len(lit) >= 3 and len(set(lit)) >= 2
    corners = [] if fb is None else [
        fb.pixel(*fb.backing(x, y)) for x in (3, fb.css_width - 4) for y in (3, fb.css_height - 4)
    ]  # fmt: skip
    parts["corners"] = len(corners) == 4 and all(_close(p, C.BACKGROUND) for p in corners)
    weights = {"context": 0.25, "backing": 0.15, "draws": 0.15, "grid": 0.25, "corners": 0.20}
    score = sum(w for k, w in weights.items() if parts[k])
    missed = [k for k in weights if not parts[k]]
    detail = (f"{g(score)}: {ctx.kind if ctx else 'no WebGL'} context on #viz3d; backing "
              f"{cv.backing_width}x{cv.backing_height} vs rect {g(cv.css_width)}x"
              f"{g(cv.css_height)} x DPR {g(cv.dpr)}; {draws} draw calls; grid {len(lit)}/24 "
              f"non-background in {len(set(lit))} colours; corners "
              f"{sum(_close(p, C.BACKGROUND) for p in corners)}/4 background"
              + (f"; missed: {', '.join(missed)}" if missed else ""))  # fmt: skip
    return result("t_context_real", score, detail, attrs=cv.requested_attrs)


@vspro_check("t_scene_binding", needs=("browser",))
def t_scene_binding(obs: Observations, _s: CheckSettings) -> CheckResult:
    """Pixels recomputed from the fixture at yaw 35 / pitch 27 / dist 30: tops .50, above-top
    background .25, side faces .15 (/0.75 achievable), sky .10, renormalised over classes
    with samples; 3x3 majority within 8. <3 top colours for >=3 statuses caps at .25;
    phantom bars on an empty scene, zero graded samples, or no bar face drawn at all: 0."""
    v = _view(obs, "t_scene_binding", "viz", ("context",))
    if isinstance(v, CheckResult):
        return v
    bars, fb = _bars(obs), v.baseline
    claimed = _claimed(v.vsdbg)
    if not bars and claimed:
        return result("t_scene_binding", 0.0, f"0: phantom data: the fixture has no bars but "
                      f"vsdbg.scene() claims {len(claimed)}")  # fmt: skip
    if fb is None:
        return result("t_scene_binding", 0.0, "0: no framebuffer to read: #viz3d has no "
                      "WebGL context the probe could read back")  # fmt: skip
    graded = C.samples(bars, C.DEFAULT_CAMERA, fb.css_width, fb.css_height)
    if not graded:
        return result("t_scene_binding", 0.0, "0: zero graded samples on the canvas")
    tally: dict[str, list[int]] = {}
    colours: set[str] = set()
    for s in graded:
        ok = _matches(fb, s.sx, s.sy, s.expect)
        tally.setdefault(s.kind, [0, 0])[0] += ok
        tally[s.kind][1] += 1
        if ok and s.kind == "top" and s.key:
            colours.add(s.key.split("|")[1])
    drawn = tally.get("top", [0])[0] + tally.get("side", [0])[0]
    if not drawn and ("top" in tally or "side" in tally):
        parts = "; ".join(f"{k} {n}/{t}" for k, (n, t) in tally.items())
        return result("t_scene_binding", 0.0, f"0: no bar surface where the data puts one "
                      f"({parts}): the canvas shows no chart of this data")  # fmt: skip
    frac = {k: n / t for k, (n, t) in tally.items()}
    if "side" in frac:
        frac["side"] = min(1.0, frac["side"] / SIDE_ACHIEVABLE)
    total_w = sum(CLASS_WEIGHTS[k] for k in frac)
    score = sum(CLASS_WEIGHTS[k] * f for k, f in frac.items()) / total_w
    statuses = {s.key.split("|")[1] for s in graded if s.kind == "top" and s.key}
    capped = len(statuses) >= 3 and len(colours) < 3 and score > 0.25
    score = 0.25 if capped else score
    parts = "; ".join(f"{k} {tally[k][0]}/{tally[k][1]}" for k in CLASS_WEIGHTS if k in tally)
    detail = (f"{g(score)}: {parts} samples match at yaw 35 pitch 27 dist 30 (3x3 majority "
              f"within {TOL}; sides over {SIDE_ACHIEVABLE} achievable)"
              + (f"; capped at 0.25: only {len(colours)} top colour(s) for {len(statuses)} "
                 "statuses (mono-wash)" if capped else ""))  # fmt: skip
    return result("t_scene_binding", score, detail, tally=tally)


@vspro_check("t_camera", needs=("browser",))
def t_camera(obs: Observations, _s: CheckSettings) -> CheckResult:
    """Wheel 400 reprojects at dist 30*exp(0.48) .20 (0 if the page scrolled) + 120 px drag
    reprojects at yaw -7 .35 (sign-flipped: half) + vsdbg yaw within 1.5 deg of -7 .10 +
    double-click restores the baseline .35 (only if the scene provably moved)."""
    v = _view(obs, "t_camera", "viz", ("context", "camera"))
    if isinstance(v, CheckResult):
        return v
    if v.blocked or v.camera is None:
        return result("t_camera", 0.0, f"0: camera not exercised: {v.blocked or 'no canvas'}")
    c, bars = v.camera, _bars(obs)
    scrolled = abs(c.top_after_wheel - c.top_before) > 1 or abs(
        c.scroll_after_wheel - c.scroll_before) > 1  # fmt: skip
    zoomed = C.after_wheel(C.DEFAULT_CAMERA, c.wheel_delta)
    wn, wt = _tops(c.after_wheel, bars, zoomed)
    wheel = 0.0 if scrolled else (wn / wt if wt else 0.0)
    want = C.after_drag(C.DEFAULT_CAMERA, c.drag_dx, 0)
    dn, dt = _tops(c.after_drag, bars, want)
    flip = C.after_drag(C.DEFAULT_CAMERA, -c.drag_dx, 0)
    fn, ft = _tops(c.after_drag, bars, flip)
    drag_f, flip_f = (dn / dt if dt else 0.0), (fn / ft if ft else 0.0)
    flipped = flip_f > drag_f
    drag = 0.5 * flip_f if flipped else drag_f
    yaw = (c.camera_after_drag or {}).get("yaw") if isinstance(c.camera_after_drag, dict) else None
    yaw_ok = isinstance(yaw, int | float) and C.angle_between(yaw, want.yaw) <= YAW_TOLERANCE
    moved_px = c.mid_drag.differing(v.baseline) if c.mid_drag and v.baseline else 0.0
    moved = moved_px >= MOVED_FRACTION or max(drag_f, flip_f) >= 0.5
    rn, rt = _tops(c.after_reset, bars, C.DEFAULT_CAMERA)
    reset = (rn / rt if rt else 0.0) if moved else 0.0
    score = 0.20 * wheel + 0.35 * drag + 0.10 * yaw_ok + 0.35 * reset
    detail = (
        f"{g(score)}: wheel {wn}/{wt} tops at dist {g(zoomed.distance)}"
        + (" (page scrolled: 0)" if scrolled else "")
        + f"; drag {dn}/{dt} at yaw {g(want.yaw)}"
        + (f" (sign-flipped: {fn}/{ft} at yaw {g(flip.yaw)}, half credit)" if flipped else "")
        + f"; vsdbg camera {_cam(c.camera_after_drag)} (yaw within {YAW_TOLERANCE} deg: "
        f"{'yes' if yaw_ok else 'no'}); reset {rn}/{rt} tops back at the default"
        + ("" if moved else " (unpaid: the scene never provably moved during the drag)")
    )
    return result("t_camera", score, detail, moved_fraction=round(moved_px, 4))


@vspro_check("t_picking", needs=("browser",))
def t_picking(obs: Observations, _s: CheckSettings) -> CheckResult:
    """Up to 5 bar-top clicks: #status-filter data-value = the bar's status, the visible rows
    all that status, and the readout total = the fixture's per-status total (.65 x fraction);
    the depth pair selects the occluding bar (.35; no cross-status occlusion: the fraction)."""
    v = _view(obs, "t_picking", "viz", ("context", "picking"))
    if isinstance(v, CheckResult):
        return v
    if v.blocked:
        return result("t_picking", 0.0, f"0: picking not exercised: {v.blocked}")
    bars, cv = _bars(obs), v.canvas
    w, h = cv.css_width, cv.css_height
    graded = [(p, found.bar) for p in v.picks
              if (found := C.hit(bars, C.DEFAULT_CAMERA, p.sx, p.sy, w, h))]  # fmt: skip
    if not graded:
        return result("t_picking", 0.0, "0: no bar top to click on the canvas")
    ok = [_pick_ok(p, bar.status, obs.expect.by_status) for p, bar in graded]
    fraction = sum(ok) / len(ok)
    pair = _depth(v.depth_pick, bars, w, h)
    if pair is None:
        depth, why = fraction, "no cross-status occlusion on screen: depth term = pick fraction"
    else:
        near, far = pair
        depth = float(_pick_ok(v.depth_pick, near.status, obs.expect.by_status))
        got = v.depth_pick.data_value
        why = (
            f"depth pair {near.key} over {far.key}: "
            f"{'occluder selected' if depth else f'got {got!r}, want {near.status!r}'}"
        )
    score = 0.65 * fraction + 0.35 * depth
    misses = [(p, bar) for (p, bar), good in zip(graded, ok, strict=True) if not good]
    first_bad = f"; first miss: {misses[0][1].key} -> {_pick_seen(misses[0][0])}" if misses else ""
    return result("t_picking", score, f"{g(score)}: {sum(ok)}/{len(ok)} picks drove the "
                  f"filter and table; {why}{first_bad}")  # fmt: skip


def _pick_ok(p: Any, status: str, by_status: dict) -> bool:
    rows_ok = bool(p.row_statuses) and all(s == status for s in p.row_statuses)
    total_ok = p.total is None or p.total == by_status.get(status)
    return p.data_value == status and rows_ok and total_ok


def _pick_seen(p: Any) -> str:
    rows = sorted(set(p.row_statuses))
    return f"data-value {p.data_value!r}, rows {rows or 'none'}, total {p.total}"


def _depth(p: Any, bars: Sequence[C.Bar], w: float, h: float) -> tuple[C.Bar, C.Bar] | None:
    """(occluder, occluded) when the click point really shows a cross-status occlusion."""
    if p is None:
        return None
    near = C.hit(bars, C.DEFAULT_CAMERA, p.sx, p.sy, w, h)
    if near is None:
        return None
    for far in bars:
        behind = C.hit((far,), C.DEFAULT_CAMERA, p.sx, p.sy, w, h)
        if far != near.bar and far.status != near.bar.status and behind and behind.face == "top":
            return near.bar, far
    return None


@vspro_check("t_tooltip", needs=("browser",))
def t_tooltip(obs: Observations, _s: CheckSettings) -> CheckResult:
    """Hover the largest bar top: text starts '<count> <status>' .5 + visible within 150 ms
    (page-side stamps; 400 ms 0.6, 1200 ms 0.3 of it) .3 + hides off-canvas .2; never: 0."""
    v = _view(obs, "t_tooltip", "viz", ("context", "tooltip"))
    if isinstance(v, CheckResult):
        return v
    tt = v.tooltip
    if v.blocked or tt is None:
        return result("t_tooltip", 0.0, f"0: no hover: {v.blocked or 'no bar top on screen'}")
    if not tt.appeared:
        return result("t_tooltip", 0.0, "0: #viz-tooltip never appeared over a bar top")
    found = C.hit(_bars(obs), C.DEFAULT_CAMERA, tt.sx, tt.sy, v.canvas.css_width,
                  v.canvas.css_height)  # fmt: skip
    lead = f"{found.bar.count} {found.bar.status}" if found else "(no bar)"
    text_ok = bool(found) and re.match(rf"{re.escape(lead)}\b", (tt.text or "").strip(), re.I)
    rung = next((sc for at, sc in TOOLTIP_RUNGS
                 if tt.latency_ms is not None and tt.latency_ms <= at), 0.0)  # fmt: skip
    score = 0.5 * bool(text_ok) + 0.3 * rung + 0.2 * tt.hidden_after_leave
    latency = "unmeasured" if tt.latency_ms is None else f"{tt.latency_ms:.0f} ms"
    return result("t_tooltip", score, f"{g(score)}: text {tt.text!r} (want it to start "
                  f"{lead!r}); shown after {latency} (rung x{g(rung)}, top <=150 ms); "
                  f"{'hides' if tt.hidden_after_leave else 'stays'} off-canvas")  # fmt: skip


@vspro_check("t_fallback", needs=("browser",))
def t_fallback(obs: Observations, _s: CheckSettings) -> CheckResult:
    """Toggle half .5: #viz-fallback cells right (shown never: .1). No-WebGL half .5: no
    console errors .4 + auto-fallback cells .35 + in-panel notice absent in the normal run
    .15 + payment rows .10. No no-WebGL run: at most .5 x toggle."""
    v = _view(obs, "t_fallback", "viz", ("toggle",))
    if isinstance(v, CheckResult):
        return v
    want = {f"{c['day']}|{c['status']}": int(c["count"]) for c in obs.expect.buckets["cells"]}
    t = v.toggle
    if t is None or not t.present:
        toggle, tdetail = 0.0, "no visible #viz-toggle"
    elif not t.table_shown:
        toggle, tdetail = 0.2, "the toggle never showed #viz-fallback (0.1 of the half)"
    else:
        n, of = _cells(t.cells, want)
        toggle, tdetail = n / of if of else 0.0, f"toggle table {n}/{of} cells right"
    grace = _view(obs, "t_fallback", "viz_fallback", ("fallback",))
    if isinstance(grace, CheckResult):
        score = 0.5 * toggle
        return result("t_fallback", score, f"{g(score)}: {tdetail}; no-WebGL half unproven "
                      f"({grace.detail}): at most 0.5 x toggle")  # fmt: skip
    if not grace.loaded:
        score = 0.5 * toggle
        return result("t_fallback", score, f"{g(score)}: {tdetail}; without WebGL the page "
                      "did not load (no-WebGL half 0)")  # fmt: skip
    sc = grace.scenario
    errors = len(sc.console_errors) + len(sc.page_errors)
    n, of = _cells(grace.cells, want) if grace.fallback_shown else (0, 1)
    notice = bool(grace.notice) and not v.notice
    g_score = 0.4 * (errors == 0) + 0.35 * (n / of if of else 0.0) + 0.15 * notice + 0.10 * (
        grace.payment_rows > 0)  # fmt: skip
    score = 0.5 * toggle + 0.5 * g_score
    why_notice = "differential notice" if notice else "no in-panel notice"
    if grace.notice and v.notice:
        why_notice = "notice also shown with WebGL"
    return result("t_fallback", score, f"{g(score)}: {tdetail}; without WebGL {errors} console "
                  f"errors, fallback {n}/{of} cells right, {why_notice}, "
                  f"{grace.payment_rows} payment rows")  # fmt: skip


def _cells(shown: dict, want: dict) -> tuple[int, int]:
    """(right, graded) over the non-zero expected cells plus any non-zero shown cell."""
    got = {k: _int(v) for k, v in shown.items()}
    keys = {k for k, n in want.items() if n} | {k for k, n in got.items() if n}
    return sum(got.get(k, 0) == want.get(k, 0) for k in keys), len(keys)


def _int(text: Any) -> int | None:
    digits = re.sub(r"[^\d]", "", str(text))
    return int(digits) if digits else None


@vspro_check("t_vsdbg_truth", needs=("browser",))
def t_vsdbg_truth(obs: Observations, _s: CheckSettings) -> CheckResult:
    """version 3 .10 + scene bars matched on key, count and exact x/z/h over max(expected,
    claimed) .40 + project() within 2 px at every spot .30 + pick() keys .20; absent: 0."""
    v = _view(obs, "t_vsdbg_truth", "viz", ("context", "vsdbg"))
    if isinstance(v, CheckResult):
        return v
    vs = v.vsdbg
    if vs is None or not vs.present:
        return result("t_vsdbg_truth", 0.0, "0: window.vsdbg is absent")
    bars, cv = _bars(obs), v.canvas
    version = is_int(vs.version) and vs.version == 3
    claimed = _claimed(vs)
    by_key = {b.get("key"): b for b in claimed}
    matched = sum(_same_bar(by_key.get(b.key), b) for b in bars)
    denom = max(len(bars), len(claimed))
    scene = matched / denom if denom else 1.0
    errs = [_proj_err(ans, C.DEFAULT_CAMERA.project(pt, cv.css_width, cv.css_height))
            for pt, ans in vs.projections]  # fmt: skip
    worst = max(errs) if errs else math.inf
    picks = [ans == ((f := C.hit(bars, C.DEFAULT_CAMERA, x, y, cv.css_width, cv.css_height))
                     and f.bar.key) for (x, y), ans in vs.picks]  # fmt: skip
    pick_f = sum(picks) / len(picks) if picks else 0.0
    score = 0.10 * version + 0.40 * scene + 0.30 * (worst <= PROJECTION_TOLERANCE_PX) + (
        0.20 * pick_f)  # fmt: skip
    return result("t_vsdbg_truth", score, f"{g(score)}: version {vs.version!r}; scene "
                  f"{matched}/{denom} bars exact ({len(claimed)} claimed, {len(bars)} expected);"
                  f" max projection error {_px(worst)} over {len(errs)} spots (<= 2 px); "
                  f"{sum(picks)}/{len(picks)} picks right")  # fmt: skip


def _claimed(vs: Any) -> list[dict]:
    scene = getattr(vs, "scene", None)
    bars = scene.get("bars") if isinstance(scene, dict) else None
    return [b for b in bars if isinstance(b, dict)] if isinstance(bars, list) else []


def _same_bar(got: dict | None, bar: C.Bar) -> bool:
    if got is None or got.get("count") != bar.count:
        return False
    return all(isinstance(got.get(k), int | float) and abs(got[k] - want) <= 1e-6
               for k, want in (("x", bar.x), ("z", bar.z), ("h", bar.h)))  # fmt: skip


def _proj_err(got: Any, want: tuple[float, float] | None) -> float:
    if want is None:
        return 0.0 if got is None else math.inf
    ok = isinstance(got, list) and len(got) == 2 and all(isinstance(x, int | float) for x in got)
    return math.hypot(got[0] - want[0], got[1] - want[1]) if ok else math.inf


def _px(err: float) -> str:
    return "n/a" if math.isinf(err) else f"{err:.2f} px"


# -- P and E rows from the viz run ------------------------------------------------------------


@vspro_check("p_first_frame", needs=("browser",))
def p_first_frame(obs: Observations, s: CheckSettings) -> CheckResult:
    """First instrumented draw call on #viz3d (page clock): <=3000/5000/8000/15000 ms."""
    v = _view(obs, "p_first_frame", "viz", ())
    if isinstance(v, CheckResult):
        return v
    if v.context is None:
        return result("p_first_frame", 0.0, "0: no WebGL context on #viz3d ever drew")
    if v.first_draw_ms is None:
        return result("p_first_frame", 0.0, "0: the #viz3d context never issued a draw call")
    rungs = s.ladders.get("p_first_frame", FIRST_FRAME_RUNGS)
    rung = ladder_score(round(v.first_draw_ms, 1), rungs, s.k_p)
    return result("p_first_frame", rung.score, rung.detail.replace("; top <=", "; top rung <="),
                  first_draw_ms=v.first_draw_ms)  # fmt: skip


@vspro_check("e_frames_under_drag", needs=("browser",))
def e_frames_under_drag(obs: Observations, s: CheckSettings) -> CheckResult:
    """vsdbg frames over the 60-move drag, counted only up to the #viz3d draw calls in it:
    >= 24/18/12/6 (calibration-owned) -> 1/.75/.5/.25; no draws or no counter: 0."""
    v = _view(obs, "e_frames_under_drag", "viz", ("context", "camera"))
    if isinstance(v, CheckResult):
        return v
    c = v.camera
    if v.blocked or c is None:
        return result("e_frames_under_drag", 0.0, f"0: no drag: {v.blocked or 'no canvas'}")
    frames = _delta(c.frames_before, c.frames_after)
    draws = c.draws_after - c.draws_before
    if frames is None or frames < 0:
        return result("e_frames_under_drag", 0.0, f"0: frames unmeasurable (vsdbg.frames() "
                      f"{c.frames_before!r} -> {c.frames_after!r})")  # fmt: skip
    if draws <= 0:
        return result("e_frames_under_drag", 0.0, f"0: {frames} frames counted but no draw "
                      "call on #viz3d during the drag (an empty frame loop)")  # fmt: skip
    counted = min(frames, draws)
    rungs = tuple(s.drag_rungs)
    score = next((sc for at, sc in zip(rungs, DRAG_RUNG_SCORES, strict=False)
                  if counted >= at), 0.0)  # fmt: skip
    rung = next((f">={at}" for at in rungs if counted >= at), f"<{rungs[-1]}")
    return result("e_frames_under_drag", score, f"{g(score)}: {counted} frames over the "
                  f"{c.drag_ms:.0f} ms drag (vsdbg {frames}, draw calls {draws}; rung {rung}; "
                  f"top rung >={rungs[0]}; idle frames {c.idle_frames})")  # fmt: skip


def _delta(a: Any, b: Any) -> int | None:
    ok = all(isinstance(x, int | float) and not isinstance(x, bool) for x in (a, b))
    return int(b - a) if ok else None
