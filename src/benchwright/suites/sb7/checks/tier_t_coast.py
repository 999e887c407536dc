"""Tier T's coast rows (§12 t_coast_identity, t_coast_reality): after a release the camera
coasts by the closed form of spec §8.4 (τ = 0.4 s, measured in real time, so a decay tuned
per 60 Hz frame drifts under a slow renderer), a slow release starts no coast, the coast
settles inside its budget, and it is motion the canvas shows, not a story ``camera()``
tells.

A flick the host could not make fast enough (600 px/s in the page's own clock) or a slow
drag it could not make slow enough, and a coast that moved but on which no frame or spot
landed between release and rest, prove nothing about the app: UNAVAILABLE, naming the
measurement."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, g, result, unavailable
from benchwright.suites.sb7.browser.record import BROWSER
from benchwright.suites.sb7.checks._common import PROBE
from benchwright.suites.sb7.checks._viz import CHANNEL, graded, screen_at, shown_as_projected, vs7
from benchwright.suites.sb7.checks.tier_t_camera import PIXEL_SHARE, _num
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.viz.aim import stable
from benchwright.suites.sb7.viz.view import CoastFrame, CoastRun, Release, Spot, VizView

TAU = 0.4
FAST_PX_S, SLOW_PX_S = 600.0, 6.0
"""§8.4: a fast flick is at least 600 px/s; a release slower than 6 px/s must not coast."""
FLOOR, SHARE = 1.0, 0.15
"""A sample's identity holds within max(1°, 0.15 · |v(t)·τ|)."""
DRIFT = 0.5
SLACK_S, CAP_S, REST_SPEED = 0.7, 2.5, 2.0
TRAVEL = 3.0
MOVED = 0.01
"""Degrees: a pose this far from another is a different pose."""
STILL = 0.5
"""Degrees: a flick whose rest lies this close to its release did not coast at all."""


def turn(a: float, b: float) -> float:
    """a - b in degrees, modulo 360 into (-180, 180] (yaw is free)."""
    return 180.0 - (180.0 - (a - b)) % 360.0


def _yaw(cam: Mapping[str, Any] | None) -> float | None:
    return _num(cam, "yaw")


def coast_ended(f: Release) -> float | None:
    """Page time of the last frame after the pointerup that drew a new pose (the frame
    that brought the camera to rest); None when none did."""
    last, end = _yaw(f.camera), None
    for frame in after_up(f):
        yaw = _yaw(frame.camera)
        if yaw is not None and (last is None or abs(turn(yaw, last)) > MOVED):
            end = frame.t
        last = yaw if yaw is not None else last
    return end


def after_up(f: Release) -> list[CoastFrame]:
    return [fr for fr in f.frames if fr.t > f.up_t]


def mid_coast(f: Release) -> list[tuple[float, float]]:
    """(seconds since the pointerup, yaw) of each frame that drew a moved pose before the
    one that ended the coast."""
    start, end = _yaw(f.camera), coast_ended(f)
    found = []
    for frame in after_up(f):
        yaw = _yaw(frame.camera)
        if yaw is None or start is None or end is None or frame.t >= end:
            continue
        if abs(turn(yaw, start)) > MOVED:
            found.append(((frame.t - f.up_t) / 1000, yaw))
    return found


def _flick(
    obs: Observations, check_id: str, truth: bool
) -> tuple[VizView | None, CoastRun | None, CheckResult | None]:
    """(the view, the coast run, None), or the row that grades instead: the view missing,
    a section lost, a dead sync, no field, vs7dbg absent, no coast run (the app's 0: no
    draggable field), a flick or a slow drag the host could not make (UNAVAILABLE)."""
    seen, row = graded(obs, check_id, "context", "coast", truth=truth, dead=True)
    if row is not None:
        return None, None, row
    run = seen.coast  # type: ignore[union-attr]
    if run is None:
        return None, None, result(check_id, 0.0, "0: the coast never exercised (no draggable "
                                  "field)")  # fmt: skip
    _cam, row = vs7(check_id, seen, "camera")  # type: ignore[arg-type]
    if row is not None:
        return None, None, row
    for name, got, ok in (("flick", run.flick, run.flick.px_per_s >= FAST_PX_S),
                          ("slow drag", run.slow, run.slow.px_per_s < SLOW_PX_S)):  # fmt: skip
        if not ok:
            return None, None, unavailable(check_id, f"{PROBE}the {name}'s release measured "
                                           f"{got.px_per_s:.1f} px/s ({abs(got.dx_px):.0f} px "
                                           f"over {got.dt_ms:.0f} ms of the page's clock), "
                                           "outside §8.4's harness promise (fast ≥ 600, slow "
                                           "< 6): the host's frame time bounds the drag; "
                                           "calibrate on a faster host")  # fmt: skip
    return seen, run, None


