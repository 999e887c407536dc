"""Tier T's labels row (§12 t_labels_culling): at the decisive pose the grader recomputes
which of the 12 largest records are labelled (the greedy cull over the anchors the page's
OWN pick buffer calls visible, `viz.labels`) and compares the page's ``#viz-labels``.

The anchor is the spec's: ``project(x, h, z)``, the centre of the top face, from the
truth's scene under the pose. Whether a candidate may be labelled is the page's
``pick(A)`` at that anchor as the probe asked it; for a candidate the probe never asked
(the page downloaded other amounts than the truth's), the grader's ray stands in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, g, result
from benchwright.suites.sb7.browser.record import BROWSER
from benchwright.suites.sb7.checks._viz import graded, truth_scene, vs7
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.viz import labels as L
from benchwright.suites.sb7.viz.camera import Pose, View
from benchwright.suites.sb7.viz.scene import Column
from benchwright.suites.sb7.viz.view import LabelBox, LabelRun

SIZE_TOL, OFFSET_TOL = 1.0, 2.5
"""CSS px: the border box's 110 x 18, the top left's (+10, -9) from the anchor."""
LAYOUT_PX = 1 / 32
"""Slack on the measured overlap: Chromium lays boxes out in 1/64 px units, so two labels
the page placed 0.99 px into each other (allowed) may measure 1 px."""
WEIGHTS = {"set": 0.35, "rects": 0.15, "offsets": 0.1, "data-id": 0.1, "overlap": 0.15,
           "occlusion": 0.15}  # fmt: skip


def expected(run: LabelRun, columns: Sequence[Column]) -> tuple[View, L.Cull]:
    """The view and the expected cull through the page's own picks."""
    view = View(Pose(*run.pose), *run.canvas)
    chosen = L.candidates(columns)

    def visible(c: Column, at: tuple[float, float]) -> bool:
        asked = run.picks.get(c.id)
        if asked is None or asked[0] is None or _far(asked[0], at):
            return L.picked(view, columns, at) == c.id
        return isinstance(asked[1], Mapping) and asked[1].get("id") == c.id

    return view, L.cull(view, chosen, visible)


def _far(a: Sequence[float], b: Sequence[float]) -> bool:
    """The probe's anchor is not the truth's (other amounts served): its pick is moot."""
    return abs(a[0] - b[0]) > 0.5 or abs(a[1] - b[1]) > 0.5


def score_labels(
    run: LabelRun, columns: Sequence[Column]
) -> tuple[float, dict[str, float], L.Cull]:
    """The six weighted parts of §12 over the shown labels (none shown: the per-label
    fractions are 0, nothing proves their geometry); (score, each part, the expected
    cull)."""
    view, want = expected(run, columns)
    shown = [b for b in run.labels if b.shown]
    anchors = {c.id: L.anchor(view, c) for c in L.candidates(columns)}
    ineligible = set(anchors) - set(want.shown) - set(want.crowded)  # hidden or off-canvas
    ids = [b.id for b in shown]
    n = len(shown)

    def share(ok: int) -> float:
        return ok / n if n else 0.0

    parts = {
        "set": float(sorted(map(str, ids)) == sorted(want.shown)),
        "rects": share(sum(_sized(b) for b in shown)),
        "offsets": share(sum(_placed(b, anchors) for b in shown)),
        "data-id": share(sum(bool(b.id) for b in shown)),
        "overlap": float(not _overlapping(shown)),
        "occlusion": float(not any(b.id in ineligible for b in shown)),
    }
    return sum(WEIGHTS[k] * v for k, v in parts.items()), parts, want


def _sized(b: LabelBox) -> bool:
    return abs(b.w - L.SIZE[0]) <= SIZE_TOL and abs(b.h - L.SIZE[1]) <= SIZE_TOL


def _placed(b: LabelBox, anchors: Mapping[str, tuple[float, float] | None]) -> bool:
    at = anchors.get(b.id or "")
    if at is None:
        return False
    want = L.box(at)
    return abs(b.x - want[0]) <= OFFSET_TOL and abs(b.y - want[1]) <= OFFSET_TOL


def _overlapping(shown: Sequence[LabelBox]) -> bool:
    """Any two shown labels' measured boxes overlap by 1 px or more both ways."""
    return any(L.overlap_rects((a.x, a.y, a.w, a.h), (b.x, b.y, b.w, b.h), 1 + LAYOUT_PX)
               for i, a in enumerate(shown) for b in shown[i + 1:])  # fmt: skip


@app_check("t_labels_culling", needs=(BROWSER,))
def t_labels_culling(obs: Observations, _s) -> CheckResult:
    """0.35 exact shown set + 0.15 rects 110 x 18 (±1) + 0.1 offsets (±2.5) + 0.1 data-id
    (per-label fractions) + 0.15 no overlapping pair + 0.15 no label over an ineligible
    candidate (the page's pick hides it, or its anchor is off the canvas). No pose graded,
    or no ``#viz-labels``: 0. A dead sync is vacuous."""
    seen, row = graded(obs, "t_labels_culling", "context", "labels", truth=True, dead=True)
    if row is not None:
        return row
    _value, gone = vs7("t_labels_culling", seen, "layout")  # type: ignore[arg-type]
    if seen.vs7dbg is None:  # type: ignore[union-attr]
        return gone  # type: ignore[return-value]
    run = seen.labels  # type: ignore[union-attr]
    if run is None:
        return result("t_labels_culling", 0.0, "0: no decisive pose graded (no setCamera, or "
                      "no records downloaded)")  # fmt: skip
    if not run.layer:
        return result("t_labels_culling", 0.0, "0: no #viz-labels on the page (a required "
                      "surface)")  # fmt: skip
    _basis, columns = truth_scene(obs, seen)  # type: ignore[arg-type]
    score, parts, want = score_labels(run, columns)
    shown = sorted(str(b.id) for b in run.labels if b.shown)
    failed = [k for k, v in parts.items() if v < 1.0]
    return result("t_labels_culling", score, f"{g(score)}: at {run.pose} {len(shown)} shown, "
                  f"{len(want.shown)} expected ({len(want.crowded)} crowded, "
                  f"{len(want.hidden)} hidden by the pick)"
                  + (f"; short: {', '.join(failed)}" if failed else "")
                  + ("" if parts["set"] else f"; shown {shown[:6]} want {sorted(want.shown)[:6]}"),
                  )  # fmt: skip
