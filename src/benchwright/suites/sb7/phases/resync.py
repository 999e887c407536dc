"""Phase ``resync``: later syncs. B3: ledgerd SIGKILLed after the n-th list response of
sync #2, restarted with the same flags, re-synced, and read for convergence and
duplicates. B5: the vendor commits silent mutations behind one stale-validator 304
carrying a new collection generation, armed for sync #3 or #4 (on #4, #3 is a plain
conditional sync); the masked rows are read back once that sync completes."""

from __future__ import annotations

import threading

from benchwright.suites.kit.wire import body
from benchwright.suites.sb7.context import LEDGERD, GradeContext
from benchwright.suites.sb7.observations import (
    FaultWindow,
    MaskedMutation,
    Observations,
    ResyncObs,
)
from benchwright.suites.sb7.phases._kills import kill_and_restart
from benchwright.suites.sb7.phases._reads import spot_read, total
from benchwright.suites.sb7.phases._trace import list_lines, list_request, mark
from benchwright.suites.sb7.phases._waits import until

KILL_POLL_S = 0.005
"""How often the trace is read for sync #2's list responses: the kill lands at or
shortly after the n-th one (a fast client may be a few responses further)."""


def resync(ctx: GradeContext, obs: Observations) -> ResyncObs:
    """B3, then B5."""
    b3, kill, count, expected, ids = _b3(ctx)
    return ResyncObs(b3=b3, b3_kill=kill, b3_total=count, b3_expected=expected, b3_ids=ids,
                     **_b5(ctx))  # fmt: skip


def _b3(
    ctx: GradeContext,
) -> tuple[FaultWindow, object, int | None, int | None, tuple[str, ...] | None]:
    settings, n = ctx.settings, ctx.schedule.b3_after_list
    before = ctx.health_count()
    since = mark(ctx, "sync2")
    running = threading.Thread(target=ctx.sync, name="sb7-sync2", daemon=True)
    running.start()
    answered = until(lambda: len([x for x in list_lines(ctx, since) if x.get("status")]) >= n,
                     settings.kill_window_s, KILL_POLL_S, ctx.ledgerd_alive)  # fmt: skip
    if not answered:
        running.join(settings.sync_timeout_s)
        made = len(list_lines(ctx, since))
        why = f"sync #2 made {made} list request(s), never {n} answered ones"
        return FaultWindow(armed=True, fired=False, unreached=why), None, None, None, None
    kill = kill_and_restart(ctx, "B3", LEDGERD, before)
    running.join(settings.request_timeout_s)
    mark(ctx, "b3-resync")
    ctx.sync()
    expected = ctx.mock.truth().total
    until(lambda: total(ctx) == expected, settings.quiesce_budget_s, settings.poll_s * 5,
          ctx.ledgerd_alive)  # fmt: skip
    viz = body(ctx.call("/api/viz/records", timeout_s=30.0)) or {}
    ids = viz.get("id")
    return (FaultWindow(armed=True, fired=True), kill, total(ctx), expected,
            tuple(map(str, ids)) if isinstance(ids, list) else None)  # fmt: skip


def _b5(ctx: GradeContext) -> dict:
    """The B5 fields of `ResyncObs`: the window, the masked mutations, their rows read
    back, and the B5 sync's list requests."""
    if ctx.schedule.b5_sync == 4:
        mark(ctx, "sync3")
        ctx.sync()
    ctx.mock.arm_stale_304()
    since = mark(ctx, "b5")
    ctx.sync()
    ctx.settle_deliveries()
    upto = mark(ctx, "after-b5")
    stale = ctx.mock.stale_ledger()
    rows = ctx.mock.commit_ledger().rows_at()
    masked = tuple(MaskedMutation(pid, version, rows[pid]["status"])
                   for pid, version in stale.masked)  # fmt: skip
    after = tuple(spot_read(ctx, m.payment_id) for m in masked)
    why = None if stale.fired else "the B5 sync sent no conditional request for the stale page"
    return {
        "b5": FaultWindow(armed=stale.armed, fired=stale.fired, unreached=why),
        "b5_masked": masked,
        "b5_after": after,
        "b5_requests": tuple(list_request(x) for x in list_lines(ctx, since, upto)),
    }
