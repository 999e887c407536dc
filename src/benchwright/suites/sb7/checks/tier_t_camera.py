"""Tier T's camera row and the instrumentation root (§12): the orbit camera follows the
printed laws (defaults, drag, wheel, both clamps, double-click reset, the projection in
pixels), and ``window.vs7dbg`` tells the truth about the camera, the scene, the frames and
the picks."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from typing import Any

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, g, result
from benchwright.suites.sb7.browser.record import BROWSER
from benchwright.suites.sb7.checks._viz import agrees, graded, pixels_agree, screen
from benchwright.suites.sb7.checks.tier_t import digest_off
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.viz import camera as C
from benchwright.suites.sb7.viz.view import CameraRun, VizView

POSE_TOL, DRAG_TOL = 0.5, 1.0
"""Degrees (and world units for the distance): a pose read, the drag law."""
PIXEL_SHARE = 0.9
"""The share of the picks' stable points whose visible pixel must show the analytic
colour for the image to agree with the projection (a stray edge pixel is not a lie)."""
FRAMES_SLACK = 2
"""vs7dbg.frames() may differ from the wrapper's frames by this many over the drag."""


def _num(cam: Mapping[str, Any] | None, key: str) -> float | None:
    value = (cam or {}).get(key)
    ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    return float(value) if ok else None  # type: ignore[arg-type]


def at_pose(cam: Mapping[str, Any] | None, pose: C.Pose, tol: float = POSE_TOL) -> bool:
    """``camera()`` reads ``pose`` (yaw modulo 360) within ``tol``."""
    yaw, pitch, dist = (_num(cam, k) for k in ("yaw", "pitch", "distance"))
    if yaw is None or pitch is None or dist is None:
        return False
    return (C.yaw_error(yaw, pose.yaw) <= tol and abs(pitch - pose.pitch) <= tol
            and abs(dist - pose.distance) <= tol)  # fmt: skip


def _still(cam: Mapping[str, Any] | None) -> bool:
    v = (_num(cam, "vyaw"), _num(cam, "vpitch"))
    return all(x is not None and abs(x) < 1e-6 for x in v)


def _wheel_ok(run: CameraRun) -> bool:
    steps = [_num(c, "distance") for c in run.wheel]
    if len(steps) < 3 or any(d is None for d in steps) or run.scroll[0] != run.scroll[1]:
        return False
    wants = [(b, C.wheeled(a, run.wheel_dy)) for a, b in itertools.pairwise(steps)]  # type: ignore[arg-type]
    return all(abs(b - w) <= max(0.5, 0.01 * w) for b, w in wants)  # type: ignore[operator]


def _drag_ok(run: CameraRun) -> bool:
    yaw0, yaw1 = _num(run.before_drag, "yaw"), _num(run.during_drag, "yaw")
    if yaw0 is None or yaw1 is None:
        return False
    return C.yaw_error(yaw1, yaw0 - C.DRAG_DEG_PER_PX * run.drag_dx) <= DRAG_TOL


def _projection_ok(obs: Observations, seen: VizView) -> tuple[bool, str]:
    if not seen.picks or obs.truth is None:
        return False, "no pick pose reached"
    run = seen.picks[0]
    if not at_pose(run.camera, C.Pose(*run.pose)):
        return False, f"camera() {run.camera} at setCamera{run.pose}"
    hits, n = pixels_agree(obs, seen, run)
    return n > 0 and hits >= PIXEL_SHARE * n, f"{hits}/{n} pixels as projected"


