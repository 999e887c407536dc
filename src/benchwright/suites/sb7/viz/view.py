"""What the sb-7 ``viz`` scenario saw, as frozen records: the canvas and its context, the
``window.vs7dbg`` answers, the GL wrapper's counters over the idle windows and the budget
drag, and the records the page itself downloaded. Never a verdict: the checks in
``checks/tier_t*.py``, ``tier_p_viz.py`` and ``tier_e_viz.py`` decide.

A section the probe lost to its bound is named in ``lost`` (its rows are UNAVAILABLE);
a section the app gave nothing to measure is simply empty (its rows score it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from benchwright.probes.browser import ScenarioObservation

SCENARIO = "viz"
"""The scenario's name in the browser record."""
BACKGROUND = (16, 24, 40)
"""#101828: every pixel that is not a column face."""
TOPS = {"settled": (5, 150, 105), "pending": (217, 119, 6), "refunded": (124, 58, 237),
        "failed": (185, 28, 28)}  # fmt: skip
"""The four frozen status hexes (tops); sides are round(0.55 x top) per channel."""


@dataclass(frozen=True)
class Counters:
    """The GL wrapper's counters on ``#viz3d``'s context at one instant (page ms)."""

    t: float
    default_draws: int
    off_draws: int
    off_reads: int
    bytes: int
    reallocs: int
    frames: int
    sse: int
    """Stream messages the page had received."""
    vs_frames: float | None = None
    """What ``vs7dbg.frames()`` said at the same instant (None: no answer)."""

    @classmethod
    def of(cls, read: Mapping[str, Any]) -> Counters:
        return cls(float(read["t"]), int(read["defaultDraws"]), int(read["offDraws"]),
                   int(read["offReads"]), int(read["bytes"]), int(read["reallocs"]),
                   int(read["frames"]), int(read["sse"]), read.get("vsFrames"))  # fmt: skip


@dataclass(frozen=True)
class Window:
    """Two counter readings: what happened between them."""

    start: Counters
    end: Counters

    @property
    def ms(self) -> float:
        return self.end.t - self.start.t

    @property
    def draws(self) -> int:
        return self.end.default_draws - self.start.default_draws

    @property
    def frames(self) -> int:
        return self.end.frames - self.start.frames

    @property
    def vs_frames(self) -> float | None:
        """``vs7dbg.frames()``'s increase (None: not answered at both ends)."""
        a, b = self.start.vs_frames, self.end.vs_frames
        return None if a is None or b is None else b - a

    @property
    def streamed(self) -> bool:
        """A stream message landed inside: not a rest window."""
        return self.end.sse != self.start.sse


@dataclass(frozen=True)
class ContextFacts:
    """``canvas#viz3d`` and the WebGL context the app created on it."""

    found: bool
    """An element with id ``viz3d`` exists."""
    canvas: bool = False
    """... and it is a ``<canvas>``."""
    kind: str | None = None
    """``webgl``/``webgl2`` when the app created a context on it, else None."""
    asked: Mapping[str, Any] = field(default_factory=dict)
    """The context-creation attributes the app passed."""
    css: tuple[float, float] = (0.0, 0.0)
    backing: tuple[int, int] = (0, 0)
    dpr: float = 1.0
    draws: int = 0
    """Default-framebuffer draws counted since load."""
    samples: tuple[tuple[int, int, int], ...] = ()
    """A blind grid of the drawing buffer's pixels (RGB)."""


@dataclass(frozen=True)
class Vs7Answer:
    """One no-argument ``vs7dbg`` method: its value, or why there is none."""

    value: Any = None
    error: str | None = None
    """The method threw (its message), or is not a function (``"missing"``)."""


@dataclass(frozen=True)
class Drag:
    """The budget drag: M pointer moves, counted from the first move to pointerup plus one
    animation frame."""

    moves: int
    window: Window


@dataclass(frozen=True)
class CameraRun:
    """The scripted camera inputs and ``vs7dbg.camera()`` around each (None: no answer).
    Drags are read before their pointerup (the laws, not the coast)."""

    canvas: tuple[float, float]
    """The canvas's CSS size the projection uses."""
    drag_dx: float
    before_drag: Mapping[str, Any] | None
    during_drag: Mapping[str, Any] | None
    wheel_dy: float
    wheel: tuple[Mapping[str, Any] | None, ...]
    """Before the first wheel step, after it, after the second."""
    scroll: tuple[float, float]
    """The page's scrollY before and after the wheel steps."""
    pitch_clamp: Mapping[str, Any] | None
    """During a drag that pushes pitch past 85."""
    distance_clamp: Mapping[str, Any] | None
    """After a wheel step that pushes distance past 340."""
    reset: tuple[Mapping[str, Any] | None, ...]
    """Right after a double-click that ended a flick's coast, and 300 ms later."""
    projections: tuple[tuple[tuple[float, float, float], Any], ...] = ()
    """World points and ``vs7dbg.project()``'s answer (when the page has one)."""


