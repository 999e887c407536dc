"""Tier E's 3D field rows (§12): excellence-grade frames under the budget drag, with proof
that the frames drew (the same drag as p_drag_frames, tighter floors), and the stream's
median apply time on rungs 2.5x tighter than p_stream_apply's."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, g, result
from benchwright.suites.sb7.browser.record import BROWSER
from benchwright.suites.sb7.checks._common import CheckSettings
from benchwright.suites.sb7.checks._stream import apply_row
from benchwright.suites.sb7.checks.tier_p_viz import drag_of, floor_score
from benchwright.suites.sb7.observations import Observations

FRAME_FLOORS = (40, 32, 24, 12)
"""e_frames_under_drag's pre-freeze floors, top first (calibration-owned)."""


@app_check("e_frames_under_drag", needs=(BROWSER,))
def e_frames_under_drag(obs: Observations, _s) -> CheckResult:
    """Frames over the drag with a positive default-framebuffer draw delta: ≥ 40 1, ≥ 32
    0.75, ≥ 24 0.5, ≥ 12 0.25; no draws 0."""
    drag, row = drag_of(obs, "e_frames_under_drag")
    if row is not None:
        return row
    frames, draws = drag.window.frames, drag.window.draws  # type: ignore[union-attr]
    score = floor_score(frames, FRAME_FLOORS) if draws > 0 else 0.0
    return result("e_frames_under_drag", score, f"{g(score)}: {frames} frames, {draws} "
                  f"default-framebuffer draws over the drag (floors {FRAME_FLOORS})",
                  frames=frames)  # fmt: skip


@app_check("e_stream_apply_latency", needs=(BROWSER,))
def e_stream_apply_latency(obs: Observations, s: CheckSettings) -> CheckResult:
    """The same median apply time: <=100/200/400/800 ms; no batch landed 0."""
    return apply_row("e_stream_apply_latency", obs, s)
