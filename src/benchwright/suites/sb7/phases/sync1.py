"""Phase ``sync1``: the first walk, which the boot phase saw start unprompted, under the
vendor's seeded traps (B1 drop, B2 500 + Retry-After, the racing webhooks, the
out-of-order pair, the duplicate, the forged signature, the mid-walk create, the refund
group). The phase waits until the walk's webhooks are delivered, closes the read
stream's refund window, and records which scheduled windows fired and their targets."""

from __future__ import annotations

from benchwright.services.meridian_v3 import FaultFacts, WalkLedger
from benchwright.suites.kit.wire import integer
from benchwright.suites.sb7.context import GradeContext
from benchwright.suites.sb7.observations import (
    BOOT,
    FaultWindow,
    Observations,
    RefundWindow,
    Sync1Obs,
    Trap,
)
from benchwright.suites.sb7.phases.stream import refund_baseline, refund_commit

AFTER_SYNC1 = "after-sync1"
"""The trace mark closing the first sync's window (`phases.vendor` slices at it)."""


def sync1(ctx: GradeContext, obs: Observations) -> Sync1Obs:
    """Wait for the first walk's deliveries, then read the walk ledger and the schedule."""
    ctx.settle_deliveries()
    if ctx.sampler is not None:
        ctx.sampler.window(False)
    ctx.mock.mark_phase(AFTER_SYNC1)
    walk, vendor = ctx.mock.walk_ledger(), ctx.mock.schedule
    fired = set(walk.race_pages_fired)
    ooo, forged, refund = vendor.out_of_order, vendor.forged, vendor.refund
    return Sync1Obs(
        completed=obs.has(BOOT) and obs[BOOT].b4.recovered_unattended,
        b1=_fault(walk.drop, walk),
        b2=_fault(walk.error, walk),
        ooo=Trap(ooo.page in fired, ooo.payment_id, ooo.notes[0]),
        forged=Trap(forged.page in fired, forged.payment_id, forged.note),
        duplicate=Trap(vendor.duplicate_page in fired),
        refund=_refund(ctx, refund.payment_id, refund.page in fired),
    )


def _fault(facts: FaultFacts, walk: WalkLedger) -> FaultWindow:
    """A first-walk fault window; unfired because the walk never got that far is the
    app's (``unreached``)."""
    if facts.fired:
        return FaultWindow(armed=True, fired=True)
    stopped = f"the first walk stopped after {walk.pages_served} page(s)"
    why = facts.detail or (stopped if walk.started else "the first walk never started")
    return FaultWindow(armed=facts.armed, fired=False, unreached=why)


def _refund(ctx: GradeContext, payment_id: str, fired: bool) -> RefundWindow:
    """The refund group's payment, its refunded version, and the app's per-currency
    reversal totals in the last summary the read stream saw before the vendor committed
    the group (the baseline every later snapshot is compared with)."""
    row = ctx.mock.fixture.payments[ctx.mock.fixture.by_id[payment_id]]
    commit = refund_commit(ctx)
    start = refund_baseline(ctx)
    summary = ctx.sampler.reads[start].summary if ctx.sampler and start is not None else None
    return RefundWindow(armed=True, fired=fired and commit is not None, payment_id=payment_id,
                        currency=row["currency"], amount_minor=row["amount_minor"],
                        version=commit.version if commit else 0,
                        reversals_before=_reversal_totals(summary or {}))  # fmt: skip


def _reversal_totals(summary: dict) -> dict[str, int]:
    """Currency -> ``total_minor`` of a summary's ``reversals`` block (well-formed rows)."""
    rows = summary.get("reversals")
    found = {}
    for row in rows if isinstance(rows, list) else ():
        total = integer(row, "total_minor") if isinstance(row, dict) else None
        if total is not None and isinstance(row.get("currency"), str):
            found[row["currency"]] = total
    return found
