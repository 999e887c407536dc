"""Tier T, what the 3D panel shows and claims: a real WebGL context, pixels bound to the
data, and a ``window.vsdbg`` that tells the truth about them.

A canvas that could not be brought into view, or a page that shows nothing, is the app's
FAIL; a lost probe section is UNAVAILABLE (`_viz_evidence.view`). Rungs: methodology §09.
The interaction rows are in `tier_t_input`, the no-WebGL row in `tier_t_fallback`, the
browser-timed P and E rows in `tier_pe_browser`.
"""

from __future__ import annotations

import math
from typing import Any

from benchwright.model import CheckResult
from benchwright.suites.kit.browser.rows import shots
from benchwright.suites.kit.checks import app_check, g, is_int, result
from benchwright.suites.vspro.browser import camera as C
from benchwright.suites.vspro.checks import _viz_evidence as ev
from benchwright.suites.vspro.checks._common import CheckSettings
from benchwright.suites.vspro.observations import Observations

SIDE_ACHIEVABLE = 0.75
CLASS_WEIGHTS = {"top": 0.50, "above": 0.25, "side": 0.15, "sky": 0.10}
PROJECTION_TOLERANCE_PX = 2.0


@app_check("t_context_real", needs=("browser",))
def t_context_real(obs: Observations, _s: CheckSettings) -> CheckResult:
    """A WebGL context on #viz3d .25 + backing store = rect x DPR (+-1 px) .15 + >=1 draw
    call .15 + a blind 6x4 grid with >=3 non-background pixels in >=2 colours .25 + the four
    3 px-inset corners #0F172A within 8 .20."""
    v = ev.view(obs, "t_context_real", "viz", ("context",))
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
    lit = [p for p in grid if not ev.close(p, C.BACKGROUND)]
    parts["grid"] = len(lit) >= 3 and len(set(lit)) >= 2
    corners = [] if fb is None else [
        fb.pixel(*fb.backing(x, y)) for x in (3, fb.css_width - 4) for y in (3, fb.css_height - 4)
    ]  # fmt: skip
    parts["corners"] = len(corners) == 4 and all(ev.close(p, C.BACKGROUND) for p in corners)
    weights = {"context": 0.25, "backing": 0.15, "draws": 0.15, "grid": 0.25, "corners": 0.20}
    score = sum(w for k, w in weights.items() if parts[k])
    missed = [k for k in weights if not parts[k]]
    detail = (f"{g(score)}: {ctx.kind if ctx else 'no WebGL'} context on #viz3d; backing "
              f"{cv.backing_width}x{cv.backing_height} vs rect {g(cv.css_width)}x"
              f"{g(cv.css_height)} x DPR {g(cv.dpr)}; {draws} draw calls; grid {len(lit)}/24 "
              f"non-background in {len(set(lit))} colours; corners "
              f"{sum(ev.close(p, C.BACKGROUND) for p in corners)}/4 background"
              + (f"; missed: {', '.join(missed)}" if missed else ""))  # fmt: skip
    return result("t_context_real", score, detail, attrs=cv.requested_attrs)


@app_check("t_scene_binding", needs=("browser",))
def t_scene_binding(obs: Observations, _s: CheckSettings) -> CheckResult:
    """Pixels recomputed from the fixture at yaw 35 / pitch 27 / dist 30: tops .50, above-top
    background .25, side faces .15 (/0.75 achievable), sky .10, renormalised over classes
    with samples; 3x3 majority within 8. <3 top colours for >=3 statuses caps at .25;
    phantom bars on an empty scene, zero graded samples, or no bar face drawn at all: 0."""
    v = ev.view(obs, "t_scene_binding", "viz", ("context",))
    if isinstance(v, CheckResult):
        return v
    bars, fb = ev.bars(obs), v.baseline
    claimed = ev.claimed(v.vsdbg)
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
        ok = ev.matches(fb, s.sx, s.sy, s.expect)
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
              f"within {ev.TOL}; sides over {SIDE_ACHIEVABLE} achievable)"
              + (f"; capped at 0.25: only {len(colours)} top colour(s) for {len(statuses)} "
                 "statuses (mono-wash)" if capped else ""))  # fmt: skip
    return result("t_scene_binding", score, detail, tally=tally,
                  screenshots=shots(v, "viz-before-drag"))  # fmt: skip


@app_check("t_vsdbg_truth", needs=("browser",))
def t_vsdbg_truth(obs: Observations, _s: CheckSettings) -> CheckResult:
    """version 3 .10 + scene bars matched on key, count and exact x/z/h over max(expected,
    claimed) .40 + project() within 2 px at every spot .30 + pick() keys .20; absent: 0."""
    v = ev.view(obs, "t_vsdbg_truth", "viz", ("context", "vsdbg"))
    if isinstance(v, CheckResult):
        return v
    vs = v.vsdbg
    if vs is None or not vs.present:
        return result("t_vsdbg_truth", 0.0, "0: window.vsdbg is absent")
    bars, cv = ev.bars(obs), v.canvas
    version = is_int(vs.version) and vs.version == 3
    claimed = ev.claimed(vs)
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
