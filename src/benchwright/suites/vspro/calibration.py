"""Where the calibration fit finds each of sb-6's calibration-owned figures in a grading.

One `Measurement` per check in ``calibration_owned`` (scorers/sb6.yaml): the evidence
key its check records and what the fit may do with its ladder. k_P tightens the six P
ladders and the under-load one (the checks divide those top budgets by it); paint and
tooltip keep their printed rungs; the drag frames are count floors set from the reference.
"""

from __future__ import annotations

from benchwright.scoring.calibration import Measurement, Role

MEASUREMENTS = (
    Measurement("p_list_latency", "p95_ms", Role.TIGHTENED),
    Measurement("p_buckets_latency", "p95_ms", Role.TIGHTENED),
    Measurement("p_summary_latency", "p95_ms", Role.TIGHTENED),
    Measurement("p_sync_wall", "seconds", Role.TIGHTENED, scale=1000.0),
    Measurement("p_page_interactive", "first_row_ms", Role.TIGHTENED),
    Measurement("p_first_frame", "first_draw_ms", Role.TIGHTENED),
    Measurement("e_under_load_latency", "p95_ms", Role.TIGHTENED),
    Measurement("e_optimistic_paint", "paint_ms", Role.SPEC),
    Measurement("t_tooltip", "latency_ms", Role.SPEC),
    Measurement("e_frames_under_drag", "frames", Role.FLOORS),
)
