"""The contract's camera math (facts C7) against points worked out by hand.

k = 1/tan 25 deg = 2.1445069. A camera at yaw 0, pitch 0, distance 10 sits at (0, 3, 10)
looking down -z, so r = (1, 0, 0) and u = (0, 1, 0): a point one unit right of the target
is at xc = 1, zc = 10 and lands at sx = (k/aspect * 0.1 + 1) / 2 * W.
"""

from __future__ import annotations

import math

import pytest

from benchwright.suites.vspro.browser import camera as C

K = 2.1445069205095586


def test_k_is_one_over_tan_25_degrees() -> None:
    assert pytest.approx(K) == C.K


def test_default_eye_follows_the_orbit_formula() -> None:
    eye = C.DEFAULT_CAMERA.eye()
    # 30 cos27 = 26.730196; sin35 = 0.573576, cos35 = 0.819152; 30 sin27 = 13.619715
    assert eye == pytest.approx((15.331810, 16.619715, 21.896094), abs=1e-5)


def test_basis_looking_down_minus_z() -> None:
    f, r, u = C.Camera(0, 0, 10).basis()
    assert f == pytest.approx((0, 0, -1)) and r == pytest.approx((1, 0, 0))
    assert u == pytest.approx((0, 1, 0))


@pytest.mark.parametrize(
    ("cam", "point", "size", "want"),
    [
        (C.Camera(0, 0, 10), (0, 3, 0), (100, 100), (50, 50)),  # the target: centre
        (C.Camera(0, 0, 10), (1, 3, 0), (100, 100), (50 + K * 5, 50)),  # 60.7225
        (C.Camera(0, 0, 10), (0, 4, 0), (100, 100), (50, 50 - K * 5)),  # 39.2775, y down
        (C.Camera(0, 0, 10), (1, 3, 0), (200, 100), (100 + K / 2 * 10, 50)),  # aspect 2
        (C.Camera(90, 0, 10), (0, 3, -1), (100, 100), (50 + K * 5, 50)),  # eye at +x
        (C.DEFAULT_CAMERA, (0, 3, 0), (1166, 440), (583, 220)),
    ],
)
def test_projection_of_hand_computed_points(cam, point, size, want) -> None:
    assert cam.project(point, *size) == pytest.approx(want, abs=1e-6)


def test_points_at_or_behind_the_near_plane_are_not_projected() -> None:
    cam = C.Camera(0, 0, 10)  # zc = 10 - z
    assert cam.project((0, 3, 10), 100, 100) is None
    assert cam.project((0, 3, 9.9), 100, 100) is None  # zc = 0.1 exactly: not projected
    assert cam.project((0, 3, 9.85), 100, 100) is not None


def test_ray_inverts_projection() -> None:
    cam = C.DEFAULT_CAMERA
    point = (-4.5, 7.25, 2.25)
    sx, sy = cam.project(point, 1166, 440)
    d = cam.ray(sx, sy, 1166, 440)
    eye = cam.eye()
    to = [p - e for p, e in zip(point, eye, strict=True)]
    n = math.hypot(*to)
    assert d == pytest.approx(tuple(c / n for c in to), abs=1e-9)


def test_input_laws_and_clamps() -> None:
    assert C.after_drag(C.DEFAULT_CAMERA, 120, 0) == C.Camera(-7.0, 27, 30)
    assert C.after_drag(C.DEFAULT_CAMERA, 0, 300).pitch == 85
    assert C.after_drag(C.DEFAULT_CAMERA, 0, -100).pitch == 5
    assert C.after_wheel(C.DEFAULT_CAMERA, 400).distance == pytest.approx(48.4822320658)
    assert C.after_wheel(C.DEFAULT_CAMERA, 5000).distance == 90
    assert C.after_wheel(C.DEFAULT_CAMERA, -5000).distance == 10


