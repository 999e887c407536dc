"""Phases ``under_load``, ``traps``, ``idle_perf`` and ``concurrency``."""

from __future__ import annotations

import threading

from benchwright.probes.http import JsonRead, client, concurrent_reads, fetch, sample_latency
from benchwright.suites.vspro.context import GradeContext
from benchwright.suites.vspro.observations import (
    ConcurrencyObs,
    LoadObs,
    Observations,
    PerfObs,
    TrapsObs,
)

LIST_50 = "/api/payments?limit=50"


def under_load(ctx: GradeContext, obs: Observations) -> LoadObs:
    """Arm the vendor stall, start a sync; after 0.4 s, 8 readers x 6 GETs at limit=50."""
    s = ctx.settings
    ctx.mock.mark_phase("underload", reset=False)
    ctx.mock.arm_stall(True)
    try:
        load = concurrent_reads(
            ctx.base_url,
            LIST_50,
            ctx.sync,
            readers=s.readers,
            per_reader=s.reads_per_reader,
            timeout_s=s.request_timeout_s,
            background_wait_s=s.sync_timeout_s,
        )
    finally:
        ctx.mock.arm_stall(False)
    return LoadObs(load, expect_rows=50)


def traps(ctx: GradeContext, obs: Observations) -> TrapsObs:
    """The mock's trap ledger (it waits, bounded, for an in-flight stall to resolve)."""
    return TrapsObs(ctx.mock.trap_results())


def idle_perf(ctx: GradeContext, obs: Observations) -> PerfObs:
    """20 sequential GETs each of payments (limit=50), buckets, summary; GET /; a timed sync."""
    ctx.mock.mark_phase("perf", reset=False)
    n, timeout = ctx.settings.latency_samples, ctx.settings.request_timeout_s
    payments = sample_latency(ctx.base_url, LIST_50, n=n, timeout_s=timeout)
    buckets = sample_latency(ctx.base_url, "/api/buckets", n=n, timeout_s=timeout)
    summary = sample_latency(ctx.base_url, "/api/summary", n=n, timeout_s=timeout)
    with client(ctx.base_url, timeout) as http:
        page = fetch(http, "/")
    return PerfObs(payments, buckets, summary, page, ctx.sync())


def concurrency(ctx: GradeContext, obs: Observations) -> ConcurrencyObs:
    """Two POST /api/sync at once, then the health count."""
    ctx.mock.mark_phase("concurrent", reset=False)
    calls: list[JsonRead] = []
    lock = threading.Lock()

    def one() -> None:
        result = ctx.sync()
        with lock:
            calls.append(result)

    threads = [threading.Thread(target=one, daemon=True) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(ctx.settings.sync_timeout_s + 5)
    return ConcurrencyObs(tuple(calls), ctx.health_count())
