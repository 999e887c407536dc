"""Phases ``under_load``, ``traps``, ``idle_perf`` and ``concurrency``."""

from __future__ import annotations

from benchwright.probes.host import measure, window
from benchwright.probes.http import client, concurrent_reads, fetch, sample_latency
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
        with window() as seen:
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
    return LoadObs(load, expect_rows=50, host=seen.state)


def traps(ctx: GradeContext, obs: Observations) -> TrapsObs:
    """The mock's trap ledger (it waits, bounded, for an in-flight stall to resolve)."""
    return TrapsObs(ctx.mock.trap_results())


def idle_perf(ctx: GradeContext, obs: Observations) -> PerfObs:
    """20 sequential GETs each of payments (limit=50), buckets, summary; GET /; a timed
    sync. Each timed measurement is taken again (bounded) while the host was contended."""
    ctx.mock.mark_phase("perf", reset=False)
    n, timeout = ctx.settings.latency_samples, ctx.settings.request_timeout_s
    timed = {
        name: measure(lambda path=path: sample_latency(ctx.base_url, path, n=n, timeout_s=timeout))
        for name, path in (
            ("payments", LIST_50), ("buckets", "/api/buckets"), ("summary", "/api/summary")
        )
    }  # fmt: skip
    with client(ctx.base_url, timeout) as http:
        page = fetch(http, "/")
    sync = measure(ctx.sync)
    host = {name: t.host for name, t in timed.items()} | {"sync": sync.host}
    return PerfObs(
        timed["payments"].value, timed["buckets"].value, timed["summary"].value, page,
        sync.value, host,
    )  # fmt: skip


def concurrency(ctx: GradeContext, obs: Observations) -> ConcurrencyObs:
    """Two POST /api/sync at once, then the health count."""
    ctx.mock.mark_phase("concurrent", reset=False)
    return ConcurrencyObs(ctx.syncs_at_once(2), ctx.health_count())
