"""A suite's timing rows: a measurement placed on its ladder (`latency_row`, `wall_row`),
and the contention rule applied to each: judged against the host state of the window it
was measured in (`benchwright.scoring.contention`), which the suite names per row."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from benchwright.model import CheckResult
from benchwright.probes.host import HostState
from benchwright.probes.http import JsonRead, LatencyObservation
from benchwright.scoring import Rung, ladder_score
from benchwright.scoring.contention import judge_timed
from benchwright.suites.kit.checks.results import g, result
from benchwright.suites.kit.record import PhaseLog

HostOf = Callable[[PhaseLog, str, str], HostState | None]
"""``(observations, phase, window) -> the host across that measurement`` (None: the
phase did not run)."""


def judge_timing(
    rows: Iterable[CheckResult],
    obs: PhaseLog,
    timed: Mapping[str, tuple[str, str]],
    host_of: HostOf,
) -> list[CheckResult]:
    """Every row, those in ``timed`` (row -> (phase, window)) judged against the host
    state of their window."""
    return [
        judge_timed(row, host_of(obs, *timed[row.check_id])) if row.check_id in timed else row
        for row in rows
    ]


def rung(value: float, rungs: tuple[Rung, ...], k_p: float, unit: str) -> tuple[float, str]:
    """The rung's score and the rest of its detail, e.g. ``212 ms (rung <=300 ms; top rung
    <=150 ms)``."""
    found = ladder_score(round(value, 1 if unit == "ms" else 2), rungs, k_p, unit=unit)
    return found.score, found.detail.split(": ", 1)[1].replace("; top <=", "; top rung <=")


def latency_row(
    check_id: str, lat: LatencyObservation, rungs: tuple[Rung, ...], k_p: float
) -> CheckResult:
    """The p95 of sequential requests on its ladder (ms); unmeasurable (too few
    successes) scores 0, never fast."""
    if lat.p95_ms is None:
        return result(check_id, 0.0, f"0: p95 unmeasurable: {len(lat.success_ms)}/"
                      f"{len(lat.samples)} requests to {lat.path} succeeded (need 10)")  # fmt: skip
    head, rest = rung(lat.p95_ms, rungs, k_p, "ms")
    return result(check_id, head, f"{g(head)}: p95 {rest}", p95_ms=lat.p95_ms, errors=lat.errors,
                  timing_score=head)  # fmt: skip


def wall_row(check_id: str, call: JsonRead, rungs_ms: tuple[Rung, ...], k_p: float) -> CheckResult:
    """One timed ``POST /api/sync`` on its ladder (rungs in ms, judged in seconds); a
    sync that failed scores 0."""
    if call.status is None or not 200 <= call.status < 300:
        why = call.response.error or f"status {call.status}"
        return result(check_id, 0.0, f"0: the timed sync failed ({why})")
    rungs = tuple(Rung(r.at_most / 1000, r.score) for r in rungs_ms)
    head, rest = rung(call.response.elapsed_s, rungs, k_p, "s")
    return result(check_id, head, f"{g(head)}: {rest}", seconds=call.response.elapsed_s,
                  timing_score=head)  # fmt: skip
