"""Tier T, driving the 3D panel with a mouse: the camera (wheel, drag, reset), picking
(including the depth pair) and the tooltip, each aimed and judged with the contract's
camera (`browser/camera.py`). Rungs: methodology §09.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from benchwright.model import CheckResult
from benchwright.suites.kit.browser.rows import shots
from benchwright.suites.kit.checks import app_check, g, result
from benchwright.suites.vspro.browser import camera as C
from benchwright.suites.vspro.checks import _viz_evidence as ev
from benchwright.suites.vspro.checks._common import CheckSettings
from benchwright.suites.vspro.observations import Observations

YAW_TOLERANCE = 1.5
MOVED_FRACTION = 0.005
"""Mid-drag frame differs from the baseline on at least this share of pixels: it moved."""


@app_check("t_camera", needs=("browser",))
def t_camera(obs: Observations, _s: CheckSettings) -> CheckResult:
    """Wheel 400 reprojects at dist 30*exp(0.48) .20 (0 if the page scrolled) + 120 px drag
    reprojects at yaw -7 .35 (sign-flipped: half) + vsdbg yaw within 1.5 deg of -7 .10 +
    double-click restores the baseline .35 (only if the scene provably moved)."""
    v = ev.view(obs, "t_camera", "viz", ("context", "camera"))
    if isinstance(v, CheckResult):
        return v
    if v.blocked or v.camera is None:
        return result("t_camera", 0.0, f"0: camera not exercised: {v.blocked or 'no canvas'}")
    c, bars = v.camera, ev.bars(obs)
    scrolled = abs(c.top_after_wheel - c.top_before) > 1 or abs(
        c.scroll_after_wheel - c.scroll_before) > 1  # fmt: skip
    zoomed = C.after_wheel(C.DEFAULT_CAMERA, c.wheel_delta)
    wn, wt = ev.tops(c.after_wheel, bars, zoomed)
    wheel = 0.0 if scrolled else (wn / wt if wt else 0.0)
    want = C.after_drag(C.DEFAULT_CAMERA, c.drag_dx, 0)
    dn, dt = ev.tops(c.after_drag, bars, want)
    flip = C.after_drag(C.DEFAULT_CAMERA, -c.drag_dx, 0)
    fn, ft = ev.tops(c.after_drag, bars, flip)
    drag_f, flip_f = (dn / dt if dt else 0.0), (fn / ft if ft else 0.0)
    flipped = flip_f > drag_f
    drag = 0.5 * flip_f if flipped else drag_f
    yaw = (c.camera_after_drag or {}).get("yaw") if isinstance(c.camera_after_drag, dict) else None
    yaw_ok = isinstance(yaw, int | float) and C.angle_between(yaw, want.yaw) <= YAW_TOLERANCE
    moved_px = c.mid_drag.differing(v.baseline) if c.mid_drag and v.baseline else 0.0
    moved = moved_px >= MOVED_FRACTION or max(drag_f, flip_f) >= 0.5
    rn, rt = ev.tops(c.after_reset, bars, C.DEFAULT_CAMERA)
    reset = (rn / rt if rt else 0.0) if moved else 0.0
    score = 0.20 * wheel + 0.35 * drag + 0.10 * yaw_ok + 0.35 * reset
    detail = (
        f"{g(score)}: wheel {wn}/{wt} tops at dist {g(zoomed.distance)}"
        + (" (page scrolled: 0)" if scrolled else "")
        + f"; drag {dn}/{dt} at yaw {g(want.yaw)}"
        + (f" (sign-flipped: {fn}/{ft} at yaw {g(flip.yaw)}, half credit)" if flipped else "")
        + f"; vsdbg camera {ev.cam(c.camera_after_drag)} (yaw within {YAW_TOLERANCE} deg: "
        f"{'yes' if yaw_ok else 'no'}); reset {rn}/{rt} tops back at the default"
        + ("" if moved else " (unpaid: the scene never provably moved during the drag)")
    )
    return result("t_camera", score, detail, moved_fraction=round(moved_px, 4),
                  screenshots=shots(v, "viz-before-drag", "viz-after-drag"))  # fmt: skip


@app_check("t_picking", needs=("browser",))
def t_picking(obs: Observations, _s: CheckSettings) -> CheckResult:
    """Up to 5 bar-top clicks: #status-filter data-value = the bar's status, the visible rows
    all that status, and the readout total = the fixture's per-status total (.65 x fraction);
    the depth pair selects the occluding bar (.35; no cross-status occlusion: the fraction).
    When the app's own API serves a wrong answer for that status (a server-side filter bug,
    which c_api_depth and v_filter own), the table is judged against what it served: the
    pick drove the product, and this row does not absorb the API's defect."""
    v = ev.view(obs, "t_picking", "viz", ("context", "picking"))
    if isinstance(v, CheckResult):
        return v
    if v.blocked:
        return result("t_picking", 0.0, f"0: picking not exercised: {v.blocked}")
    bars, cv = ev.bars(obs), v.canvas
    w, h = cv.css_width, cv.css_height
    graded = [(p, found.bar) for p in v.picks
              if (found := C.hit(bars, C.DEFAULT_CAMERA, p.sx, p.sy, w, h))]  # fmt: skip
    if not graded:
        return result("t_picking", 0.0, "0: no bar top to click on the canvas")
    want = {s: _want(s, obs.expect.by_status, v.served) for s in obs.expect.by_status}
    misses = [(bar.key, why) for p, bar in graded if (why := _pick_misses(p, want[bar.status]))]
    fraction = 1 - len(misses) / len(graded)
    pair = _depth(v.depth_pick, bars, w, h)
    if pair is None:
        depth, why = fraction, "no cross-status occlusion on screen: depth term = pick fraction"
    else:
        near, far = pair
        wrong = _pick_misses(v.depth_pick, want[near.status])
        depth = 0.0 if wrong else 1.0
        why = (f"depth pair {near.key} over {far.key}: "
               f"{'; '.join(wrong) if wrong else 'occluder selected'}")  # fmt: skip
    score = 0.65 * fraction + 0.35 * depth
    first_bad = f"; first miss: {misses[0][0]}: {'; '.join(misses[0][1])}" if misses else ""
    served_bad = sorted(s for s, w in want.items() if w.served is not None)
    server = (f"; the app's own status filter is wrong for {', '.join(served_bad)} (charged to "
              "the API rows): its tables judged against what the app served"
              if served_bad else "")  # fmt: skip
    return result("t_picking", score, f"{g(score)}: {len(graded) - len(misses)}/{len(graded)} "
                  f"picks drove the filter and table; {why}{first_bad}{server}")  # fmt: skip


