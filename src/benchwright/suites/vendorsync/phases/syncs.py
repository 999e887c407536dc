"""Phases ``health``, ``sync1``, ``concurrent``, ``sync2`` and ``update``: the app's syncs
from the vendor, each in a window of the vendor trace of its own.

``sync1`` resets the vendor's traps (its throttles and its cursor expiry fire once per
reset); ``sync2`` is marked as its continuation (a name ending in 2 does not reset, facts
entry 42), so an ETag cache walks it in 304s; ``update`` is ``sync3``, after the vendor
flips 25 statuses.
"""

from __future__ import annotations

from benchwright.probes.host import window
from benchwright.suites.kit.wire import rows_of
from benchwright.suites.vendorsync.context import GradeContext
from benchwright.suites.vendorsync.observations import (
    LARGEST_PAGE,
    ConcurrentObs,
    HealthObs,
    Observations,
    SyncObs,
    UpdateObs,
)


def health(ctx: GradeContext, obs: Observations) -> HealthObs:
    """GET /api/health on the fresh database (before any sync)."""
    return HealthObs(ctx.call("/api/health"))


def sync1(ctx: GradeContext, obs: Observations) -> SyncObs:
    """Mark ``sync1`` (resets the traps), the timed first POST /api/sync, health after."""
    ctx.mock.mark_phase("sync1")
    with window() as seen:
        call = ctx.sync()
    return SyncObs(call, ctx.call("/api/health"), seen.state)


def concurrent(ctx: GradeContext, obs: Observations) -> ConcurrentObs:
    """Mark ``concurrent`` (no reset), two POST /api/sync at once, then the health count."""
    ctx.mock.mark_phase("concurrent", reset=False)
    return ConcurrentObs(ctx.syncs_at_once(2), ctx.health_count())


def sync2(ctx: GradeContext, obs: Observations) -> SyncObs:
    """Mark ``sync2`` (a continuation: no reset), POST /api/sync of the unchanged vendor."""
    ctx.mock.mark_phase("sync2")
    return SyncObs(ctx.sync(), ctx.call("/api/health"))


def update(ctx: GradeContext, obs: Observations) -> UpdateObs:
    """Flip 25 statuses to ``refunded`` at the vendor, mark ``sync3``, sync, read every
    row through the app's API (the flips stay: the browser shows both statuses)."""
    changed = ctx.mock.mutate_statuses()
    ctx.mock.mark_phase("sync3")
    call = ctx.sync()
    shown: dict[str, str | None] = {}
    for offset in range(0, obs.truth.total, LARGEST_PAGE):
        page = rows_of(ctx.call(f"/api/payments?limit={LARGEST_PAGE}&offset={offset}")) or []
        shown |= {r["id"]: r.get("status") for r in page if isinstance(r, dict) and "id" in r}
    return UpdateObs(changed, call, {pid: shown.get(pid) for pid in changed})