@app_check("t_camera_math", needs=(BROWSER,))
def t_camera_math(obs: Observations, _s) -> CheckResult:
    """1/7 each: defaults, drag law, wheel law (no page scroll), pitch clamp at 85,
    distance clamp at 340, double-click reset with the velocity zeroed, and the image at
    a set pose agreeing with the printed projection in pixels."""
    seen, row = graded(obs, "t_camera_math", "context", "camera", "picks", truth=True)
    if row is not None:
        return row
    run = seen.camera  # type: ignore[union-attr]
    if run is None:
        return result("t_camera_math", 0.0, "0: camera math never exercised (no draggable "
                      "field)")  # fmt: skip
    loaded = (seen.vs7dbg or {}).get("camera")  # type: ignore[union-attr]
    projected, how = _projection_ok(obs, seen)  # type: ignore[arg-type]
    parts = {
        "defaults": at_pose(loaded.value if loaded else None, C.DEFAULT),
        "drag law": _drag_ok(run),
        "wheel law": _wheel_ok(run),
        "pitch clamp": abs((_num(run.pitch_clamp, "pitch") or 0.0) - 85.0) <= POSE_TOL,
        "distance clamp": abs((_num(run.distance_clamp, "distance") or 0.0) - 340.0) <= POSE_TOL,
        "double-click reset": all(at_pose(c, C.DEFAULT) and _still(c) for c in run.reset),
        "projection": projected,
    }
    failed = [k for k, ok in parts.items() if not ok]
    score = (len(parts) - len(failed)) / len(parts)
    return result("t_camera_math", score, f"{g(score)}: {len(parts) - len(failed)}/7 parts"
                  + (f"; failed: {', '.join(failed)}" if failed else "") + f" ({how})")  # fmt: skip


@app_check("t_vs7dbg_truth", needs=(BROWSER,))
def t_vs7dbg_truth(obs: Observations, _s) -> CheckResult:
    """0.3 camera-vs-pixels (defaults at load, and the image at a set pose as projected) +
    0.3 digest-vs-recompute + 0.2 frames()-vs-wrapper (over the drag and at rest) + 0.2
    pick/pickPixel/analytic agreement. vs7dbg absent: the app's 0 (the root of 12)."""
    seen, row = graded(obs, "t_vs7dbg_truth", "context", "vs7dbg", "picks", truth=True,
                       field=False)  # fmt: skip
    if row is not None:
        return row
    if seen.vs7dbg is None:  # type: ignore[union-attr]
        return result("t_vs7dbg_truth", 0.0, "0: window.vs7dbg is absent (a required app "
                      "surface)")  # fmt: skip
    loaded = seen.vs7dbg.get("camera")  # type: ignore[union-attr]
    projected, how = _projection_ok(obs, seen)  # type: ignore[arg-type]
    legs = {
        "camera": (0.3, at_pose(loaded.value if loaded else None, C.DEFAULT) and projected),
        "digest": (0.3, not digest_off(obs, seen)[1]),  # type: ignore[arg-type]
        "frames": (0.2, _frames_true(seen)),  # type: ignore[arg-type]
        "picks": (0.2, _picks_true(obs, seen)),  # type: ignore[arg-type]
    }
    score = sum(w for w, ok in legs.values() if ok)
    lying = [k for k, (_w, ok) in legs.items() if not ok]
    return result("t_vs7dbg_truth", score, f"{g(score)}: " + (f"lying legs: {', '.join(lying)}"
                  if lying else "all four legs true") + f" ({how})")  # fmt: skip


def _frames_true(seen: VizView) -> bool:
    """frames() rose with the wrapper's frames over the drag (within `FRAMES_SLACK`) and
    stood still in every rest window without draws."""
    if seen.drag is None:
        return False
    w = seen.drag.window
    said = w.vs_frames
    if said is None or w.frames <= 0 or abs(said - w.frames) > FRAMES_SLACK:
        return False
    return all(r.vs_frames == 0 for r in seen.idle if r.draws == 0)


def _picks_true(obs: Observations, seen: VizView) -> bool:
    if not seen.picks or not seen.picks[0].points:
        return False
    at = screen(obs, seen, seen.picks[0])
    return all(agrees(seen, at, p) for p in seen.picks[0].points)