@app_check("t_coast_identity", needs=(BROWSER,))
def t_coast_identity(obs: Observations, _s) -> CheckResult:
    """0.5 x the share of mid-coast frames where yaw_rest - yaw(t) = v0·e^(-t/τ)·τ (t on the
    page's clock since the pointerup, v0 = camera().vyaw at release) within max(1°, 15 %),
    + 0.25 the slow drag drifting ≤ 0.5°, + 0.25 the flick's coast resting within
    τ·ln(max(v0, 2)/2) + 0.7 s (at most 2.5 s): a timing part, judged by the host's state."""
    _seen, run, row = _flick(obs, "t_coast_identity", truth=False)
    if row is not None:
        return row
    f = run.flick  # type: ignore[union-attr]
    v0, start, rest = _num(f.camera, "vyaw"), _yaw(f.camera), _yaw(f.rest)
    if v0 is None or start is None or rest is None:
        return result("t_coast_identity", 0.0, "0: camera() gave no yaw and vyaw at the "
                      "flick's release, or no yaw at rest")  # fmt: skip
    samples = mid_coast(f)
    ev: dict[str, Any] = {"release_px_s": round(f.px_per_s, 1), "v0": round(v0, 2),
                          "frames": len(after_up(f)), "samples": len(samples)}  # fmt: skip
    if not samples:
        moved = turn(rest, start)
        if abs(moved) >= TRAVEL:
            return unavailable("t_coast_identity", f"{PROBE}the coast moved {moved:.1f}° but no "
                               f"frame began between release and rest ({ev['frames']} frames "
                               "after the pointerup): the host's frame time", **ev)  # fmt: skip
        return result("t_coast_identity", 0.0, f"0: no coast evidence (yaw moved {moved:.2f}° "
                      "after a fast flick, no frame drew a coasting pose)", **ev)  # fmt: skip
    wants = [v0 * math.exp(-t / TAU) * TAU for t, _yaw_t in samples]
    residuals = [turn(rest, yaw) - w for (_t, yaw), w in zip(samples, wants, strict=True)]
    held = sum(abs(r) <= max(FLOOR, SHARE * abs(w)) for r, w in zip(residuals, wants, strict=True))
    slow = run.slow  # type: ignore[union-attr]
    s0, s1 = _yaw(slow.camera), _yaw(slow.rest)
    drift = abs(turn(s1, s0)) if s0 is not None and s1 is not None else None
    still = drift is not None and drift <= DRIFT
    end = coast_ended(f)
    settle = None if end is None or not f.rested else (end - f.up_t) / 1000
    budget = min(TAU * math.log(max(abs(v0), REST_SPEED) / REST_SPEED) + SLACK_S, CAP_S)
    settled = settle is not None and settle <= budget
    ev |= {"residuals": [round(r, 3) for r in residuals], "slow_drift": drift,
           "slow_px_s": round(slow.px_per_s, 2), "settle_s": settle,
           "budget_s": round(budget, 3)}  # fmt: skip
    if held == len(samples) and still:
        ev["timing_score"] = float(settled)  # a late rest alone: the host's, when it was busy
    score = 0.5 * held / len(samples) + 0.25 * still + 0.25 * settled
    late = "not rested within the probe's bound" if settle is None else f"rested {settle:.2f} s"
    return result("t_coast_identity", score, f"{g(score)}: identity held on {held}/"
                  f"{len(samples)} mid-coast frames (release {f.px_per_s:.0f} px/s, v0 "
                  f"{v0:.1f}°/s, worst residual {max(abs(r) for r in residuals):.2f}°); slow "
                  f"drag drifted {'?' if drift is None else f'{drift:.2f}'}° (≤ {DRIFT}); "
                  f"{late} after release (budget {budget:.2f} s)", **ev)  # fmt: skip