def test_yaw_is_compared_modulo_360() -> None:
    assert C.angle_between(-7, 353) == pytest.approx(0)
    assert C.angle_between(10, 350) == pytest.approx(20)
    assert C.angle_between(-7, 77) == pytest.approx(84)


BUCKETS = {
    "days": ["2026-03-28", "2026-03-29", "2026-03-30"],
    "statuses": ["settled", "pending", "refunded", "failed"],
    "cells": [
        {"day": "2026-03-28", "status": "settled", "count": 8},
        {"day": "2026-03-29", "status": "failed", "count": 0},  # zero: no bar
        {"day": "2026-03-30", "status": "failed", "count": 4},
        {"day": "2026-03-30", "status": "disputed", "count": 3},  # not in the contract
    ],
}


def test_scene_bars_follow_the_contract() -> None:
    bars = {b.key: b for b in C.scene_bars(BUCKETS)}
    assert sorted(bars) == ["2026-03-28|settled", "2026-03-30|failed"]
    settled, failed = bars["2026-03-28|settled"], bars["2026-03-30|failed"]
    assert (settled.x, settled.z, settled.h) == (-1.5, -2.25, 2.0)
    assert (failed.i, failed.j, failed.x, failed.z, failed.h) == (2, 3, 1.5, 2.25, 1.0)


def test_side_colour_is_each_channel_times_062_rounded() -> None:
    assert C.side_rgb("settled") == (14, 101, 46)  # 13.64, 101.06, 45.88
    assert C.side_rgb("pending") == (152, 98, 7)  # 151.9, 97.96, 6.82


def _bar(key: str, status: str, x: float, z: float, h: float) -> C.Bar:
    return C.Bar(key, key, status, 0, 0, int(h * 4), x, z, h)


def test_hit_returns_the_nearest_face() -> None:
    cam = C.Camera(0, 0, 10)  # eye (0, 3, 10), looking down -z through the centre
    tall = _bar("tall", "settled", 0, 0, 4)
    assert C.hit((tall,), cam, 50, 50, 100, 100).face == "side"
    assert C.hit((tall,), cam, 50, 50, 100, 100).t == pytest.approx(9.5)  # front face z=0.5
    short = _bar("short", "failed", 0, 0, 2)
    assert C.hit((short,), cam, 50, 50, 100, 100) is None  # the ray passes over it
    above = C.Camera(0, 45, 10)
    sx, sy = above.project((0, 2, 0), 100, 100)
    found = C.hit((short,), above, sx, sy, 100, 100)
    assert found.face == "top" and found.bar == short


def test_samples_keep_clear_points_and_drop_tiny_faces() -> None:
    bar = _bar("b", "pending", 0, 0, 3)
    cam = C.DEFAULT_CAMERA
    kinds = {s.kind for s in C.samples((bar,), cam, 1000, 500)}
    assert kinds == {"top", "side", "above", "sky"}
    top = next(s for s in C.samples((bar,), cam, 1000, 500) if s.kind == "top")
    assert (top.sx, top.sy) == pytest.approx(cam.project((0, 3, 0), 1000, 500))
    assert top.expect == C.STATUS_RGB["pending"] and top.key == "b"
    # on a 120x60 canvas the 1x1 top covers under 25 px^2: no top sample
    assert C.top_area(bar, cam, 120, 60) < 25
    assert not [s for s in C.samples((bar,), cam, 120, 60) if s.kind == "top"]


def test_depth_pair_finds_a_nearer_bar_of_another_status() -> None:
    cam = C.Camera(0, 27, 30)  # eye at (0, 16.6, 26.7): the bar at larger z is nearer
    far = _bar("far", "settled", 0, -1.5, 2)
    near = _bar("near", "failed", 0, 1.5, 8)
    found = C.depth_pair((far, near), cam, 1000, 500)
    assert found is not None and found[0] == near and found[1] == far
    same = _bar("same", "settled", 0, 1.5, 8)
    assert C.depth_pair((far, same), cam, 1000, 500) is None  # same status: no pair
