"""Tier T, p_first_frame and e_frames_under_drag on canned viz observations.

The canned framebuffers are rendered lazily by ray casting the contract's scene, so a
truthful page is one that paints what `camera.py` says; the near misses paint something
else (a decorative field, one colour, a camera that moved the wrong way).
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import cache
from types import SimpleNamespace

import pytest

from benchwright.model import Status
from benchwright.probes.browser import ScenarioObservation, ScenarioTimings, WebGLContext
from benchwright.services.meridian import MeridianMock
from benchwright.suites.vspro.browser import BrowserObservation
from benchwright.suites.vspro.browser import camera as C
from benchwright.suites.vspro.browser.viz import (
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
from benchwright.suites.vspro.checks import CheckSettings, build_table
from benchwright.suites.vspro.observations import Observations

W, H = 1166, 440  # the golden page's canvas at 1280x800
EXPECT = MeridianMock(0).fixture.expect  # the published fixture: 14 Berlin days
BUCKETS, BY_STATUS = EXPECT.buckets, EXPECT.by_status
DAYS = BUCKETS["days"]
BARS = C.scene_bars(BUCKETS)
T_CHECKS = (
    "t_context_real",
    "t_scene_binding",
    "t_camera",
    "t_picking",
    "t_tooltip",
    "t_fallback",
    "t_vsdbg_truth",
    "p_first_frame",
    "e_frames_under_drag",
)


class Render:
    """A framebuffer the page would show: the nearest bar face per pixel, else background."""

    def __init__(self, bars=BARS, cam=C.DEFAULT_CAMERA, paint=None, w=W, h=H):
        self.bars, self.cam, self.paint = bars, cam, paint
        self.width = self.height = 0
        self.width, self.height, self.css_width, self.css_height = w, h, float(w), float(h)
        self._memo: dict = {}

    def backing(self, sx, sy):
        return math.floor(sx * self.width / self.css_width), math.floor(
            sy * self.height / self.css_height
        )

    def pixel(self, bx, by):
        if (bx, by) not in self._memo:
            found = C.hit(self.bars, self.cam, bx + 0.5, by + 0.5, self.width, self.height)
            if self.paint is not None:
                colour = self.paint(found)
            elif found is None:
                colour = C.BACKGROUND
            else:
                top = found.face == "top"
                colour = found.bar.top_rgb if top else C.side_rgb(found.bar.status)
            self._memo[(bx, by)] = colour
        return self._memo[(bx, by)]

    def differing(self, other, tol=8):
        points = [(x, y) for x in range(5, self.width, 45) for y in range(5, self.height, 20)]
        moved = sum(
            any(abs(a - b) > tol for a, b in zip(self.pixel(*p), other.pixel(*p), strict=True))
            for p in points
        )
        return moved / len(points)


@cache
def _tops(cam=C.DEFAULT_CAMERA):
    return [s for s in C.samples(BARS, cam, W, H) if s.kind == "top"]


@cache
def truthful(cam=C.DEFAULT_CAMERA) -> Render:
    """What a truthful page shows from ``cam`` (shared: its pixels are memoised)."""
    return Render(cam=cam)


def _by_key(key):
    return next(b for b in BARS if b.key == key)


def _table(status, total=True):
    return dict(
        data_value=status, row_statuses=(status,) * 5, total=BY_STATUS[status] if total else None
    )


def _picks():
    tops = _tops()[::3][:5]
    return tuple(PickProbe(s.sx, s.sy, **_table(_by_key(s.key).status)) for s in tops)


def _depth_pick():
    near, _far, (x, y) = C.depth_pair(BARS, C.DEFAULT_CAMERA, W, H)
    return PickProbe(x, y, **_table(near.status))


def _scenario(draws=90, first_draw_ms=420.0, console=(), page_errors=()):
    ctx = WebGLContext(0, "webgl", "viz3d", 100.0, first_draw_ms, (("drawArrays", draws),))
    return ScenarioObservation(
        name="viz",
        url="http://app/",
        status=200,
        navigation_error=None,
        first_row_ms=300.0,
        console_errors=console,
        console_filtered=(),
        page_errors=page_errors,
        webgl_contexts=(ctx,) if draws is not None else (),
        webgl_refused=0,
        requests=(),
        screenshots=(),
        timings=ScenarioTimings(0.1, 0.5, 3.0),
    )


def _vsdbg():
    spots = tuple((b.x, b.h, b.z) for b in BARS[::4][:6])
    picks = tuple((s.sx, s.sy) for s in _tops()[:4])
    scene = {
        "days": DAYS,
        "statuses": list(C.STATUSES),
        "bars": [
            {"key": b.key, "i": b.i, "j": b.j, "count": b.count, "x": b.x, "z": b.z, "h": b.h}
            for b in BARS
        ],
    }
    return VsdbgSnapshot(
        True,
        3,
        scene,
        {"yaw": 35, "pitch": 27, "distance": 30},
        2,
        tuple((p, list(C.DEFAULT_CAMERA.project(p, W, H))) for p in spots),
        tuple((p, C.hit(BARS, C.DEFAULT_CAMERA, *p, W, H).bar.key) for p in picks),
    )


def _camera(**over):
    wheel = C.after_wheel(C.DEFAULT_CAMERA, 400)
    drag = C.after_drag(C.DEFAULT_CAMERA, 120, 0)
    mid = C.after_drag(C.DEFAULT_CAMERA, 60, 0)
    base = dict(
        top_before=200.0,
        top_after_wheel=200.0,
        scroll_before=300.0,
        scroll_after_wheel=300.0,
        camera_after_wheel={"yaw": 35, "pitch": 27, "distance": wheel.distance},
        after_wheel=truthful(wheel),
        camera_after_first_reset={"yaw": 35, "pitch": 27, "distance": 30},
        mid_drag=truthful(mid),
        after_drag=truthful(drag),
        camera_after_drag={"yaw": -7.0, "pitch": 27, "distance": 30},
        frames_before=4,
        frames_after=64,
        draws_before=3,
        draws_after=63,
        idle_frames=0,
        drag_ms=2900.0,
        after_reset=truthful(),
        camera_after_reset={"yaw": 35, "pitch": 27, "distance": 30},
    )
    return CameraProbe(**{**base, **over})


def _cells():
    return {f"{c['day']}|{c['status']}": str(c["count"]) for c in BUCKETS["cells"]}


def golden(**over) -> VizObservation:
    tops = _tops()
    target = max(tops, key=lambda s: C.top_area(_by_key(s.key), C.DEFAULT_CAMERA, W, H))
    bar = _by_key(target.key)
    base = dict(
        scenario=_scenario(),
        canvas=CanvasFacts(
            True, "webgl", {"antialias": False, "alpha": False}, W, H, 40, 200, W, H, 1.0, True
        ),
        draw_calls=1,
        baseline=truthful(),
        vsdbg=_vsdbg(),
        tooltip=TooltipProbe(
            target.sx, target.sy, True, f"{bar.count} {bar.status} · Sat 28 Mar 2026", 4.0, True
        ),
        picks=_picks(),
        depth_pick=_depth_pick(),
        camera=_camera(),
        toggle=ToggleProbe(True, True, _cells(), "true"),
        notice=None,
    )
    return VizObservation(**{**base, **over})


def fallback(**over) -> VizFallbackObservation:
    base = dict(
        scenario=replace(_scenario(draws=None), name="viz_fallback", webgl_refused=1),
        fallback_shown=True,
        cells=_cells(),
        notice="3D view unavailable: WebGL is not supported",
        payment_rows=50,
    )
    return VizFallbackObservation(**{**base, **over})


def observations(viz=None, fb=None, *, unavailable=None, errors=None) -> Observations:
    scenarios = {
        "viz": viz if viz is not None else golden(),
        "viz_fallback": fb if fb is not None else fallback(),
    }
    for name in errors or {}:
        scenarios.pop(name)
    phase = BrowserObservation(unavailable, scenarios if not unavailable else {}, errors or {})
    return Observations(0, EXPECT, frozenset()).with_phase("browser", phase)


def run(check_id, obs=None, settings=None):
    return build_table().evaluate_one(check_id, obs or observations(), settings or CheckSettings())


# -- the golden page earns every top rung -----------------------------------------------------


@pytest.mark.parametrize("check_id", T_CHECKS)
def test_a_truthful_panel_earns_the_top_rung(check_id) -> None:
    row = run(check_id)
    assert (row.status, row.score) == (Status.PASS, 1.0), row.detail
    assert row.detail.startswith("1: ")


def test_details_name_what_was_seen() -> None:
    assert (
        "top " in run("t_scene_binding").detail
        and "3x3 majority within 8" in run("t_scene_binding").detail
    )
    assert "rung >=24; top rung >=24" in run("e_frames_under_drag").detail
    assert "(rung <=3000 ms; top rung <=3000 ms)" in run("p_first_frame").detail
    assert (
        "depth pair" in run("t_picking").detail and "occluder selected" in run("t_picking").detail
    )


# -- no measurement is never the app's zero ---------------------------------------------------


@pytest.mark.parametrize("check_id", T_CHECKS)
def test_no_browser_is_unavailable_with_the_reason(check_id) -> None:
    row = run(check_id, observations(unavailable="Chromium not found at /usr/lib/chromium"))
    assert row.status is Status.UNAVAILABLE and "Chromium not found" in row.detail


@pytest.mark.parametrize("check_id", T_CHECKS)
def test_a_viz_scenario_that_raised_is_unavailable(check_id) -> None:
    row = run(check_id, observations(errors={"viz": "TimeoutError: hard cap"}))
    assert row.status is Status.UNAVAILABLE and "hard cap" in row.detail


def test_a_section_lost_to_the_bound_is_unavailable_only_for_its_checks() -> None:
    obs = observations(golden(lost={"camera": "page-side read exceeded 10 s"}))
    assert run("t_camera", obs).status is Status.UNAVAILABLE
    assert "camera: page-side read exceeded 10 s" in run("e_frames_under_drag", obs).detail
    assert run("t_scene_binding", obs).score == 1.0


# -- t_context_real ---------------------------------------------------------------------------


def test_context_real_missing_canvas_and_mis_sized_backing_store() -> None:
    assert run("t_context_real", observations(golden(canvas=CanvasFacts(False)))).detail == (
        "0: no canvas#viz3d on the page"
    )
    half = replace(golden().canvas, backing_width=W // 2, backing_height=H // 2)
    row = run("t_context_real", observations(golden(canvas=half)))
    assert row.score == 0.85 and "missed: backing" in row.detail


def test_context_real_a_canvas_painted_one_flat_colour_fails_grid_and_corners() -> None:
    flat = Render(paint=lambda _hit: (200, 30, 30))
    row = run("t_context_real", observations(golden(baseline=flat)))
    assert row.score == pytest.approx(0.55) and "missed: grid, corners" in row.detail


# -- t_scene_binding --------------------------------------------------------------------------


def test_a_decorative_canvas_not_bound_to_the_data_fails_scene_binding() -> None:
    # Pretty bars, every status colour, but heights not from the buckets (all 12 tall).
    deco = tuple(replace(b, h=3.0, count=12) for b in BARS)
    row = run("t_scene_binding", observations(golden(baseline=Render(bars=deco))))
    assert row.status is Status.FAIL and row.score < 0.7, row.detail


def test_bars_in_the_wrong_cells_fail_scene_binding() -> None:
    shifted = tuple(replace(b, x=b.x + 1.5) for b in BARS)  # one day off
    row = run("t_scene_binding", observations(golden(baseline=Render(bars=shifted))))
    assert row.score < 0.7, row.detail


def test_one_colour_for_every_status_is_capped_as_a_mono_wash() -> None:
    def wash(found):
        if found is None:
            return C.BACKGROUND
        return C.STATUS_RGB["settled"] if found.face == "top" else C.side_rgb("settled")

    row = run("t_scene_binding", observations(golden(baseline=Render(paint=wash))))
    assert row.score == 0.25 and "mono-wash" in row.detail


def test_a_blank_canvas_scores_zero_not_its_sky_share() -> None:
    blank = Render(paint=lambda _hit: C.BACKGROUND)
    row = run("t_scene_binding", observations(golden(baseline=blank)))
    assert row.score == 0 and "no bar surface where the data puts one" in row.detail


def test_no_framebuffer_scores_zero() -> None:
    row = run("t_scene_binding", observations(golden(baseline=None)))
    assert row.score == 0 and "no framebuffer" in row.detail


# -- t_camera ---------------------------------------------------------------------------------


def test_camera_sign_flipped_drag_earns_half_the_drag_term() -> None:
    flipped = C.after_drag(C.DEFAULT_CAMERA, -120, 0)
    cam = _camera(after_drag=truthful(flipped), camera_after_drag={"yaw": 77.0})
    row = run("t_camera", observations(golden(camera=cam)))
    assert row.score == pytest.approx(0.20 + 0.175 + 0.35), row.detail
    assert "sign-flipped" in row.detail


def test_camera_a_page_that_scrolls_on_wheel_loses_the_wheel_term() -> None:
    cam = _camera(scroll_after_wheel=700.0, top_after_wheel=-200.0, after_wheel=truthful())
    row = run("t_camera", observations(golden(camera=cam)))
    assert row.score == pytest.approx(0.80) and "page scrolled" in row.detail


def test_camera_a_static_canvas_cannot_cash_the_reset() -> None:
    cam = _camera(
        after_wheel=truthful(),
        mid_drag=truthful(),
        after_drag=truthful(),
        camera_after_drag={"yaw": 35},
    )
    row = run("t_camera", observations(golden(camera=cam)))
    assert row.score < 0.1 and "never provably moved" in row.detail


def test_a_canvas_out_of_view_leaves_no_interaction_and_scores_zero() -> None:
    obs = observations(golden(blocked="canvas cannot be brought into view", camera=None))
    for check_id in ("t_camera", "e_frames_under_drag", "t_picking", "t_tooltip"):
        row = run(check_id, obs)
        assert (row.status, row.score) == (Status.FAIL, 0.0), check_id


# -- t_picking --------------------------------------------------------------------------------


def test_a_stale_table_fails_the_pick() -> None:
    picks = list(_picks())
    picks[0] = replace(picks[0], row_statuses=("settled", "pending"))
    row = run("t_picking", observations(golden(picks=tuple(picks))))
    assert row.score == pytest.approx(0.65 * 4 / 5 + 0.35) and "first miss" in row.detail


def test_a_depth_unaware_pick_loses_the_depth_term() -> None:
    _near, far, _ = C.depth_pair(BARS, C.DEFAULT_CAMERA, W, H)
    wrong = replace(_depth_pick(), **_table(far.status))
    row = run("t_picking", observations(golden(depth_pick=wrong)))
    assert row.score == pytest.approx(0.65) and f"want {_near.status!r}" in row.detail


def test_filter_without_a_table_refresh_total_fails() -> None:
    picks = tuple(replace(p, total=BY_STATUS["settled"] + 1) for p in _picks())
    row = run("t_picking", observations(golden(picks=picks)))
    assert row.score == pytest.approx(0.35)


MIXED = ("settled", "pending", "settled", "refunded", "failed")
"""A server that ignores ``status=``: every filter serves the unfiltered first page."""


def _ignoring_server() -> dict:
    return {s: ServedFilter(MIXED, 1553) for s in BY_STATUS}


def _faithful(p):
    return replace(p, row_statuses=MIXED, total=1553)


def test_a_server_side_filter_bug_is_not_absorbed_by_picking() -> None:
    """The table shows what the app's own API served: the pick drove the product; the
    wrong filter is the API rows' defect (issue #13: t_picking took 0.018 of 0.031)."""
    viz = golden(picks=tuple(map(_faithful, _picks())), depth_pick=_faithful(_depth_pick()),
                 served=_ignoring_server())  # fmt: skip
    row = run("t_picking", observations(viz))
    assert row.score == 1.0, row.detail
    assert "the app's own status filter is wrong for failed, pending, refunded, settled" in (
        row.detail)  # fmt: skip


