"""t_labels_culling on canned views at the decisive pose the probe chooses for the canned
collection (both culls happen there): a page labelling as §8.5 says earns 1.0; one that
never culls collisions, one that ignores its own pick buffer, a wrong offset, a wrong size
or a missing ``data-id`` each lose what §12 says; the page's own pick decides what is
hidden; no pose or no ``#viz-labels`` is the app's 0, a lost section UNAVAILABLE, a dead
sync vacuous."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sb7_observations import dead_sync, row
from sb7_viz_canned import columns, label_run, label_view, shown_at, viz_view, with_viz

from benchwright.model import Status
from benchwright.suites.sb7.checks._common import SYNC_ROOT
from benchwright.suites.sb7.checks._viz import ROOT
from benchwright.suites.sb7.viz import labels
from benchwright.suites.sb7.viz.view import LabelBox


def _row(run=None, **changes):
    return row(with_viz(viz_view(labels=run or label_run(), **changes)), "t_labels_culling")


def _cull(visible) -> labels.Cull:
    view = label_view()
    return labels.cull(view, labels.candidates(columns()), visible)


def _moved(boxes: tuple[LabelBox, ...], **changes: float) -> tuple[LabelBox, ...]:
    return tuple(replace(b, **{k: getattr(b, k) + v for k, v in changes.items()})
                 if b.shown else b for b in boxes)  # fmt: skip


def test_a_page_labelling_as_specified_earns_one_at_a_decisive_pose() -> None:
    want = labels.analytic(label_view(), columns())
    assert want.crowded and want.hidden and len(want.shown) >= 2
    got = _row()
    assert (got.status, got.score) == (Status.PASS, 1.0), got.detail


def test_labels_never_culled_lose_the_set_the_overlap_and_the_occlusion() -> None:
    view = label_view()
    boxes = {c.id: labels.box(a) for c in labels.candidates(columns())
             if labels.on_canvas(view, a := labels.anchor(view, c))}  # fmt: skip
    got = _row(label_run(labels=shown_at(labels.Cull(boxes, (), ()))))
    assert got.score == pytest.approx(0.15 + 0.1 + 0.1), got.detail


def test_a_page_ignoring_its_pick_buffer_loses_the_set_and_the_occlusion() -> None:
    got = _row(label_run(labels=shown_at(_cull(lambda _c, _at: True))))
    assert got.score == pytest.approx(0.5), got.detail


def test_a_wrong_offset_a_wrong_size_or_a_missing_data_id_cost_their_parts() -> None:
    boxes = label_run().labels
    assert _row(label_run(labels=_moved(boxes, x=4.0))).score == pytest.approx(0.9)
    assert _row(label_run(labels=_moved(boxes, x=2.0, y=-2.0))).score == 1.0
    assert _row(label_run(labels=_moved(boxes, w=-12.0))).score == pytest.approx(0.85)
    shown = [b for b in boxes if b.shown]
    nameless = (replace(shown[0], id=None), *boxes[1:])
    k = (len(shown) - 1) / len(shown)
    got = _row(label_run(labels=nameless))
    assert got.score == pytest.approx(0.15 + 0.1 * k + 0.1 * k + 0.15 + 0.15), got.detail


def test_the_pages_own_pick_decides_what_is_hidden() -> None:
    """A pick buffer that names another record at the first shown anchor: the page that
    leaves that label out is right, the one that keeps it is over a hidden instance."""
    run = label_run()
    first = next(b.id for b in run.labels if b.shown)
    picks = {**run.picks, first: (run.picks[first][0], None)}
    cull = _cull(lambda c, _at: c.id != first and picks[c.id][1] is not None
                 and picks[c.id][1]["id"] == c.id)  # fmt: skip
    assert _row(replace(run, picks=picks, labels=shown_at(cull))).score == 1.0
    kept = _row(replace(run, picks=picks))
    assert kept.score == pytest.approx(1 - 0.35 - 0.15), kept.detail


def test_an_overlapping_pair_zeroes_the_overlap_part() -> None:
    boxes = list(label_run().labels)
    i, j = [k for k, b in enumerate(boxes) if b.shown][:2]
    boxes[j] = replace(boxes[j], x=boxes[i].x + 50, y=boxes[i].y + 5)
    got = _row(label_run(labels=tuple(boxes)))
    assert got.score == pytest.approx(1 - 0.15 - 0.1 / sum(b.shown for b in boxes))


def test_no_pose_no_layer_no_vs7dbg_a_lost_section_and_a_dead_sync() -> None:
    none = row(with_viz(viz_view(labels=None)), "t_labels_culling")
    assert (none.status, none.score) == (Status.FAIL, 0.0)
    assert _row(label_run(labels=(), layer=False)).score == 0.0
    absent = row(with_viz(viz_view(vs7dbg=None)), "t_labels_culling")
    assert absent.score == 0.0 and absent.evidence.get("blocked_by") == ROOT
    lost = _row(lost={"labels": "page-side read exceeded 10 s"})
    assert lost.status is Status.UNAVAILABLE
    dead = row(with_viz(viz_view(), dead_sync()), "t_labels_culling")
    assert dead.score == 0.0 and dead.evidence.get("blocked_by") == SYNC_ROOT


def test_a_label_for_a_candidate_off_the_canvas_is_over_an_ineligible_instance() -> None:
    view, run = label_view(), label_run()
    off = next(c.id for c in labels.candidates(columns())
               if not labels.on_canvas(view, labels.anchor(view, c)))  # fmt: skip
    stray = LabelBox(off, -400.0, -400.0, *labels.SIZE, True)
    n = sum(b.shown for b in run.labels) + 1
    got = _row(replace(run, labels=(*run.labels, stray)))
    assert got.score == pytest.approx(0.15 + 0.1 * (n - 1) / n + 0.1 + 0.15), got.detail
