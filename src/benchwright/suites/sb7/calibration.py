"""Where the calibration fit finds each of sb-7's calibration-owned figures in a grading.

One `Measurement` per check in ``calibration_owned`` (scorers/sb7.yaml): the evidence key
its check records and what the fit may do with its ladder. k_P tightens the latency
ladders §12 says it tightens (P's, the stream-apply and under-load E rows); the paint
ladder keeps its printed rungs; the drag frames are count floors set from the reference.
The stream-apply excellence rung (100 ms) may be out of a host's reach: SwiftShader draws
the 12,288 columns in about 150 ms on the 2-core development host, so no app applies a
change faster there; such a host's calibration records it host-bound instead of refusing.
The browser rows' keys are the interface their checks record (issue 29).
"""

from __future__ import annotations

from benchwright.scoring.calibration import Measurement, Role

MEASUREMENTS = (
    Measurement("p_drag_frames", "frames", Role.FLOORS),
    Measurement("p_stream_apply", "median_apply_ms", Role.TIGHTENED),
    Measurement("p_under_stream", "p95_ms", Role.TIGHTENED),
    Measurement("p_api_latency", "scaled_p95_ms", Role.TIGHTENED),
    Measurement("p_sync_wall", "seconds", Role.TIGHTENED, scale=1000.0),
    Measurement("e_frames_under_drag", "frames", Role.FLOORS),
    Measurement(
        "e_stream_apply_latency", "median_apply_ms", Role.TIGHTENED, may_be_out_of_reach=True
    ),
    Measurement("e_under_load_latency", "p95_ms", Role.TIGHTENED),
    Measurement("e_optimistic_paint", "paint_ms", Role.SPEC),
)
