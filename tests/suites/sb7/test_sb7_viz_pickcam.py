"""Picking, clicks, the camera laws and the vs7dbg root (t_pick_buffer, t_pick_real_pass,
t_click_semantics, t_camera_math, t_vs7dbg_truth) on canned views built from the truth's
own scene: a truthful field earns 1.0; last-drawn-wins picking, fabricated pickPixel
bytes, a CPU pick with no offscreen pass, a flashing visible canvas, clicks that do not
toggle, a sign-flipped drag, a scrolling wheel, a reset that keeps the coast, and a lying
frames() each lose what §12 says."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sb7_observations import row
from sb7_viz_canned import (
    camera_run,
    clicks,
    off,
    picks,
    points,
    probe,
    screen,
    viz_view,
    with_viz,
)

from benchwright.suites.sb7.viz import aim
from benchwright.suites.sb7.viz.view import VizView

HOME = {"yaw": 30.0, "pitch": 40.0, "distance": 260.0, "vyaw": 0.0, "vpitch": 0.0}


def _full(**changes) -> VizView:
    return viz_view(**changes)


def _score(seen: VizView, check: str) -> float:
    return row(with_viz(seen), check).score


def test_the_aimed_points_cover_every_construction() -> None:
    found = set().union(*(aim.kinds(screen(), *p) for p in points()))
    assert found == set(aim.KINDS)


def test_a_truthful_field_earns_one_on_picks_camera_and_the_root() -> None:
    seen = _full()
    got = {c: row(with_viz(seen), c) for c in ("t_pick_buffer", "t_pick_real_pass",
           "t_click_semantics", "t_camera_math", "t_vs7dbg_truth")}  # fmt: skip
    assert {c: (r.score, r.detail) for c, r in got.items() if r.score != 1.0} == {}


def test_last_drawn_wins_fails_a_construction_and_itspicks() -> None:
    last = lambda hits: max(hits, key=lambda h: h.column.n) if hits else None  # noqa: E731
    probes = tuple(probe(*p, answer=last) for p in points())
    seen = _full(picks=(picks(points=probes),))
    assert _score(seen, "t_pick_buffer") < 0.9
    assert _score(seen, "t_vs7dbg_truth") == pytest.approx(0.8)


def test_fabricated_pick_bytes_disagree() -> None:
    probes = tuple(replace(probe(*p), pixel=(1, 0, 0, 255)) for p in points())
    assert _score(_full(picks=(picks(points=probes),)), "t_pick_buffer") <= 0.4


@pytest.mark.parametrize("counters", [
    {"first_pick": off()},  # a CPU raycast: no offscreen draw, no readback
    {"first_pick": off(off_draws=2)},  # drawn but never read back
    {"first_pick": off(off_draws=9, off_reads=1)},  # over the 4-draw refresh
    {"after_picks": off(2, 1, draws=51)},  # the ID colours flashed on the visible canvas
])  # fmt: skip
def test_a_pick_pass_that_is_not_real_gpu_work_scores_zero(counters) -> None:
    assert _score(_full(picks=(picks(**counters),)), "t_pick_real_pass") == 0.0


@pytest.mark.parametrize("change", [
    {"during_drag": {**HOME, "yaw": 54.0}},  # sign-flipped drag
    {"scroll": (0.0, 100.0)},  # the wheel scrolled the page
    {"pitch_clamp": {**HOME, "pitch": 90.0}},
    {"distance_clamp": {**HOME, "distance": 500.0}},
    {"reset": ({**HOME, "vyaw": 120.0}, HOME)},  # the reset kept the coast's velocity
])  # fmt: skip
def test_each_broken_camera_law_costs_a_seventh(change) -> None:
    seen = _full(camera=camera_run(**change))
    assert _score(seen, "t_camera_math") == pytest.approx(6 / 7)


def test_an_image_that_disagrees_with_camera_is_caught_in_pixels() -> None:
    moved = tuple(replace(p, shown=(16, 24, 40)) for p in picks().points)
    seen = _full(picks=(picks(points=moved),))
    assert _score(seen, "t_camera_math") == pytest.approx(6 / 7)
    assert _score(seen, "t_vs7dbg_truth") == pytest.approx(0.7)


def test_a_frames_counter_that_ticks_without_drawing_lies() -> None:
    drag = viz_view().drag
    lying = replace(drag, window=replace(drag.window, start=replace(drag.window.start,
                    vs_frames=0.0), end=replace(drag.window.end, vs_frames=400.0)))  # fmt: skip
    assert _score(_full(drag=lying), "t_vs7dbg_truth") == pytest.approx(0.8)


def test_an_absent_vs7dbg_is_the_roots_own_zero() -> None:
    got = row(with_viz(_full(vs7dbg=None)), "t_vs7dbg_truth")
    assert got.score == 0.0 and "blocked_by" not in got.evidence
    assert (
        row(with_viz(_full(vs7dbg=None)), "t_pick_buffer").evidence["blocked_by"]
        == "t_vs7dbg_truth"
    )


@pytest.mark.parametrize(("brush", "score"), [
    (([], [], [], [], []), 0.0),  # clicks do nothing
    (([], ["x"], [], ["x"], []), 0.0),  # toggles another record
    (([], "TARGET", "TARGET", "TARGET", "TARGET"), 1 / 3),  # never toggles out, never clears
])  # fmt: skip
def test_click_semantics_lose_a_third_per_broken_door(brush, score) -> None:
    pid = clicks().brush[1][0]
    brush = tuple([pid] if b == "TARGET" else b for b in brush)
    seen = _full(clicks=clicks(brush=brush))
    assert _score(seen, "t_click_semantics") == pytest.approx(score)
