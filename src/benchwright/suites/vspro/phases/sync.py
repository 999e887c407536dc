"""The graded syncs: half-capped sync #1, the full sync, the fill sync, conditional sync #2.

Phase markers split the vendor trace: sync #1's window ends at ``syncfull``; sync
#2 runs inside ``sync2`` .. ``sync2done`` (no trap reset, so a client with an
ETag cache walks it in 304s).
"""

from __future__ import annotations

from benchwright.suites.vspro.context import GradeContext
from benchwright.suites.vspro.observations import Observations, SyncObs


def sync1(ctx: GradeContext, obs: Observations) -> SyncObs:
    """Cap the vendor to half its rows, mark ``sync1`` (resets traps), POST /api/sync."""
    ctx.mock.set_visible_cap(obs.expect.total // 2)
    ctx.mock.mark_phase("sync1")
    return SyncObs(ctx.sync())


def sync_full(ctx: GradeContext, obs: Observations) -> SyncObs:
    """Clear the cap, mark ``syncfull``, sync the whole collection.

    The seed's browser probe clicks ``#sync-now`` here; until the browser probes
    exist the harness POSTs /api/sync itself (the journey is graded by j_sync_journey).
    """
    ctx.mock.clear_visible_cap()
    ctx.mock.mark_phase("syncfull")
    call = ctx.sync()
    return SyncObs(call, health_count=ctx.health_count())


def sync_fill(ctx: GradeContext, obs: Observations) -> SyncObs:
    """Only when health is not the full count: mark ``syncfill`` and sync again."""
    count = ctx.health_count()
    if count == obs.expect.total:
        return SyncObs(ctx.call("/api/health"), health_count=count, ran=False)
    ctx.mock.mark_phase("syncfill")
    call = ctx.sync()
    return SyncObs(call, health_count=ctx.health_count())


def sync2(ctx: GradeContext, obs: Observations) -> SyncObs:
    """Mark ``sync2`` (no reset), sync, mark ``sync2done``: the conditional re-sync."""
    ctx.mock.mark_phase("sync2")
    call = ctx.sync()
    ctx.mock.mark_phase("sync2done", reset=False)
    return SyncObs(call)
