"""The 3D field's foundation rows (t_context_real, t_layout_basis, t_scene_binding,
t_draw_budget, p_idle_flatness, p_drag_frames, e_frames_under_drag) on canned ``viz``
views: a truthful field earns 1.0 on each; the hostile pages of the brief fail exactly the
row that names them (a div, an image, a flat colour, a 12,288-draw loop, an idle loop, a
lying or UTC-bucketed vs7dbg); a lost section or no browser is UNAVAILABLE, never a 0."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest
from sb7_observations import row
from sb7_viz_canned import BG, SETTLED, at, digest, records, viz_view, window, with_viz

from benchwright.model import Status
from benchwright.suites.sb7.viz import scene
from benchwright.suites.sb7.viz.view import ContextFacts, Counters, Drag, Vs7Answer, Window

ROWS = ("t_context_real", "t_layout_basis", "t_scene_binding", "t_draw_budget",
        "p_idle_flatness", "p_drag_frames", "e_frames_under_drag")  # fmt: skip
_view, _obs, _at, _window = viz_view, with_viz, at, window


def test_a_truthful_field_earns_one_on_every_foundation_row() -> None:
    obs = _obs()
    got = {c: (row(obs, c).score, row(obs, c).detail) for c in ROWS}
    assert {c: s for c, (s, _d) in got.items() if s != 1.0} == {}, got


def test_a_page_that_starved_the_probe_by_redrawing_at_rest_fails_idle_flatness() -> None:
    """Its redraws at rest slowed every page-side read past the bound (a section lost):
    the rest the probe then waited out with longer reads shows the draws, so the row is
    the app's 0, not UNAVAILABLE; a quiet rest, one late frame (a busy host's queue), or
    none measured, leaves it unproven."""
    lost = {"idle": "page-side read exceeded 10 s"}
    drawing = _view(lost=lost, starved=_window(3000, draws=9, frames=9, ms=2004))
    got = row(_obs(drawing), "p_idle_flatness")
    assert got.status is Status.FAIL and got.score == 0.0
    assert "redraws at rest: 9 default-framebuffer draws in 2004 ms" in got.detail
    for rest in (None, _window(3000, ms=2004), _window(3000, draws=1, frames=1, ms=2004)):
        still = row(_obs(_view(lost=lost, starved=rest)), "p_idle_flatness")
        assert still.status is Status.UNAVAILABLE, still.detail


def test_a_styled_div_or_an_image_is_no_field() -> None:
    for facts in (ContextFacts(True), ContextFacts(False)):
        obs = _obs(_view(context=facts, drag=None))
        assert row(obs, "t_context_real").score == 0.0
        assert row(obs, "t_draw_budget").score == 0.0
        assert row(obs, "p_idle_flatness").score == 0.0  # nothing drawn: unproven
    canvas = ContextFacts(True, True)  # a canvas nobody created a context on
    assert row(_obs(_view(context=canvas, drag=None)), "t_context_real").score == 0.0


@pytest.mark.parametrize(
    ("change", "score"),
    [
        ({"asked": {"antialias": True, "alpha": False}}, 0.85),
        ({"asked": {}}, 0.85),  # unpinned: the defaults are antialias/alpha true
        ({"backing": (583, 220)}, 0.80),  # a backing store at half the CSS size
        ({"draws": 0}, 0.85),
        ({"samples": (BG,) * 150 + (SETTLED,) * 10}, 0.75),  # one flat colour
        ({"samples": (BG,) * 160}, 0.75),  # nothing on the canvas
    ],
)
def test_each_context_part_costs_its_weight(change, score) -> None:
    seen = _view(context=replace(_view().context, **change))
    assert row(_obs(seen), "t_context_real").score == pytest.approx(score)


def test_a_wrong_basis_cell_costs_a_third() -> None:
    layout = dict(_view().vs7dbg["layout"].value, R0=999)
    seen = _view(vs7dbg={**_view().vs7dbg, "layout": Vs7Answer(layout)})
    assert row(_obs(seen), "t_layout_basis").score == pytest.approx(2 / 3)


def test_a_basis_that_moves_after_a_streamed_create_is_capped_at_a_quarter() -> None:
    """§12: the basis is locked at load; the stream section's create must not move it."""
    run = _view().stream
    assert run is not None and run.create is not None
    kept = row(_obs(_view()), "t_layout_basis")
    assert kept.score == 1.0 and "unchanged after the streamed create" in kept.detail
    moved = replace(run.create, after={**run.create.after, "R0": run.create.after["R0"] + 1})
    got = row(_obs(_view(stream=replace(run, create=moved))), "t_layout_basis")
    assert got.score == 0.25 and got.evidence["basis_moved"] is True and "capped" in got.detail
    lost = replace(moved, received=False)  # never reached the page: nothing to hold it to
    unmeasured = row(_obs(_view(stream=replace(run, create=lost))), "t_layout_basis")
    assert unmeasured.score == 1.0 and "leg unmeasured" in unmeasured.detail


