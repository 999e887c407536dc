"""Shared by the live stream's rows (t_stream_diff, p_stream_apply, e_stream_apply_latency):
the ``viz`` scenario's stream section or the row that says why there is none, the digest
delta the grader expects from a window's messages, and the median apply time on a ladder.

A batch *landed* when its record's message reached the page; it *applied* when a frame
after that showed the new top colour at the watched pixel (store, digest and pixels)."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from benchwright.model import CheckResult
from benchwright.scoring.contention import host_bound
from benchwright.suites.kit.checks import g, result, unavailable
from benchwright.suites.kit.checks.timing import rung
from benchwright.suites.sb7.checks._common import PROBE, CheckSettings
from benchwright.suites.sb7.checks._viz import graded
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.viz import scene
from benchwright.suites.sb7.viz.stream import APPLY_S
from benchwright.suites.sb7.viz.view import StreamBatch, StreamRun, VizView


def stream_of(
    obs: Observations, check_id: str, *, timed: bool = False, truth: bool = False
) -> tuple[VizView | None, StreamRun | None, CheckResult | None]:
    """(the view, its stream, None), or (None, None, the row): vacuous on a dead sync,
    UNAVAILABLE when the section was lost or never ran, 0 when no field or when no
    committed change ever reached the page ("the live stream never landed")."""
    seen, row = graded(obs, check_id, "context", "stream", timed=timed, truth=truth, dead=True)
    if row is not None:
        return None, None, row
    run = seen.stream  # type: ignore[union-attr]
    if run is None or not run.batches:
        return None, None, unavailable(check_id, f"{PROBE}the stream section did not run (no "
                                       "vendor to commit through, or no measured column "
                                       "to watch)")  # fmt: skip
    if not any(b.received is not None for b in run.batches):
        return None, None, result(check_id, 0.0, f"0: the live stream never landed (none of "
                                  f"{len(run.batches)} committed changes reached the page "
                                  f"within {APPLY_S:g} s)")  # fmt: skip
    return seen, run, None


def changed(batch: StreamBatch) -> set[str]:
    """The record ids the window's messages carry (at least the committed one)."""
    return {str(r.get("id")) for m in batch.messages for r in m.get("records") or ()} | {batch.id}


def apply_row(check_id: str, obs: Observations, s: CheckSettings) -> CheckResult:
    """The median apply time over the committed batches on ``check_id``'s ladder; a batch
    that never applied counts as slower than any rung. On a host the calibration found
    too slow for the row's top rung, anything short of it is UNAVAILABLE (host-bound)."""
    _seen, run, row = stream_of(obs, check_id, timed=True)
    if row is not None:
        return row
    times = [b.apply_ms if b.apply_ms is not None else math.inf for b in run.batches]  # type: ignore[union-attr]
    shown = [round(t, 1) if math.isfinite(t) else None for t in times]
    median = statistics.median(times)
    applied = sum(math.isfinite(t) for t in times)
    if not math.isfinite(median):
        return result(check_id, 0.0, f"0: only {applied} of {len(times)} batches showed their "
                      f"change within {APPLY_S:g} s", apply_ms=shown, timing_score=0.0)  # fmt: skip
    score, rest = rung(median, s.ladders[check_id], s.k_p, "ms")
    row = result(check_id, score, f"{g(score)}: median apply {rest} over {len(times)} "
                 f"batches ({applied} applied)", apply_ms=shown, timing_score=score,
                 median_apply_ms=round(median, 1))  # fmt: skip
    bound = s.host_bound.get(check_id)
    return row if bound is None else host_bound(row, bound, "ms")


Moments = dict[str, float]


class Replay:
    """The page's records as the stream grows them: the downloaded ones, then each create
    appended at its day's count (§8.6: nothing else moves), so a window's creates give the
    digest's expected move."""

    def __init__(self, records: list[scene.Record], basis: scene.Basis) -> None:
        self.ids = {r.id for r in records}
        self.per_day = Counter(r.day for r in records)
        self.count = len(records)
        self.basis = basis

    def apply(self, messages: Iterable[Mapping[str, Any]]) -> Moments:
        """Take ``messages`` in; the moments their creates add (updates move nothing: a
        status is no moment, and the truth's amounts never change)."""
        added = []
        for message in messages:
            for rec in message.get("records") or ():
                made = _record(rec)
                if made is None or made.id in self.ids:
                    continue
                added.append(scene.column(made, self.count, self.per_day[made.day], self.basis))
                self.ids.add(made.id)
                self.per_day[made.day] += 1
                self.count += 1
        return scene.digest(added)


def _record(rec: Any) -> scene.Record | None:
    """A streamed record as the scene places it (None: not one it can place)."""
    if not isinstance(rec, Mapping):
        return None
    amount, day = rec.get("amount_minor"), rec.get("day")
    if not isinstance(amount, int) or not isinstance(day, str):
        return None
    return scene.Record(str(rec.get("id")), amount, str(rec.get("currency")),
                        str(rec.get("created_at")), day)  # fmt: skip


DELTA_TOL = 0.01
"""How far a moment's move may stray from the replayed one. Not the absolute digest's
tolerance (``scene.tolerance``: 1e-4 of a sum in the thousands hides a re-ranked column):
a move is exact up to the 4-decimal rounding at both ends and float64 drift."""


def digest_moved(batch: StreamBatch, expected: Moments) -> bool:
    """The page's digest moved by ``expected`` over the window, each moment within
    `DELTA_TOL` (both digests answered)."""
    before, after = batch.digest_before, batch.digest_after
    if not isinstance(before, Mapping) or not isinstance(after, Mapping):
        return False
    for key in scene.MOMENTS:
        a, b = before.get(key), after.get(key)
        if not isinstance(a, int | float) or not isinstance(b, int | float):
            return False
        if abs(b - a - expected[key]) > DELTA_TOL:
            return False
    return True
