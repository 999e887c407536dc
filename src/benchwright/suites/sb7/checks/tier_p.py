"""Tier P rows measured from the harness side (§12): the idle API battery, the reads raced
against a stream burst, and the first sync's wall clock. The P rows of the 3D field are
the viz probe's (`tier_p_viz`)."""

from __future__ import annotations

from benchwright.model import CheckResult
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
    """The worst endpoint of the idle battery, each p95 brought to the ladder's reference
    budget (the payments page's 150 ms) by its own spec budget (summary 150 ms, buckets
    200, viz records 400): <=150/300/600/1500 ms; an endpoint that mostly failed 0."""
    endpoints = obs[IDLE_PERF].endpoints
    p95s = {path: lat.p95_ms for path, lat in endpoints.items()}
    lost = [(path, lat) for path, lat in endpoints.items() if lat.p95_ms is None]
    if lost:
        path, lat = lost[0]
        return result("p_api_latency", 0.0, f"0: {path} p95 unmeasurable: {len(lat.success_ms)}/"
                      f"{len(lat.samples)} requests succeeded (need 10)", p95_ms=p95s)  # fmt: skip
    scaled = {path: lat.p95_ms * BUDGETS_MS[LIST_50] / BUDGETS_MS[path]
              for path, lat in endpoints.items() if lat.p95_ms is not None}  # fmt: skip
    worst = max(scaled, key=lambda path: scaled[path])
    score, rest = rung(scaled[worst], s.ladders["p_api_latency"], s.k_p, "ms")
    detail = (f"{g(score)}: worst {worst}: p95 {p95s[worst]:.1f} ms of its {BUDGETS_MS[worst]:g} "
              f"ms budget, {rest.replace(' (', ' on the payments scale (', 1)}")  # fmt: skip
    return result("p_api_latency", score, detail, p95_ms=p95s, scaled_p95_ms=scaled[worst],
                  timing_score=score, **{WINDOW: worst})  # fmt: skip


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
