"""Phases ``reads``, ``validation`` and ``perf``: the local API on the wire."""

from __future__ import annotations

from benchwright.probes.host import measure
from benchwright.probes.http import (
    MatrixCell,
    client,
    fetch,
    run_matrix,
    sample_json,
    sample_latency,
)
from benchwright.suites.vendorsync.context import GradeContext
from benchwright.suites.vendorsync.observations import (
    LARGEST_PAGE,
    Observations,
    PerfObs,
    ReadsObs,
    ValidationObs,
)

JSON_SAMPLE = (
    "/api/health", "/api/payments", "/api/payments?limit=5&offset=5", "/api/summary",
    "/api/nope", "/api/payments?limit=-1",
)  # fmt: skip
"""The public sample of ``json_everywhere`` (facts entry 21)."""
BAD_REQUESTS = ("limit=-1", "limit=abc", "offset=-5", "offset=abc", "limit=0")
NOT_FOUND = ("/api/nope", "/api/payments/deep/unknown")
WRONG_METHOD = MatrixCell("DELETE /api/payments", "/api/payments", "DELETE")
"""A served path asked with a method it does not serve (spec §6.6: 405)."""
LIST_25 = "/api/payments?limit=25"


def reads(ctx: GradeContext, obs: Observations) -> ReadsObs:
    """GET /, the paging cells, every row in 100-row pages, summary, health, the JSON sample."""
    timeout = ctx.settings.request_timeout_s
    with client(ctx.base_url, timeout) as http:
        index = fetch(http, "/")
    return ReadsObs(
        index=index,
        default=ctx.call("/api/payments"),
        capped=ctx.call("/api/payments?limit=500"),
        page5=ctx.call("/api/payments?limit=5&offset=5"),
        pages=tuple(
            ctx.call(f"/api/payments?limit={LARGEST_PAGE}&offset={offset}")
            for offset in range(0, obs.truth.total, LARGEST_PAGE)
        ),
        summary=ctx.call("/api/summary"),
        health=ctx.call("/api/health"),
        sample=sample_json(ctx.base_url, JSON_SAMPLE, timeout_s=timeout),
    )


def error_cells() -> list[MatrixCell]:
    """The error matrix of ``input_validation`` (facts entry 15)."""
    return [
        *(MatrixCell(q, f"/api/payments?{q}") for q in BAD_REQUESTS),
        *(MatrixCell(path, path) for path in NOT_FOUND),
        WRONG_METHOD,
    ]


def validation(ctx: GradeContext, obs: Observations) -> ValidationObs:
    """Five bad queries (400), two unknown paths (404), a wrong method (405)."""
    return ValidationObs(
        run_matrix(ctx.base_url, error_cells(), timeout_s=ctx.settings.request_timeout_s)
    )


def perf(ctx: GradeContext, obs: Observations) -> PerfObs:
    """20 sequential GET /api/payments?limit=25 (taken again, bounded, on a contended host)."""
    n, timeout = ctx.settings.latency_samples, ctx.settings.request_timeout_s
    timed = measure(lambda: sample_latency(ctx.base_url, LIST_25, n=n, timeout_s=timeout))
    return PerfObs(timed.value, timed.host)