def test_with_a_wrong_server_filter_a_stale_table_still_fails() -> None:
    picks = list(map(_faithful, _picks()))
    picks[0] = replace(picks[0], row_statuses=("settled",) * 5)
    viz = golden(picks=tuple(picks), depth_pick=_faithful(_depth_pick()), served=_ignoring_server())
    row = run("t_picking", observations(viz))
    assert row.score == pytest.approx(0.65 * 4 / 5 + 0.35), row.detail
    assert "rows {settled 5}, want what the app served {failed 1, pending 1, refunded 1, " \
        "settled 2}" in row.detail  # fmt: skip


def test_a_truthful_server_keeps_the_fixture_as_the_judge() -> None:
    truthful_server = {s: ServedFilter((s,) * 5, n) for s, n in BY_STATUS.items()}
    picks = tuple(map(_faithful, _picks()))
    row = run("t_picking", observations(golden(picks=picks, served=truthful_server)))
    assert row.score == pytest.approx(0.35) and "status filter is wrong" not in row.detail


def test_a_miss_prints_only_the_comparisons_that_failed() -> None:
    picks = list(_picks())
    bar = C.hit(BARS, C.DEFAULT_CAMERA, picks[0].sx, picks[0].sy, W, H).bar
    picks[0] = replace(picks[0], row_statuses=(bar.status, "pending" if bar.status != "pending"
                                               else "settled"))  # fmt: skip
    row = run("t_picking", observations(golden(picks=tuple(picks))))
    miss = row.detail.split("first miss: ", 1)[1]
    assert miss.startswith(f"{bar.key}: rows {{") and f"want all {bar.status!r}" in miss
    assert "data-value" not in miss and "total" not in miss, miss