@app_check("t_coast_reality", needs=(BROWSER,))
def t_coast_reality(obs: Observations, _s) -> CheckResult:
    """0.4 the flick's rest ≥ 3° past its release + 0.2 in the drag's direction + 0.4 x the
    share of spot-checks (each mid-coast one and the rest's) whose pixels show the scene
    projected at the pose camera() reported with them (a mid-coast one also changed since
    the spot before it): camera() alone can lie, unmoved pixels earn nothing."""
    seen, run, row = _flick(obs, "t_coast_reality", truth=True)
    if row is not None:
        return row
    f = run.flick  # type: ignore[union-attr]
    start, rest = _yaw(f.camera), _yaw(f.rest)
    if start is None or rest is None:
        return result("t_coast_reality", 0.0, "0: camera() gave no yaw at the flick's release "
                      "or at rest")  # fmt: skip
    moved = turn(rest, start)
    ev: dict[str, Any] = {"release_px_s": round(f.px_per_s, 1), "travel": round(moved, 2)}
    if abs(moved) < STILL:
        return result("t_coast_reality", 0.0, f"0: no flick-coast evidence (yaw moved "
                      f"{moved:.2f}° past the release)", **ev)  # fmt: skip
    mids = [i for i, s in enumerate(f.spots[:-1]) if _coasting(s, start, rest)]
    if not mids:
        return unavailable("t_coast_reality", f"{PROBE}the coast moved {moved:.1f}° but no spot "
                           f"read landed between release and rest ({len(f.spots)} reads): the "
                           "host's frame time", **ev)  # fmt: skip
    checks = [_confirms(obs, seen, run, i, i in mids) for i in [*mids, len(f.spots) - 1]]  # type: ignore[arg-type]
    confirmed = sum(checks)
    far = abs(moved) >= TRAVEL
    along = moved * -math.copysign(1.0, f.dx_px) > 0  # yaw ← yaw - 0.30·Δx
    score = 0.4 * far + 0.2 * along + 0.4 * confirmed / len(checks)
    ev["spots"] = [bool(c) for c in checks]
    return result("t_coast_reality", score, f"{g(score)}: travelled {moved:.1f}° past the "
                  f"release ({'≥' if far else '<'} {TRAVEL:g}°, "
                  f"{'with' if along else 'against'} the drag); {confirmed}/{len(checks)} "
                  f"spot-checks show the pose camera() reports (release "
                  f"{f.px_per_s:.0f} px/s)", **ev)  # fmt: skip


def _coasting(s: Spot, start: float, rest: float) -> bool:
    yaw = _yaw(s.camera)
    return yaw is not None and abs(turn(yaw, start)) > MOVED and abs(turn(yaw, rest)) > MOVED


def _confirms(obs: Observations, seen: VizView, run: CoastRun, i: int, mid: bool) -> bool:
    """Spot ``i``'s pixels show the truth's scene at its camera() pose on
    `PIXEL_SHARE` of the grid points that are stable there, and (``mid``) differ from the
    spot before it somewhere."""
    spots = run.flick.spots
    s = spots[i]
    pose = tuple(_num(s.camera, k) for k in ("yaw", "pitch", "distance"))
    if s.pixels is None or any(v is None for v in pose):
        return False
    if mid and i > 0 and not _changed(spots[i - 1], s):
        return False
    at = screen_at(obs, seen, pose, run.canvas)  # type: ignore[arg-type]
    read = [(sx, sy, px) for (sx, sy), px in zip(run.grid, s.pixels, strict=False)
            if stable(at, sx, sy)]  # fmt: skip
    hits, n = shown_as_projected(seen, at, read)
    return n > 0 and hits >= PIXEL_SHARE * n


def _changed(a: Spot, b: Spot) -> bool:
    if a.pixels is None or b.pixels is None:
        return True
    return any(max(abs(x - y) for x, y in zip(p, q, strict=True)) > CHANNEL
               for p, q in zip(a.pixels, b.pixels, strict=False))  # fmt: skip
