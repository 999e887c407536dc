"""Tier P's 3D field rows (§12): frames under the budget drag, demand rendering's idle
flatness (both from the ``viz`` scenario's GL-wrapper counters), and the live stream's
median apply time (its stream section)."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.suites.kit.browser.rows import view
from benchwright.suites.kit.checks import app_check, g, result
from benchwright.suites.sb7.browser.record import BROWSER
from benchwright.suites.sb7.checks._common import CheckSettings
from benchwright.suites.sb7.checks._stream import apply_row
from benchwright.suites.sb7.checks._viz import graded
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.viz.view import SCENARIO, Drag

DRAG_FLOORS = (32, 24, 16, 8)
"""p_drag_frames' pre-freeze floors, top first (calibration-owned: sb7-thresholds.json)."""
RUNG_SCORES = (1.0, 0.75, 0.5, 0.25)


def floor_score(frames: int, floors: tuple[int, ...]) -> float:
    """The score of the first floor ``frames`` reaches, top first; 0 below the last."""
    return next((s for f, s in zip(floors, RUNG_SCORES, strict=True) if frames >= f), 0.0)


def drag_of(obs: Observations, check_id: str) -> tuple[Drag | None, CheckResult | None]:
    """(the budget drag, None), or (None, the row): UNAVAILABLE when lost, 0 when the app
    has no field or its canvas could not be dragged. The timed view (a contended first run
    is taken again)."""
    seen, row = graded(obs, check_id, "context", "drag", timed=True)
    if row is not None:
        return None, row
    if seen.drag is None:  # type: ignore[union-attr]
        return None, result(check_id, 0.0, "0: the canvas could not be dragged")
    return seen.drag, None  # type: ignore[union-attr]


@app_check("p_drag_frames", needs=(BROWSER,))
def p_drag_frames(obs: Observations, _s) -> CheckResult:
    """Frames drawn over the 40-move drag: ≥ 32 1, ≥ 24 0.75, ≥ 16 0.5, ≥ 8 0.25."""
    drag, row = drag_of(obs, "p_drag_frames")
    if row is not None:
        return row
    frames = drag.window.frames  # type: ignore[union-attr]
    score = floor_score(frames, DRAG_FLOORS)
    return result("p_drag_frames", score, f"{g(score)}: {frames} frames drawn over the "
                  f"{drag.moves}-move drag in {drag.window.ms:.0f} ms (floors "  # type: ignore[union-attr]
                  f"{DRAG_FLOORS})", frames=frames)  # fmt: skip


@app_check("p_idle_flatness", needs=(BROWSER,))
def p_idle_flatness(obs: Observations, _s) -> CheckResult:
    """0 default-framebuffer draws in the worst clean 500 ms rest window: 1, else 0. No
    clean window, or a field that never drew, is demand rendering unproven: 0. A page
    whose redraws at rest starved the probe's reads (a section lost) is 0 on the rest the
    probe then waited out, not UNAVAILABLE."""
    seen, row = graded(obs, "p_idle_flatness", "context", "idle")
    if row is not None:
        return _starved_at_rest(obs) or row
    if seen.context.draws <= 0:  # type: ignore[union-attr]
        return result("p_idle_flatness", 0.0, "0: demand rendering unproven (the field "
                      "never drew)")  # fmt: skip
    clean = [w for w in seen.idle if not w.streamed]  # type: ignore[union-attr]
    if not clean:
        return result("p_idle_flatness", 0.0, "0: demand rendering unproven (no clean rest "
                      "window sampled)")  # fmt: skip
    worst = max(clean, key=lambda w: w.draws)
    score = 1.0 if worst.draws == 0 else 0.0
    return result("p_idle_flatness", score, f"{g(score)}: worst rest window {worst.draws} "
                  f"default-framebuffer draws in {worst.ms:.0f} ms ({len(clean)} clean "
                  f"windows)")  # fmt: skip


@app_check("p_stream_apply", needs=(BROWSER,))
def p_stream_apply(obs: Observations, s: CheckSettings) -> CheckResult:
    """Median receipt-to-shown time of the committed batches: <=250/500/1000/2000 ms; no
    batch landed 0."""
    return apply_row("p_stream_apply", obs, s)


REDRAWS = 2
"""Draws in the starved rest that prove a redraw loop: after 4 s without input an honest
field may still land one queued frame on a busy host, never two. A slow host only lowers a
looping page's count (UNAVAILABLE then), never makes an honest page's."""


def _starved_at_rest(obs: Observations) -> CheckResult | None:
    """The app's 0 when a section was lost and the field drew at least `REDRAWS` times in
    the rest the probe waited out afterwards (`viz.scenario.starved`); None otherwise."""
    found, refused = view(obs, "p_idle_flatness", SCENARIO)
    rest = None if refused is not None else found.starved
    if rest is None or rest.draws < REDRAWS:
        return None
    lost = "; ".join(f"{k}: {v}" for k, v in found.lost.items())
    return result("p_idle_flatness", 0.0, f"0: the field redraws at rest: {rest.draws} "
                  f"default-framebuffer draws in {rest.ms:.0f} ms with no input, while its "
                  f"page starved the probe's reads (lost {lost})")  # fmt: skip