class _Want(NamedTuple):
    """What a pick of ``status`` must show: the status in data-value, and rows and readout
    as the fixture says -- or as the app served, when its own filter is wrong."""

    status: str
    served: tuple[str, ...] | None
    """None: every row must show ``status``; else the statuses the app's API served."""
    total: int | None


def _want(status: str, by_status: dict, served: Any) -> _Want:
    truth = by_status.get(status)
    got = served.get(status)
    if got is None or (got.statuses and set(got.statuses) == {status} and got.total == truth):
        return _Want(status, None, truth)
    return _Want(status, got.statuses, got.total)


def _pick_misses(p: Any, want: _Want) -> list[str]:
    """The comparisons a pick failed, each with what it saw and wanted (none: a good pick);
    a comparison that held is never printed beside one that failed."""
    misses = []
    if p.data_value != want.status:
        misses.append(f"data-value {p.data_value!r}, want {want.status!r}")
    rows = list(p.row_statuses)
    if want.served is None:
        if not rows or any(s != want.status for s in rows):
            misses.append(f"rows {_counts(rows) if rows else 'none'}, want all {want.status!r}")
    elif sorted(rows) != sorted(want.served[: len(rows)]) or len(rows) > len(want.served):
        misses.append(f"rows {_counts(rows)}, want what the app served "
                      f"{_counts(want.served[: len(rows)] or want.served)}")  # fmt: skip
    if p.total is not None and p.total != want.total:
        misses.append(f"readout total {p.total}, want {want.total}")
    return misses


def _counts(statuses: Sequence[str]) -> str:
    return "{" + ", ".join(f"{s} {list(statuses).count(s)}" for s in sorted(set(statuses))) + "}"


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


@app_check("t_tooltip", needs=("browser",))
def t_tooltip(obs: Observations, s: CheckSettings) -> CheckResult:
    """Hover the largest bar top: text starts '<count> <status>' .5 + visible within 150 ms
    (page-side stamps; 400 ms 0.6, 1200 ms 0.3 of it) .3 + hides off-canvas .2; never: 0."""
    v = ev.view(obs, "t_tooltip", "viz", ("context", "tooltip"), timed=True)
    if isinstance(v, CheckResult):
        return v
    tt = v.tooltip
    if v.blocked or tt is None:
        return result("t_tooltip", 0.0, f"0: no hover: {v.blocked or 'no bar top on screen'}")
    if not tt.appeared:
        return result("t_tooltip", 0.0, "0: #viz-tooltip never appeared over a bar top")
    found = C.hit(ev.bars(obs), C.DEFAULT_CAMERA, tt.sx, tt.sy, v.canvas.css_width,
                  v.canvas.css_height)  # fmt: skip
    lead = f"{found.bar.count} {found.bar.status}" if found else "(no bar)"
    text_ok = bool(found) and re.match(rf"{re.escape(lead)}\b", (tt.text or "").strip(), re.I)
    rungs = s.ladders["t_tooltip"]
    rung = next((r.score for r in rungs
                 if tt.latency_ms is not None and tt.latency_ms <= r.at_most), 0.0)  # fmt: skip
    score = 0.5 * bool(text_ok) + 0.3 * rung + 0.2 * tt.hidden_after_leave
    latency = "unmeasured" if tt.latency_ms is None else f"{tt.latency_ms:.0f} ms"
    return result("t_tooltip", score, f"{g(score)}: text {tt.text!r} (want it to start "
                  f"{lead!r}); shown after {latency} (rung x{g(rung)}, "
                  f"top <={rungs[0].at_most:g} ms); "
                  f"{'hides' if tt.hidden_after_leave else 'stays'} off-canvas",
                  latency_ms=tt.latency_ms, timing_score=rung)  # fmt: skip
