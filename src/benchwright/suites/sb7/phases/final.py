"""Phase ``final``: the run at quiescence. Once the vendor has delivered every webhook
and ledgerd's outbox is drained, the read stream stops and the final state is read: the
collection's total, the summary, the viz records, every payment the run touched, the
whole event log, notifierd's durable processed set and notifications and its counters,
and the database directory's listing."""

from __future__ import annotations

from benchwright.probes.http import JsonRead
from benchwright.suites.kit.wire import body, integer, rows_of
from benchwright.suites.sb7.context import LEDGERD, GradeContext
from benchwright.suites.sb7.observations import FinalObs, NotifierObs, Observations
from benchwright.suites.sb7.phases._reads import events, processed, spot_read
from benchwright.suites.sb7.phases._trace import mark
from benchwright.suites.sb7.phases._waits import until

VIZ_TIMEOUT_S = 30.0
NOTIFICATIONS_PAGE = 100
NOTIFICATIONS_PAGES = 100
"""At most 10,000 notification rows are read (a run makes a few dozen)."""


def final(ctx: GradeContext, obs: Observations) -> FinalObs:
    """Quiesce, stop the read stream, read everything the checks compare with the vendor."""
    settings = ctx.settings
    mark(ctx, "final")
    ctx.settle_deliveries()
    until(lambda: integer(body(ctx.call("/api/outbox/status")), "pending") == 0,
          settings.quiesce_budget_s, settings.poll_s * 5, ctx.ledgerd_alive)  # fmt: skip
    if ctx.sampler is not None:
        ctx.sampler.stop()
    notifier = NotifierObs(processed(ctx), notifications(ctx), body(ctx.notifier("/health")))
    return FinalObs(
        payments=ctx.call("/api/payments"),
        summary=ctx.call("/api/summary"),
        viz=ctx.call("/api/viz/records", timeout_s=VIZ_TIMEOUT_S),
        spot=tuple(spot_read(ctx, pid) for pid in sorted(touched(ctx))),
        events=events(ctx),
        notifier=notifier,
        db_dir=tuple(sorted(p.name for p in ctx.app[LEDGERD].db.parent.iterdir())),
    )


def touched(ctx: GradeContext) -> set[str]:
    """Every payment the vendor committed to after load (races, traps, refund, masked
    rows, creates) and the forged event's target (it must be untouched)."""
    ledger = ctx.mock.commit_ledger()
    return {c.payment_id for c in ledger.commits} | {ctx.mock.schedule.forged.payment_id}


def notifications(ctx: GradeContext) -> tuple[dict, ...] | None:
    """Every row of notifierd's ``/notify/notifications``, page by page (None: the first
    page never came)."""
    rows: list[dict] = []
    for page in range(NOTIFICATIONS_PAGES):
        read: JsonRead = ctx.notifier(
            f"/notify/notifications?limit={NOTIFICATIONS_PAGE}&offset={page * NOTIFICATIONS_PAGE}"
        )
        found = rows_of(read)
        if found is None:
            return None if page == 0 else tuple(rows)
        rows += [row for row in found if isinstance(row, dict)]
        if len(found) < NOTIFICATIONS_PAGE:
            break
    return tuple(rows)
