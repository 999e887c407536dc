"""Tier P (performance) measured over HTTP: the list's p95 and the first sync's wall
time (facts entries 58 and 60; the page's is the browser's)."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check
from benchwright.suites.kit.checks.timing import latency_row, wall_row
from benchwright.suites.vendorsync.checks._common import CheckSettings
from benchwright.suites.vendorsync.observations import Observations


@app_check("p_list_latency", needs=("perf",))
def p_list_latency(obs: Observations, s: CheckSettings) -> CheckResult:
    """p95 of 20 sequential GET /api/payments?limit=25: <=100/200/400/800 ms."""
    return latency_row("p_list_latency", obs["perf"].payments, s.ladders["p_list_latency"], s.k_p)


@app_check("p_sync_wall", needs=("sync1",))
def p_sync_wall(obs: Observations, s: CheckSettings) -> CheckResult:
    """The timed first POST /api/sync of the whole collection, the vendor's waits
    included: <=60/90/120/180 s."""
    return wall_row("p_sync_wall", obs["sync1"].call, s.ladders["p_sync_wall"], s.k_p)