# -- t_tooltip --------------------------------------------------------------------------------


def test_tooltip_rungs() -> None:
    tt = golden().tooltip
    slow = run("t_tooltip", observations(golden(tooltip=replace(tt, latency_ms=300.0))))
    assert slow.score == pytest.approx(0.5 + 0.18 + 0.2) and "rung x0.6" in slow.detail
    wrong = run("t_tooltip", observations(golden(tooltip=replace(tt, text="3 settled"))))
    assert wrong.score == pytest.approx(0.5)
    sticky = run("t_tooltip", observations(golden(tooltip=replace(tt, hidden_after_leave=False))))
    assert sticky.score == pytest.approx(0.8) and "stays off-canvas" in sticky.detail
    never = run("t_tooltip", observations(golden(tooltip=replace(tt, appeared=False))))
    assert never.score == 0 and "never appeared" in never.detail


def test_tooltip_count_prefix_is_not_fooled_by_a_longer_number() -> None:
    tt = golden().tooltip
    bar = C.hit(BARS, C.DEFAULT_CAMERA, tt.sx, tt.sy, W, H).bar
    longer = replace(tt, text=f"{bar.count}0 {bar.status}")
    assert run("t_tooltip", observations(golden(tooltip=longer))).score == pytest.approx(0.5)


