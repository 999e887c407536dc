"""t_brush_link on canned views: a field whose table row and column share one brush earns
1.0; a field that ignores the table's door, one that never dims, a count that lags, a
table that stays put, a background click that keeps the set each lose a ninth; neither
door at all is 0; a lost section is UNAVAILABLE."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sb7_observations import row
from sb7_viz_canned import brush_run, viz_view, with_viz

from benchwright.model import Status


def _score(**changes) -> float:
    return row(with_viz(viz_view(brush=brush_run(**changes))), "t_brush_link").score


def test_one_brush_behind_both_doors_earns_one() -> None:
    got = row(with_viz(viz_view()), "t_brush_link")
    assert (got.status, got.score) == (Status.PASS, 1.0), got.detail


def test_each_broken_link_costs_a_ninth() -> None:
    run = brush_run()
    undimmed = replace(run.after_row, pixels=brush_run().after_ground.pixels)
    assert _score(after_row=undimmed) == pytest.approx(8 / 9)
    assert _score(after_row=replace(run.after_row, count="0")) == pytest.approx(8 / 9)
    assert _score(shown=None) == pytest.approx(7 / 9)
    assert _score(shown={"brushed": "true", "inView": False}) == pytest.approx(8 / 9)
    kept = replace(run.after_ground, brush=[run.row], pixels=run.after_row.pixels)
    assert _score(after_ground=kept) == pytest.approx(7 / 9)


def test_a_field_that_ignores_the_table_loses_the_row_door() -> None:
    run = brush_run()
    ignored = replace(run.after_row, brush=[], count="0", pixels=run.after_ground.pixels)
    field_only = replace(run.after_field, brush=[run.target])
    assert _score(after_row=ignored, after_field=field_only) == pytest.approx(6 / 9)


def test_neither_door_is_zero_and_a_lost_section_unavailable() -> None:
    run = brush_run()
    none = replace(run.after_row, brush=[])
    assert _score(after_row=none, after_field=replace(run.after_field, brush=[])) == 0.0
    lost = row(with_viz(viz_view(lost={"brush": "page-side read exceeded 10 s"})), "t_brush_link")
    assert lost.status is Status.UNAVAILABLE
