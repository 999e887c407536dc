"""Tier P rows measured from the harness side (§12): the idle API battery, the reads raced
against a stream burst, and the first sync's wall clock. The P rows of the 3D field are
the viz probe's (`tier_p_viz`)."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.probes.http import LatencyObservation
from benchwright.scoring import Rung
from benchwright.suites.kit.checks import app_check, g, result
from benchwright.suites.kit.checks.timing import rung
from benchwright.suites.sb7.checks._common import CheckSettings, never_ran
from benchwright.suites.sb7.checks._load import under_load_row
from benchwright.suites.sb7.observations import BOOT, VENDOR, ListRequest, Observations
from benchwright.suites.sb7.perf_obs import BUDGETS_MS, IDLE_PERF, LIST_50, UNDER_STREAM

WINDOW = "window"
"""The evidence key naming the host window that decided a row (`_timing`)."""


@app_check("p_api_latency", needs=(IDLE_PERF,))
def p_api_latency(obs: Observations, s: CheckSettings) -> CheckResult:
    """The worst endpoint of the idle battery: each p95 on the ladder scaled to its spec
    budget (payments and summary 150 ms, buckets 200, viz records 400)."""
    graded = {path: _endpoint(lat, s, path) for path, lat in obs[IDLE_PERF].endpoints.items()}
    worst = min(graded, key=lambda path: graded[path][0])
    score, why = graded[worst]
    p95s = {path: lat.p95_ms for path, lat in obs[IDLE_PERF].endpoints.items()}
    return result("p_api_latency", score, f"{g(score)}: worst {worst}: {why}", p95_ms=p95s,
                  timing_score=score, **{WINDOW: worst})  # fmt: skip


def _endpoint(lat: LatencyObservation, s: CheckSettings, path: str) -> tuple[float, str]:
    """One endpoint's rung and its detail: its p95 on the ladder, every rung scaled by the
    endpoint's budget over the payments page's (the ladder's own reference budget)."""
    if lat.p95_ms is None:
        return 0.0, (f"p95 unmeasurable: {len(lat.success_ms)}/{len(lat.samples)} requests "
                     "succeeded (need 10)")  # fmt: skip
    scale = BUDGETS_MS[path] / BUDGETS_MS[LIST_50]
    rungs = tuple(Rung(r.at_most * scale, r.score) for r in s.ladders["p_api_latency"])
    score, rest = rung(lat.p95_ms, rungs, s.k_p, "ms")
    return score, f"p95 {rest}"


@app_check("p_under_stream", needs=(UNDER_STREAM,))
def p_under_stream(obs: Observations, s: CheckSettings) -> CheckResult:
    """Overlap >= 0.5 or UNAVAILABLE; any wrong read 0; else p95 <=150/300/600/1200 ms."""
    return under_load_row("p_under_stream", obs, s)


@app_check("p_sync_wall", needs=(BOOT, VENDOR))
def p_sync_wall(obs: Observations, s: CheckSettings) -> CheckResult:
    """Sync #1 wall clock, first list request to the page closing the walk, faults and
    documented waits included: <=120/240/420/600 s; a walk that never closed 0."""
    gone = never_ran(obs, "p_sync_wall", VENDOR, "the vendor's ledger read")
    if gone is not None:
        return gone
    walk = obs[VENDOR].trace.sync1
    closed = [r for r in walk if r.last and r.status == 200]
    if not walk or not closed:
        asked = f"{len(walk)} list requests, none closing the walk" if walk else "no list request"
        return result("p_sync_wall", 0.0, f"0: sync #1 never completed ({asked})")
    seconds = _wall_s(walk, closed[0])
    rungs = tuple(Rung(r.at_most / 1000, r.score) for r in s.ladders["p_sync_wall"])
    score, rest = rung(seconds, rungs, s.k_p, "s")
    return result("p_sync_wall", score, f"{g(score)}: sync #1 took {rest} over {len(walk)} list "
                  "requests", seconds=seconds, timing_score=score)  # fmt: skip


def _wall_s(walk: tuple[ListRequest, ...], closing: ListRequest) -> float:
    """Seconds on the vendor's clock from the walk's first request to the closing one."""
    return max(0.0, closing.at - min(r.at for r in walk))
