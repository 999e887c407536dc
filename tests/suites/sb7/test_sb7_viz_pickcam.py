"""Picking, the camera laws and the vs7dbg root (t_pick_buffer, t_pick_real_pass,
t_camera_math, t_vs7dbg_truth) on canned views built from the truth's own scene: a
truthful field earns 1.0; last-drawn-wins picking, fabricated pickPixel bytes, a CPU pick
with no offscreen pass, a flashing visible canvas, a sign-flipped drag, a scrolling wheel,
a reset that keeps the coast, and a lying frames() each lose what §12 says."""

from __future__ import annotations

import functools
from dataclasses import replace

import pytest
from sb7_observations import perfect, row
from test_sb7_viz_checks import _obs, _view

from benchwright.suites.sb7.checks._viz import expected_colour, truth_scene
from benchwright.suites.sb7.viz import aim
from benchwright.suites.sb7.viz import camera as C
from benchwright.suites.sb7.viz.view import CameraRun, Counters, PickProbe, PickRun, VizView

POSE, CANVAS = (30.0, 15.0, 35.0), (1166.0, 440.0)
HOME = {"yaw": 30.0, "pitch": 40.0, "distance": 260.0, "vyaw": 0.0, "vpitch": 0.0}


def _c(off_draws: int = 0, off_reads: int = 0, draws: int = 50) -> Counters:
    return Counters(0.0, draws, off_draws, off_reads, 0, 0, 5, 0)


@functools.cache
def _screen() -> C.Screen:
    _basis, columns = truth_scene(perfect(), _view())
    return C.Screen(columns, C.View(C.Pose(*POSE), *CANVAS))


def _identity(n: int | None) -> tuple[int, int, int, int]:
    k = 0 if n is None else n + 1
    return (k & 255, (k >> 8) & 255, (k >> 16) & 255, 255)


def _probe(sx: int, sy: int, answer=lambda hits: hits[0] if hits else None) -> PickProbe:
    at = _screen()
    hit = answer(at.hits(sx + 0.5, sy + 0.5))
    n = None if hit is None else hit.column.n
    pick = None if hit is None else {"id": hit.column.id, "index": n}
    shown = expected_colour(_view(), aim.front(at, sx, sy))
    return PickProbe(float(sx), float(sy), pick, _identity(n), shown)


@functools.cache
def _points() -> tuple[tuple[int, int], ...]:
    return tuple(aim.aim(_screen()))


def _picks(**changes) -> PickRun:
    probes = tuple(_probe(*p) for p in _points())
    run = PickRun(POSE, CANVAS, {**HOME, "yaw": 30.0, "pitch": 15.0, "distance": 35.0},
                  _c(), _c(off_draws=2, off_reads=1), _c(2, 1), _c(2, 1), probes)  # fmt: skip
    return replace(run, **changes)


def _camera(**changes) -> CameraRun:
    run = CameraRun(CANVAS, 80.0, HOME, {**HOME, "yaw": 6.0}, 100.0,
                    ({**HOME}, {**HOME, "distance": 260 * 1.1274968515793757},
                     {**HOME, "distance": 260 * 1.1274968515793757**2}), (0.0, 0.0),
                    {**HOME, "pitch": 85.0}, {**HOME, "distance": 340.0}, (HOME, HOME))  # fmt: skip
    return replace(run, **changes)


def _full(**changes) -> VizView:
    return _view(**{"camera": _camera(), "picks": (_picks(),), **changes})


def _score(seen: VizView, check: str) -> float:
    return row(_obs(seen), check).score


def test_the_aimed_points_cover_every_construction() -> None:
    found = set().union(*(aim.kinds(_screen(), *p) for p in _points()))
    assert found == set(aim.KINDS)


def test_a_truthful_field_earns_one_on_picks_camera_and_the_root() -> None:
    seen = _full()
    got = {c: row(_obs(seen), c) for c in ("t_pick_buffer", "t_pick_real_pass",
                                             "t_camera_math", "t_vs7dbg_truth")}  # fmt: skip
    assert {c: (r.score, r.detail) for c, r in got.items() if r.score != 1.0} == {}


def test_last_drawn_wins_fails_a_construction_and_its_picks() -> None:
    last = lambda hits: max(hits, key=lambda h: h.column.n) if hits else None  # noqa: E731
    probes = tuple(_probe(*p, answer=last) for p in _points())
    seen = _full(picks=(_picks(points=probes),))
    assert _score(seen, "t_pick_buffer") < 0.9
    assert _score(seen, "t_vs7dbg_truth") == pytest.approx(0.8)


def test_fabricated_pick_bytes_disagree() -> None:
    probes = tuple(replace(_probe(*p), pixel=(1, 0, 0, 255)) for p in _points())
    assert _score(_full(picks=(_picks(points=probes),)), "t_pick_buffer") <= 0.4


@pytest.mark.parametrize("counters", [
    {"first_pick": _c()},  # a CPU raycast: no offscreen draw, no readback
    {"first_pick": _c(off_draws=2)},  # drawn but never read back
    {"first_pick": _c(off_draws=9, off_reads=1)},  # over the 4-draw refresh
    {"after_picks": _c(2, 1, draws=51)},  # the ID colours flashed on the visible canvas
])  # fmt: skip
def test_a_pick_pass_that_is_not_real_gpu_work_scores_zero(counters) -> None:
    assert _score(_full(picks=(_picks(**counters),)), "t_pick_real_pass") == 0.0


@pytest.mark.parametrize("change", [
    {"during_drag": {**HOME, "yaw": 54.0}},  # sign-flipped drag
    {"scroll": (0.0, 100.0)},  # the wheel scrolled the page
    {"pitch_clamp": {**HOME, "pitch": 90.0}},
    {"distance_clamp": {**HOME, "distance": 500.0}},
    {"reset": ({**HOME, "vyaw": 120.0}, HOME)},  # the reset kept the coast's velocity
])  # fmt: skip
def test_each_broken_camera_law_costs_a_seventh(change) -> None:
    seen = _full(camera=_camera(**change))
    assert _score(seen, "t_camera_math") == pytest.approx(6 / 7)


def test_an_image_that_disagrees_with_camera_is_caught_in_pixels() -> None:
    moved = tuple(replace(p, shown=(16, 24, 40)) for p in _picks().points)
    seen = _full(picks=(_picks(points=moved),))
    assert _score(seen, "t_camera_math") == pytest.approx(6 / 7)
    assert _score(seen, "t_vs7dbg_truth") == pytest.approx(0.7)


def test_a_frames_counter_that_ticks_without_drawing_lies() -> None:
    drag = _view().drag
    lying = replace(drag, window=replace(drag.window, start=replace(drag.window.start,
                    vs_frames=0.0), end=replace(drag.window.end, vs_frames=400.0)))  # fmt: skip
    assert _score(_full(drag=lying), "t_vs7dbg_truth") == pytest.approx(0.8)


def test_an_absent_vs7dbg_is_the_roots_own_zero() -> None:
    got = row(_obs(_full(vs7dbg=None)), "t_vs7dbg_truth")
    assert got.score == 0.0 and "blocked_by" not in got.evidence
    assert row(_obs(_full(vs7dbg=None)), "t_pick_buffer").evidence["blocked_by"] == "t_vs7dbg_truth"