# -- t_fallback -------------------------------------------------------------------------------


def test_fallback_without_the_no_webgl_run_pays_at_most_half() -> None:
    row = run("t_fallback", observations(errors={"viz_fallback": "boom"}))
    assert row.score == 0.5 and "at most 0.5 x toggle" in row.detail


def test_fallback_a_page_that_does_not_load_without_webgl_earns_no_grace() -> None:
    row = run("t_fallback", observations(fb=fallback(loaded=False)))
    assert row.score == 0.5 and "did not load" in row.detail


def test_fallback_toggle_that_never_shows_a_table_earns_a_tenth() -> None:
    toggle = ToggleProbe(True, False, {}, "false")
    row = run("t_fallback", observations(golden(toggle=toggle)))
    assert row.score == pytest.approx(0.1 + 0.5)


def test_fallback_notice_also_shown_with_webgl_is_not_credited() -> None:
    row = run("t_fallback", observations(golden(notice="Using 2D fallback")))
    assert row.score == pytest.approx(1 - 0.5 * 0.15) and "also shown" in row.detail


def test_fallback_wrong_cells_and_console_errors_cost_their_share() -> None:
    cells = _cells() | {f"{DAYS[0]}|settled": "21"}
    sc = replace(
        fallback().scenario, page_errors=(SimpleNamespace(name="TypeError", message="gl is null"),)
    )
    row = run("t_fallback", observations(fb=fallback(cells=cells, scenario=sc)))
    graded = sum(1 for c in BUCKETS["cells"] if c["count"])
    want = 0.5 + 0.5 * (0.35 * (graded - 1) / graded + 0.15 + 0.10)
    assert row.score == pytest.approx(want, abs=1e-5) and "1 console errors" in row.detail


