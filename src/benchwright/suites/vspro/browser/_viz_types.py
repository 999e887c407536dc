"""What the 3D panel's probes record (`viz.observe_viz`, `viz.observe_viz_fallback`).

Frozen observations only: the T checks recompute what each answer should have been.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from benchwright.probes.browser import ScenarioObservation, WebGLContext
from benchwright.suites.vspro.browser import camera as C

WHEEL_DELTA = 400
DRAG_MOVES, DRAG_STEP_PX, DRAG_GAP_MS = 60, 2, 16
"""The interaction the probe performs, recorded with what it saw."""


@dataclass(frozen=True)
class Framebuffer:
    """One ``readPixels`` of the default framebuffer, RGB rows top-down."""

    width: int
    height: int
    css_width: float
    css_height: float
    rgb: bytes = field(repr=False)

    def pixel(self, bx: int, by: int) -> tuple[int, int, int]:
        bx, by = min(self.width - 1, max(0, bx)), min(self.height - 1, max(0, by))
        o = (by * self.width + bx) * 3
        return self.rgb[o], self.rgb[o + 1], self.rgb[o + 2]

    def backing(self, sx: float, sy: float) -> tuple[int, int]:
        """The backing-store pixel under CSS point ``(sx, sy)`` of the canvas."""
        return (math.floor(sx * self.width / self.css_width),
                math.floor(sy * self.height / self.css_height))  # fmt: skip

    def differing(self, other: Framebuffer, tol: int = 8) -> float:
        """Fraction of pixels whose colour moved by more than ``tol`` on some channel."""
        if (self.width, self.height) != (other.width, other.height):
            return 1.0
        a, b, n = self.rgb, other.rgb, self.width * self.height
        step = max(1, n // 20000)  # a strided census is plenty to tell still from moved
        seen = moved = 0
        for p in range(0, n, step):
            o = p * 3
            seen += 1
            moved += any(abs(a[o + k] - b[o + k]) > tol for k in range(3))
        return moved / seen


@dataclass(frozen=True)
class CanvasFacts:
    found: bool
    """An element ``#viz3d`` exists (and is a canvas)."""
    context_kind: str | None = None
    """The WebGL context on ``#viz3d`` (``webgl``/``webgl2``), None when it has none."""
    requested_attrs: Mapping[str, Any] | None = None
    """The attributes the app asked for (the probe adds preserveDrawingBuffer to read back)."""
    css_width: float = 0.0
    css_height: float = 0.0
    left: float = 0.0
    top: float = 0.0
    backing_width: int = 0
    backing_height: int = 0
    dpr: float = 1.0
    in_view: bool = False
    """The whole canvas was inside the viewport after scrolling it into view."""


@dataclass(frozen=True)
class VsdbgSnapshot:
    """``window.vsdbg``'s answers, verbatim (values the app returned, or ``{"error": ...}``)."""

    present: bool
    version: Any = None
    scene: Any = None
    camera: Any = None
    frames: Any = None
    projections: tuple[tuple[C.Vec, Any], ...] = ()
    """(world point, ``project(x, y, z)``) at the default camera."""
    picks: tuple[tuple[tuple[float, float], Any], ...] = ()
    """(CSS point, ``pick(sx, sy)``) at the default camera."""


@dataclass(frozen=True)
class TooltipProbe:
    sx: float
    sy: float
    """Where the pointer hovered (canvas CSS px, default camera)."""
    appeared: bool
    text: str | None
    latency_ms: float | None
    """Page clock: pointermove listener stamp to the stamp of the tooltip becoming visible."""
    hidden_after_leave: bool


@dataclass(frozen=True)
class PickProbe:
    sx: float
    sy: float
    data_value: str | None
    """``#status-filter``'s ``data-value`` after the click (None: no such attribute)."""
    row_statuses: tuple[str, ...]
    """Status cell (3rd column) of each visible payments row, lowercased."""
    total: int | None
    """TOTAL of the 'showing X-Y of TOTAL' readout, or None."""


@dataclass(frozen=True)
class ServedFilter:
    """The app's own API for one status (``/api/payments?status=<s>&limit=50``), read
    after the picks. A pick drives the product when the table shows what the server
    serves; when the server's filter itself is wrong, that is the API rows' defect, and
    the pick is judged against this answer instead of the fixture."""

    statuses: tuple[str, ...]
    """``status`` of each row served, lowercased (empty: no rows, or no answer)."""
    total: int | None
    """The answer's integer ``total``, or None."""


@dataclass(frozen=True)
class CameraProbe:
    """Wheel, double-click, drag and double-click again, in that order (canvas centre)."""

    top_before: float
    top_after_wheel: float
    scroll_before: float
    scroll_after_wheel: float
    camera_after_wheel: Any
    after_wheel: Framebuffer | None
    camera_after_first_reset: Any
    mid_drag: Framebuffer | None
    after_drag: Framebuffer | None
    camera_after_drag: Any
    frames_before: Any
    frames_after: Any
    draws_before: int
    draws_after: int
    idle_frames: Any
    """vsdbg frames counted over an idle 500 ms before the drag (evidence only)."""
    drag_ms: float
    after_reset: Framebuffer | None
    camera_after_reset: Any
    wheel_delta: float = WHEEL_DELTA
    drag_dx: float = DRAG_MOVES * DRAG_STEP_PX


@dataclass(frozen=True)
class ToggleProbe:
    present: bool
    """A visible ``#viz-toggle``."""
    table_shown: bool
    cells: Mapping[str, str]
    """``day|status`` -> cell text of ``#viz-fallback`` after the click."""
    pressed: str | None
    """``aria-pressed`` after the click."""


@dataclass(frozen=True)
class VizObservation:
    scenario: ScenarioObservation
    canvas: CanvasFacts
    draw_calls: int
    """Draw calls on ``#viz3d``'s context once the first frame settled."""
    baseline: Framebuffer | None
    vsdbg: VsdbgSnapshot | None
    tooltip: TooltipProbe | None
    picks: tuple[PickProbe, ...]
    depth_pick: PickProbe | None
    camera: CameraProbe | None
    toggle: ToggleProbe | None
    notice: str | None
    """A no-WebGL-style notice visible in the panel while 3D runs (should be None)."""
    lost: Mapping[str, str] = field(default_factory=dict)
    """Section -> why the probe lost it (its bound ran out): UNAVAILABLE, not the app's."""
    blocked: str | None = None
    """Why the interaction sections were not run (canvas not fully in view): the app's."""
    served: Mapping[str, ServedFilter] = field(default_factory=dict)
    """Status -> the app's API answer for that status filter (only after picks were made)."""

    @property
    def context(self) -> WebGLContext | None:
        return next((c for c in self.scenario.webgl_contexts if c.canvas_id == "viz3d"), None)

    @property
    def first_draw_ms(self) -> float | None:
        ctx = self.context
        return None if ctx is None else ctx.first_draw_ms


@dataclass(frozen=True)
class VizFallbackObservation:
    scenario: ScenarioObservation
    fallback_shown: bool
    cells: Mapping[str, str]
    notice: str | None
    """Text of the visible in-panel notice matching the no-WebGL wording, or None."""
    payment_rows: int
    lost: Mapping[str, str] = field(default_factory=dict)
    loaded: bool = True
    """The page loaded at all (False: nothing else here was measured; the app's fault)."""


# -- page-side scripts ------------------------------------------------------------------------
