"""Tier P (performance) measured over HTTP, and the E row under load."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.probes.http import HttpObservation, JsonRead, LatencyObservation, parse_wire_json
from benchwright.suites.kit.checks import app_check, g, is_int, result, unavailable
from benchwright.suites.kit.checks.timing import latency_row, rung, wall_row
from benchwright.suites.vspro.checks._common import CheckSettings
from benchwright.suites.vspro.observations import Observations, body, rows_of

OVERLAP_FLOOR = 0.5


@app_check("p_list_latency", needs=("idle_perf",))
def p_list_latency(obs: Observations, s: CheckSettings) -> CheckResult:
    """p95 of 20 sequential GET /api/payments?limit=50: <=150/300/600/1200 ms."""
    return _latency("p_list_latency", obs["idle_perf"].payments, s)


@app_check("p_buckets_latency", needs=("idle_perf",))
def p_buckets_latency(obs: Observations, s: CheckSettings) -> CheckResult:
    """p95 of 20 sequential GET /api/buckets: <=200/400/800/1600 ms."""
    return _latency("p_buckets_latency", obs["idle_perf"].buckets, s)


@app_check("p_summary_latency", needs=("idle_perf",))
def p_summary_latency(obs: Observations, s: CheckSettings) -> CheckResult:
    """p95 of 20 sequential GET /api/summary: <=150/300/600/1200 ms."""
    return _latency("p_summary_latency", obs["idle_perf"].summary, s)


@app_check("p_sync_wall", needs=("idle_perf",))
def p_sync_wall(obs: Observations, s: CheckSettings) -> CheckResult:
    """One timed POST /api/sync (240 s timeout): <=90/135/180/270 s."""
    return wall_row("p_sync_wall", obs["idle_perf"].sync, s.ladders["p_sync_wall"], s.k_p)


@app_check("e_under_load_latency", needs=("under_load",))
def e_under_load_latency(obs: Observations, s: CheckSettings) -> CheckResult:
    """8 readers x 6 GETs (limit=50) during a stalled sync: overlap >= 0.5 or UNAVAILABLE;
    any wrong read 0; else p95 <=150/300/600/1200 ms."""
    lo = obs["under_load"]
    load, want = lo.load, lo.expect_rows
    if load.overlap_fraction < OVERLAP_FLOOR:
        return unavailable("e_under_load_latency", f"refused: only {load.overlap_fraction:.0%} "
                           f"of reads overlapped the sync (floor 50%); unproven load licenses "
                           "nothing")  # fmt: skip
    wrong = [x for x in load.samples if x.response.status != 200
             or len(rows_of(_read(x.response)) or []) != want
             or not is_int((body(_read(x.response)) or {}).get("total"))]  # fmt: skip
    if wrong:
        first = wrong[0].response
        return result("e_under_load_latency", 0.0, f"0: {len(wrong)}/{len(load.samples)} reads "
                      f"wrong under load (first: status {first.status}, "
                      f"{first.error or 'body not a 50-row page'})")  # fmt: skip
    if load.p95_ms is None:
        return result("e_under_load_latency", 0.0, "0: p95 unmeasurable")
    head, rest = rung(load.p95_ms, s.ladders["e_under_load_latency"], s.k_p, "ms")
    detail = f"{g(head)}: p95 {rest}; overlap {load.overlap_fraction:.0%}"
    return result("e_under_load_latency", head, detail, p95_ms=load.p95_ms, timing_score=head)


def _latency(check_id: str, lat: LatencyObservation, s: CheckSettings) -> CheckResult:
    return latency_row(check_id, lat, s.ladders[check_id], s.k_p)


def _read(response: HttpObservation) -> JsonRead:
    return JsonRead(response, parse_wire_json(response.body))