# -- t_vsdbg_truth ----------------------------------------------------------------------------


def test_a_lying_vsdbg_fails() -> None:
    vs = _vsdbg()
    phantom = dict(
        vs.scene,
        bars=[
            *vs.scene["bars"],
            {"key": "2026-05-01|settled", "count": 9, "x": 4.5, "z": -2.25, "h": 2.25},
        ],
    )
    off = tuple((p, [a[0] + 3, a[1]]) for p, a in vs.projections)
    lie = replace(vs, scene=phantom, projections=off, picks=tuple((p, "x|y") for p, _ in vs.picks))
    row = run("t_vsdbg_truth", observations(golden(vsdbg=lie)))
    n = len(BARS)
    assert row.score == pytest.approx(0.10 + 0.40 * n / (n + 1)), row.detail
    assert "max projection error 3.00 px" in row.detail and "0/4 picks right" in row.detail


def test_vsdbg_absent_or_wrong_version() -> None:
    gone = run("t_vsdbg_truth", observations(golden(vsdbg=VsdbgSnapshot(False))))
    assert gone.score == 0 and "absent" in gone.detail
    v2 = run("t_vsdbg_truth", observations(golden(vsdbg=replace(_vsdbg(), version="3"))))
    assert v2.score == pytest.approx(0.9)