@dataclass(frozen=True)
class PickProbe:
    """One graded point at a known pose: pick(), pickPixel() and a rest-pose pixel."""

    sx: float
    sy: float
    pick: Any
    pixel: tuple[int, ...] | None
    shown: tuple[int, int, int] | None
    """The visible canvas's pixel there (RGB)."""


@dataclass(frozen=True)
class PickRun:
    """The picks after ``setCamera(pose)`` (a scene invalidation), with the wrapper's
    counters: at the invalidation, after the first pick, after the last."""

    pose: tuple[float, float, float]
    canvas: tuple[float, float]
    camera: Mapping[str, Any] | None
    """``vs7dbg.camera()`` at the pose."""
    at_invalidation: Counters
    first_pick: Counters
    before_picks: Counters
    after_picks: Counters
    points: tuple[PickProbe, ...]


@dataclass(frozen=True)
class ClickRun:
    """Real clicks on the canvas at the picks' pose, and ``vs7dbg.brush()`` after each:
    the target, the target again, the target a third time, then the background."""

    target: tuple[float, float]
    background: tuple[float, float] | None
    brush: tuple[Any, ...]
    """``brush()`` before the clicks, then after each click (None: no answer)."""


@dataclass(frozen=True)
class HeightStrip:
    """One measured column: the visible pixels of the screen column through its top
    face's centre, from above its analytic top down to that centre."""

    id: str
    sx: int
    top: int
    """The strip's first row (CSS y); ``pixels[k]`` is row ``top + k``."""
    anchor: int
    """The top face's centre row the probe aimed at (the strip's last row)."""
    pixels: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class HeightRun:
    """The column tops read at a close pose set by ``setCamera`` (brush empty)."""

    pose: tuple[float, float, float]
    canvas: tuple[float, float]
    strips: tuple[HeightStrip, ...]


@dataclass(frozen=True)
class BrushLook:
    """The brush after one click: ``vs7dbg.brush()``, ``#brush-count``'s text and the
    visible pixels at the height strips' anchors (None: no answer)."""

    brush: Any
    count: str | None
    pixels: tuple[tuple[int, int, int], ...] | None


@dataclass(frozen=True)
class BrushRun:
    """Both doors of the brush at the heights' pose, from an empty brush: the table's
    first row clicked, then the first height strip's column clicked in the field, then
    the background."""

    row: str | None
    """The clicked row's record (None: the table had no row)."""
    after_row: BrushLook
    target: str
    after_field: BrushLook
    shown: Mapping[str, Any] | None
    """The target's table row once marked brushed (``brushed``, ``inView``); None: never."""
    after_ground: BrushLook


@dataclass(frozen=True)
class LabelBox:
    """One ``#viz-labels .viz-label`` element: its ``data-id`` (None: no attribute), its
    border box in CSS px from the canvas's top left, and whether it is shown (not hidden,
    displayed, visible, not transparent, with an area)."""

    id: str | None
    x: float
    y: float
    w: float
    h: float
    shown: bool


@dataclass(frozen=True)
class LabelRun:
    """The labels after ``setCamera(pose)`` settled: the candidates the probe picked at
    (id -> its anchor from the page's records and ``vs7dbg.pick`` there; None: no anchor
    or no answer) and every label element."""

    pose: tuple[float, float, float]
    canvas: tuple[float, float]
    picks: Mapping[str, tuple[tuple[float, float] | None, Any]]
    labels: tuple[LabelBox, ...]
    layer: bool
    """``#viz-labels`` exists."""


@dataclass(frozen=True)
class StreamBatch:
    """One vendor change committed while the page rested at the heights' pose: a status
    change of a measured column (`HeightStrip`), and what the page did with it, from just
    before the commit to the rest after it (page ms throughout)."""

    id: str
    status: str
    """The status committed: the top's new colour."""
    sx: int
    sy: int
    """The column's top-face centre (CSS px) the pixel watch read."""
    window: Window
    """The GL counters around it: every buffer byte uploaded and every reallocation."""
    digest_before: Mapping[str, Any] | None
    digest_after: Mapping[str, Any] | None
    """``vs7dbg.sceneDigest()`` at both ends (None: no answer)."""
    received: float | None
    """The record's stream message reached the page (None: it never did)."""
    frame: float | None
    """The end of the first frame drawn after that."""
    applied: float | None
    """The end of the first frame showing the new colour there (None: none did)."""
    pixel: tuple[int, int, int] | None
    """The top's pixel once the page rested again."""
    messages: tuple[Mapping[str, Any], ...]
    """Every stream message received inside the window: ``{t, records}``."""
    earlier: tuple[Mapping[str, Any], ...] = ()
    """The messages received before the window and after the previous one (after load, for
    the first): creates among them move a later create's rank."""

    @property
    def apply_ms(self) -> float | None:
        """Receipt to the frame that showed the change (None: never applied)."""
        if self.received is None or self.applied is None:
            return None
        return self.applied - self.received


