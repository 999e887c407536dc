"""Tier T's stream row (§12 t_stream_diff): SSE batches apply as true diffs. Each graded
batch is one vendor change the ``viz`` scenario committed and awaited (`viz.stream`): the
buffer bytes uploaded in its window against |changed| x 64 + 4096, reallocations
(``bufferData`` over 4096 bytes), the digest's move against the grader's replay of the
window's messages, and the changed column's top pixel in its new status colour."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, g, result
from benchwright.suites.sb7.browser.record import BROWSER
from benchwright.suites.sb7.checks._stream import Replay, changed, digest_moved, stream_of
from benchwright.suites.sb7.checks._viz import near, truth_records
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.viz.view import TOPS

STRIDE, SLACK = 64, 4096
"""§12's per-record stride and the allowance for uniforms and small buffers."""
WEIGHTS = {"bytes": 0.35, "reallocs": 0.15, "digest": 0.3, "pixel": 0.2}


@app_check("t_stream_diff", needs=(BROWSER,))
def t_stream_diff(obs: Observations, _s) -> CheckResult:
    """Landed batches within their byte budget (0.35 x fraction), no reallocation in any
    window (0.15), digest moves matching the replay (0.3 x fraction), every changed top
    in its new colour (0.2). No batch landed: 0."""
    seen, run, row = stream_of(obs, "t_stream_diff", truth=True)
    if row is not None:
        return row
    basis, records = truth_records(obs, seen)  # type: ignore[arg-type]
    replay = Replay(records, basis)
    landed, within, moved, shown, reallocs, bytes_seen = 0, 0, 0, 0, 0, []
    for batch in run.batches:  # type: ignore[union-attr]
        replay.apply(batch.earlier)
        expected = replay.apply(batch.messages)
        if batch.received is None:
            continue
        landed += 1
        w = batch.window
        uploaded = w.end.bytes - w.start.bytes
        bytes_seen.append(uploaded)
        within += uploaded <= len(changed(batch)) * STRIDE + SLACK
        reallocs += w.end.reallocs - w.start.reallocs
        moved += digest_moved(batch, expected)
        shown += batch.pixel is not None and near(batch.pixel, TOPS[batch.status])
    parts = {"bytes": within / landed, "reallocs": float(reallocs == 0),
             "digest": moved / landed, "pixel": float(shown == landed)}  # fmt: skip
    score = sum(WEIGHTS[k] * v for k, v in parts.items())
    return result("t_stream_diff", score, f"{g(score)}: {landed}/{len(run.batches)} batches "  # type: ignore[union-attr]
                  f"landed; {within} within |changed| x {STRIDE} + {SLACK} bytes (uploaded "
                  f"{bytes_seen}); {reallocs} reallocations; {moved} digest moves as "
                  f"replayed; {shown} changed tops in their new colour", parts=parts,
                  bytes=bytes_seen)  # fmt: skip
