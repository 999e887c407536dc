"""The coast rows (t_coast_identity, t_coast_reality) on canned coasts over the canned
run's scene: the closed form of §8.4 earns 1.0 on both; a decay tuned per 60 Hz frame
under a slow renderer fails the identity, a slow release that coasts and a late rest each
cost their quarter, a camera() that coasts while the pixels stand still earns nothing for
its pixels, a flick the host could not make is UNAVAILABLE, and no coast at all is 0."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from sb7_observations import dead_sync, row
from sb7_viz_canned import (
    CANVAS,
    FRAME_MS,
    GRID,
    START,
    UP,
    V0,
    cam,
    closed_form,
    flick,
    slow,
    spots,
    viz_view,
    with_viz,
)

from benchwright.model import Status
from benchwright.suites.sb7.viz.view import CoastFrame, CoastRun, Release


def seen(flick_run: Release | None = None, slow_run: Release | None = None, **view):
    run = CoastRun(CANVAS, GRID, flick_run or flick(), slow_run or slow())
    return with_viz(viz_view(coast=run, **view))


def score(obs, check: str) -> float:
    return row(obs, check).score


def test_the_closed_form_earns_one_on_both_rows() -> None:
    obs = seen()
    got = {c: row(obs, c) for c in ("t_coast_identity", "t_coast_reality")}
    assert {c: r.score for c, r in got.items()} == {c: 1.0 for c in got}, \
        [r.detail for r in got.values()]  # fmt: skip
    assert got["t_coast_identity"].evidence["samples"] == 4


def test_a_decay_tuned_per_60hz_frame_fails_the_identity_and_the_rest() -> None:
    """v ← 0.96·v, yaw ← yaw + v/60 per frame: right at 60 fps, 24 times too slow at 2.5."""
    frames, yaw, v = [CoastFrame(UP + 5, cam(START[0], V0))], START[0], V0
    for k in range(1, 11):  # the probe's 4 s bound: still coasting
        yaw, v = yaw + v / 60, v * math.exp(-1 / 24)
        frames.append(CoastFrame(UP + k * FRAME_MS, cam(yaw, v)))
    sixty = flick(frames=tuple(frames), rested=False, rest=cam(yaw, v))
    found = row(seen(sixty), "t_coast_identity")
    assert found.score < 0.5 and found.evidence["settle_s"] is None, found.detail


def test_a_camera_that_coasts_while_the_pixels_stand_still_earns_no_pixels() -> None:
    frames, _rest = closed_form()
    frozen = flick(spots=spots(frames, still=True))
    assert score(seen(frozen), "t_coast_reality") == pytest.approx(0.6)
    assert score(seen(frozen), "t_coast_identity") == 1.0  # camera() alone tells the law


def test_a_slow_release_that_coasts_costs_a_quarter() -> None:
    assert score(seen(slow_run=slow(drift=3.0)), "t_coast_identity") == pytest.approx(0.75)


def test_a_late_rest_costs_a_quarter_and_is_the_timing_part() -> None:
    frames, _rest = closed_form()
    late = (*frames[:-1], replace(frames[-1], t=UP + 3200))  # rests at 3.2 s
    found = row(seen(flick(frames=late)), "t_coast_identity")
    assert found.score == pytest.approx(0.75) and found.evidence["timing_score"] == 0.0


def test_a_coast_against_the_drag_loses_the_direction() -> None:
    """The same coast after a drag to the left (yaw should have risen)."""
    assert score(seen(flick(dx_px=-320.0)), "t_coast_reality") == pytest.approx(0.8)


def test_no_coast_at_all_scores_zero_on_both() -> None:
    still = [CoastFrame(UP + 5, cam(START[0]))]
    run = flick(camera=cam(START[0]), frames=tuple(still), rest=cam(START[0]),
                spots=spots(still))  # fmt: skip
    assert (score(seen(run), "t_coast_identity"), score(seen(run), "t_coast_reality")) == (0, 0)


@pytest.mark.parametrize("run", [
    {"flick_run": flick(dx_px=124.0)},  # 310 px/s: the host's frame time
    {"slow_run": replace(slow(), dx_px=20.0, dt_ms=400.0)},  # 50 px/s
    {"flick_run": flick(frames=flick().frames[:1] + flick().frames[-1:],
                        spots=flick().spots[:1] + flick().spots[-1:])},  # nothing mid-coast
])  # fmt: skip
def test_what_the_host_could_not_measure_is_unavailable(run) -> None:
    obs = seen(**run)
    for check in ("t_coast_identity", "t_coast_reality"):
        found = row(obs, check)
        assert found.status is Status.UNAVAILABLE and "PROBE UNAVAILABLE" in found.detail


def test_a_lost_section_a_dead_sync_and_no_vs7dbg_are_not_the_coasts_score() -> None:
    lost = row(seen(lost={"coast": "page-side read exceeded 10 s"}), "t_coast_reality")
    assert lost.status is Status.UNAVAILABLE
    dead = row(with_viz(viz_view(coast=CoastRun(CANVAS, GRID, flick(), slow())), dead_sync()),
               "t_coast_identity")  # fmt: skip
    assert dead.evidence.get("blocked_by") == "sync_completeness" and dead.score == 0.0
    absent = row(seen(vs7dbg=None), "t_coast_identity")
    assert absent.score == 0.0 and absent.evidence["blocked_by"] == "t_vs7dbg_truth"