@dataclass(frozen=True)
class CreateLeg:
    """A payment created at the vendor after the flips (value-dated into the span, as every
    vendor create), and ``vs7dbg.layout()``'s answer before and once the page received it
    and rested (§12 t_layout_basis: the basis locked at load never moves)."""

    id: str
    received: bool
    """A stream message carried the new payment (within `stream.APPLY_S`)."""
    before: Any
    after: Any


@dataclass(frozen=True)
class StreamRun:
    """The live stream at the heights' pose, brush empty: one change committed and awaited
    at a time."""

    pose: tuple[float, float, float]
    batches: tuple[StreamBatch, ...]
    brushed: str | None = None
    """The record brushed (a field click on its top) before the last batch changed it
    (None: no such batch: DECISIONS D1 unmeasured)."""
    kept: bool | None = None
    """It was still brushed once that batch applied (D1: it stays, or it drops out)."""
    create: CreateLeg | None = None
    """The streamed create (None: the vendor could not create, or the section ended
    before it)."""


@dataclass(frozen=True)
class CoastFrame:
    """A frame the page began to draw after a release: its page time (ms) and
    ``vs7dbg.camera()`` then (the pose that frame draws; None: no answer)."""

    t: float
    camera: Mapping[str, Any] | None


@dataclass(frozen=True)
class Spot:
    """``vs7dbg.camera()`` and the visible pixels at the coast's grid, read in one
    evaluation, between two frames: the pose and the image of the same frame."""

    t: float
    camera: Mapping[str, Any] | None
    pixels: tuple[tuple[int, int, int], ...] | None


@dataclass(frozen=True)
class Release:
    """One scripted drag's release and what followed until the field rested (bounded)."""

    dx_px: float
    """The drag's last two moves: the pixels (signed, +x to the right) and the page
    milliseconds between them (their ``event.timeStamp``s): the release's rate."""
    dt_ms: float
    up_t: float
    """Page time of the pointerup, before the app handled it."""
    camera: Mapping[str, Any] | None
    """``camera()`` right after the app handled the pointerup."""
    frames: tuple[CoastFrame, ...]
    rested: bool
    """``camera()`` stood still, its speeds under 2 deg/s, for 500 ms within the bound."""
    rest: Mapping[str, Any] | None
    """``camera()`` once rested (or at the bound)."""
    spots: tuple[Spot, ...] = ()
    """The release's spot, then one per pose change while it coasted, then the rest's."""

    @property
    def px_per_s(self) -> float:
        return abs(self.dx_px) / (self.dt_ms / 1000) if self.dt_ms > 0 else 0.0


@dataclass(frozen=True)
class CoastRun:
    """A fast flick and a slow drag (spec §8.4's inertia), at a pose set close enough that
    columns are several pixels wide, on a canvas of ``canvas`` CSS px."""

    canvas: tuple[float, float]
    grid: tuple[tuple[int, int], ...]
    """The CSS points every spot reads."""
    flick: Release
    slow: Release


@dataclass(frozen=True)
class VizView:
    """The ``viz`` scenario's view."""

    scenario: ScenarioObservation
    records: Mapping[str, Any] | None
    """The body of the ``/api/viz/records`` answer the page downloaded (None: it did not)."""
    context: ContextFacts | None = None
    vs7dbg: Mapping[str, Vs7Answer] | None = None
    """``window.vs7dbg``'s answers at load (None: absent)."""
    idle: tuple[Window, ...] = ()
    drag: Drag | None = None
    camera: CameraRun | None = None
    picks: tuple[PickRun, ...] = ()
    clicks: ClickRun | None = None
    heights: HeightRun | None = None
    brush: BrushRun | None = None
    labels: LabelRun | None = None
    stream: StreamRun | None = None
    coast: CoastRun | None = None
    starved: Window | None = None
    """After a section was lost to the read bound: the counters over a rest the probe
    waited out with longer reads (draws in it: the field redraws at rest and its page
    starved the probe's reads; `scenario.starved`)."""
    lost: Mapping[str, str] = field(default_factory=dict)
    """Section -> why the probe lost it (``context``, ``vs7dbg``, ``idle``, ``drag``,
    ``camera``, ``coast``, ``picks``, ``clicks``, ``heights``, ``brush``, ``labels``,
    ``stream``)."""