def test_a_lying_digest_pays_half_its_matching_fraction() -> None:
    lie = dict(_view().vs7dbg["sceneDigest"].value, Sh=1.0)
    seen = _view(vs7dbg={**_view().vs7dbg, "sceneDigest": Vs7Answer(lie)})
    assert row(_obs(seen), "t_scene_binding").score == pytest.approx(0.5 * 6 / 7)


def _utc(r: scene.Record) -> scene.Record:
    day = datetime.fromisoformat(r.created_at.replace("Z", "+00:00")).date().isoformat()
    return replace(r, day=day)


def test_a_utc_day_layout_is_measurably_wrong() -> None:
    utc = [_utc(r) for r in list(records())]
    assert sum(a.day != b.day for a, b in zip(utc, list(records()), strict=True)) > 0
    seen = _view(vs7dbg={**_view().vs7dbg, "sceneDigest": Vs7Answer(digest(utc))})
    got = row(_obs(seen), "t_scene_binding")
    assert got.score < 0.5 and "Sx" in got.detail


def test_an_absent_vs7dbg_is_the_apps_zero_attributed_to_the_root() -> None:
    got = row(_obs(_view(vs7dbg=None)), "t_scene_binding")
    assert (got.status, got.score, got.evidence["blocked_by"]) == (Status.FAIL, 0.0,
                                                                   "t_vs7dbg_truth")  # fmt: skip
    thrown = _view(vs7dbg={"layout": Vs7Answer(error="boom")})
    assert "threw" in row(_obs(thrown), "t_layout_basis").detail


def test_a_draw_per_column_is_over_budget() -> None:
    loop = Drag(40, Window(_at(0.0), _at(1700.0, 12_288 * 30, 30)))
    assert row(_obs(_view(drag=loop)), "t_draw_budget").score == 0.25
    none = Drag(40, Window(_at(0.0), _at(1700.0)))
    assert row(_obs(_view(drag=none)), "t_draw_budget").score == 0.0


def test_an_idle_loop_fails_flatness_and_a_streamed_window_is_excluded() -> None:
    looping = _view(idle=(_window(0, draws=30, frames=30), _window(600)))
    assert row(_obs(looping), "p_idle_flatness").score == 0.0
    streamed = _view(idle=(_window(0, draws=3, frames=1, sse=1), _window(600)))
    assert row(_obs(streamed), "p_idle_flatness").score == 1.0
    only_streamed = _view(idle=(_window(0, draws=3, frames=1, sse=1),))
    assert row(_obs(only_streamed), "p_idle_flatness").score == 0.0


@pytest.mark.parametrize(("frames", "p", "e"),
                         [(42, 1.0, 1.0), (33, 1.0, 0.75), (25, 0.75, 0.5), (16, 0.5, 0.25),
                          (12, 0.25, 0.25), (7, 0.0, 0.0)])  # fmt: skip
def test_drag_frames_climb_the_floors(frames, p, e) -> None:
    seen = _view(drag=Drag(40, Window(_at(0.0), _at(1700.0, 2 * frames, frames))))
    assert row(_obs(seen), "p_drag_frames").score == p
    assert row(_obs(seen), "e_frames_under_drag").score == e


def test_frames_without_draws_earn_no_excellence() -> None:
    ticking = Counters(1700.0, 0, 0, 0, 0, 0, 40, 0)  # a frame counter with zero draws
    seen = _view(drag=Drag(40, Window(_at(0.0), ticking)))
    assert row(_obs(seen), "e_frames_under_drag").score == 0.0


def test_a_lost_section_or_no_browser_is_unavailable_never_a_zero() -> None:
    lost = _view(lost={"drag": "page-side read exceeded 10 s", "vs7dbg": "read failed"})
    for check in ("t_draw_budget", "p_drag_frames", "e_frames_under_drag", "t_scene_binding"):
        assert row(_obs(lost), check).status is Status.UNAVAILABLE
    gone = _obs(unavailable="no Chromium")
    assert {row(gone, c).status for c in ROWS} == {Status.UNAVAILABLE}
    failed = _obs(unavailable=None, scenario_errors={"viz": "RuntimeError: x"})
    assert {row(failed, c).status for c in ROWS} == {Status.UNAVAILABLE}
