"""sb-7's calibration-owned rungs as the methodology prints them (§12, pre-freeze): the
suite's starting numbers, each overridden by ``scorers/sb7-thresholds.json`` where it
names one (`CheckSettings.from_scorer`). A test holds these equal to the rc file, so the
scorer and a settings-less grading agree until calibration moves the file."""

from __future__ import annotations

from collections.abc import Mapping

from benchwright.scoring import Rung
from benchwright.suites.kit.checks.results import ladder_ms

LADDERS: Mapping[str, tuple[Rung, ...]] = {
    "p_stream_apply": ladder_ms((250, 1.0), (500, 0.75), (1000, 0.5), (2000, 0.25)),
    "p_under_stream": ladder_ms((150, 1.0), (300, 0.75), (600, 0.5), (1200, 0.25)),
    "p_api_latency": ladder_ms((150, 1.0), (300, 0.75), (600, 0.5), (1500, 0.25)),
    "p_sync_wall": ladder_ms((120000, 1.0), (240000, 0.75), (420000, 0.5), (600000, 0.25)),
    "e_stream_apply_latency": ladder_ms((100, 1.0), (200, 0.75), (400, 0.5), (800, 0.25)),
    "e_under_load_latency": ladder_ms((150, 1.0), (300, 0.75), (600, 0.5), (1200, 0.25)),
    "e_optimistic_paint": ladder_ms((100, 1.0), (250, 0.6), (800, 0.3)),
}
"""Latency ladders (ms, lower is better), top rung first; ``k_P`` tightens the top."""
FLOORS: Mapping[str, tuple[int, ...]] = {
    "p_drag_frames": (32, 24, 16, 8),
    "e_frames_under_drag": (40, 32, 24, 12),
}
"""Frame floors (higher is better) for the rungs 1.0, 0.75, 0.5, 0.25."""
