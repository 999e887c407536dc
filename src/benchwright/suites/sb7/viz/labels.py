"""The 12 labels of spec §8.5, recomputed by the grader: the candidates (``a_major``
descending through the currency's exponent, then ``id``), each one's anchor (the centre of
its top face, ``project(x, h, z)``), the greedy collision cull over the anchors the pick
buffer calls visible, and the pose the probe grades them at (`decisive`).

Who decides "visible" is the page's own ``pick(A)`` (the spec: "your own pick buffer
decides what is hidden"); the grader's analytic ray (`picked`) stands in for it only
where the page was never asked: choosing the pose, and a candidate the probe did not pick
at. The ray goes through the centre of the pixel ``pick`` reads at DPR 1 (the harness's)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from benchwright.suites.sb7.viz.camera import Pose, Screen, View
from benchwright.suites.sb7.viz.scene import Column

COUNT = 12
"""The candidates: the 12 largest ``a_major``."""
SIZE = (110.0, 18.0)
"""A label's border box in CSS px."""
OFFSET = (10.0, -9.0)
"""A label's top left from its anchor."""
REACH = 0.45 * math.sqrt(2) + 0.01
"""How far (XZ) a column's axis may be from a ray that enters it (half its diagonal)."""
POSES = (
    *(Pose(yaw, 5.0, 30.0) for yaw in (30.0, 75.0, 120.0, 165.0, 210.0, 255.0, 300.0, 345.0)),
    *(Pose(yaw, 5.0, 45.0) for yaw in (30.0, 120.0, 210.0, 300.0)),
    Pose(300.0, 12.0, 60.0),
    Pose(30.0, 40.0, 260.0),
)
"""The poses `decisive` chooses from. The candidates are the tallest columns (often at the
4.2 clamp), so from above nothing can hide their tops: the low close poses put the eye
below the tallest tops, inside the field, where nearer tall columns hide farther tops and
the labels crowd; the defaults come last (the whole field, crowding only)."""

Box = tuple[float, float]
"""A label's top left in CSS px from the canvas's top left."""
Rect = tuple[float, float, float, float]
Visible = Callable[[Column, tuple[float, float]], bool]
"""Whether the pick buffer names this candidate at its (on-canvas) anchor."""


def candidates(columns: Sequence[Column]) -> list[Column]:
    """The label candidates in priority order."""
    return sorted(columns, key=lambda c: (-c.a_major, c.id))[:COUNT]


def anchor(view: View, column: Column) -> tuple[float, float] | None:
    """A: the centre of the column's top face on screen (None: behind the near plane)."""
    return view.project((column.x, column.h, column.z))


def on_canvas(view: View, at: tuple[float, float] | None) -> bool:
    return at is not None and 0 <= at[0] < view.w and 0 <= at[1] < view.h


def box(at: tuple[float, float]) -> Box:
    return at[0] + OFFSET[0], at[1] + OFFSET[1]


def overlap_rects(a: Rect, b: Rect, by: float = 1.0) -> bool:
    """Two boxes (x, y, w, h) overlap by ``by`` px or more both ways (§8.5: 1)."""
    wide = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    tall = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return wide >= by and tall >= by


def overlap(a: Box, b: Box) -> bool:
    """Two labels' boxes of the spec's size at these top lefts overlap."""
    return overlap_rects((*a, *SIZE), (*b, *SIZE))


def front_at(view: View, columns: Sequence[Column], sx: float, sy: float) -> str | None:
    """The id of the column nearest the eye on the ray through CSS point (sx, sy) (None:
    background). Only columns whose axis passes within `REACH` of the ray's ground track
    are tested, so a dozen anchors cost milliseconds, not a `Screen` build."""
    eye, d = view.eye, view.ray(sx, sy)
    flat = math.hypot(d[0], d[2]) or 1e-12
    near = [c for c in columns
            if abs((c.x - eye[0]) * d[2] - (c.z - eye[2]) * d[0]) / flat <= REACH]  # fmt: skip
    hits = Screen(near, view).hits(sx, sy)
    return hits[0].column.id if hits else None


def picked(view: View, columns: Sequence[Column], at: tuple[float, float]) -> str | None:
    """The grader's stand-in for ``pick(at)``: `front_at` the centre of the pixel it reads."""
    return front_at(view, columns, math.floor(at[0] + 0.5) + 0.5, math.floor(at[1] + 0.5) + 0.5)


@dataclass(frozen=True)
class Cull:
    """The expected labels at one pose: shown (id -> box, in priority order), and the
    candidates culled for a collision or because the pick buffer hides their anchor."""

    shown: dict[str, Box]
    crowded: tuple[str, ...]
    hidden: tuple[str, ...]


def cull(view: View, chosen: Sequence[Column], visible: Visible) -> Cull:
    """The greedy cull: in priority order a candidate is shown iff its anchor is on the
    canvas, ``visible`` (the pick buffer names that very record there), and its box
    overlaps no box already shown."""
    shown: dict[str, Box] = {}
    crowded, hidden = [], []
    for c in chosen:
        at = anchor(view, c)
        if not on_canvas(view, at):
            continue
        if not visible(c, at):  # type: ignore[arg-type]
            hidden.append(c.id)
            continue
        mine = box(at)  # type: ignore[arg-type]
        if any(overlap(mine, other) for other in shown.values()):
            crowded.append(c.id)
            continue
        shown[c.id] = mine
    return Cull(shown, tuple(crowded), tuple(hidden))


def analytic(view: View, columns: Sequence[Column]) -> Cull:
    """The cull with the grader's ray as the pick buffer."""
    return cull(view, candidates(columns), lambda c, at: picked(view, columns, at) == c.id)


def decisive(columns: Sequence[Column], w: float, h: float) -> Pose:
    """The pose of `POSES` whose expected labels decide the most: a collision cull, and
    an occlusion cull that changes the shown set with a column truly in front of a hidden
    anchor (not a pixel's rounding off a far, tiny top), so that a page skipping either
    shows a wrong set; then at least three labels shown, then more; the first on a tie."""
    chosen = candidates(columns)

    def rank(pose: Pose) -> tuple[int, int, int]:
        view = View(pose, w, h)
        got = analytic(view, columns)
        blind = cull(view, chosen, lambda _c, _at: True)
        behind = any(front_at(view, columns, *anchor(view, c)) != c.id  # type: ignore[misc]
                     for c in chosen if c.id in got.hidden)  # fmt: skip
        hiding = behind and blind.shown.keys() != got.shown.keys()
        return bool(got.crowded) + hiding, min(len(got.shown), 3), len(got.shown)

    return max(POSES, key=rank)