# -- p_first_frame and e_frames_under_drag ----------------------------------------------------


def test_first_frame_rungs_and_a_canvas_that_never_draws() -> None:
    late = run("p_first_frame", observations(golden(scenario=_scenario(first_draw_ms=4200.0))))
    assert late.score == 0.75 and "rung <=5000 ms" in late.detail
    never = run(
        "p_first_frame", observations(golden(scenario=_scenario(draws=0, first_draw_ms=None)))
    )
    assert never.score == 0 and "never issued a draw call" in never.detail


@pytest.mark.parametrize(
    ("frames", "draws", "score", "says"),
    [
        ((4, 64), (3, 63), 1.0, "rung >=24"),
        ((4, 19), (3, 18), 0.5, "rung >=12"),  # rAF-throttled: a redraw every 4th move
        ((4, 124), (3, 3), 0.0, "empty frame loop"),  # idle rAF loop ticking, drawing nothing
        ((4, 4), (3, 3), 0.0, "empty frame loop"),  # no redraw on drag at all
        ((4, 64), (3, 8), 0.0, "rung <6"),  # a counter that claims frames it never drew
        ((4, 124), (3, 123), 1.0, "rung >=24"),  # an idle animation that does draw every frame
        (("x", 64), (3, 63), 0.0, "unmeasurable"),
    ],
)
def test_frames_under_drag_rungs(frames, draws, score, says) -> None:
    cam = _camera(
        frames_before=frames[0], frames_after=frames[1], draws_before=draws[0], draws_after=draws[1]
    )
    row = run("e_frames_under_drag", observations(golden(camera=cam)))
    assert row.score == score and says in row.detail, row.detail


def test_frames_under_drag_uses_the_calibrated_rungs() -> None:
    settings = CheckSettings(drag_rungs=(48, 36, 24, 12))
    cam = _camera(frames_after=44, draws_after=43)  # 40 frames
    row = run("e_frames_under_drag", observations(golden(camera=cam)), settings)
    assert row.score == 0.75 and "top rung >=48" in row.detail


def test_framebuffer_maps_css_points_to_backing_pixels() -> None:
    rgb = bytes(range(4 * 2 * 3))  # 4x2 backing pixels behind a 2x1 CSS canvas (DPR 2)
    fb = Framebuffer(4, 2, 2.0, 1.0, rgb)
    assert fb.backing(1.5, 0.5) == (3, 1)
    assert fb.pixel(3, 1) == (21, 22, 23) and fb.pixel(9, 9) == (21, 22, 23)  # clamped
    moved = Framebuffer(4, 2, 2.0, 1.0, bytes(24))
    # against black, pixels 0-2 (channels up to 8) are within tolerance: 5 of 8 moved
    assert fb.differing(fb) == 0 and fb.differing(moved) == pytest.approx(5 / 8)
