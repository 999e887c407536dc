"""Phase ``vendor``: the vendor's own ledgers, read from the mock after the run (never from
the app): every commit after load, the list requests of the first sync and of the later
ones (sliced at the phase marks), every webhook delivery with the app's answer, and every
create the app sent. It runs even when the app died at boot: what the vendor saw is
evidence either way."""

from __future__ import annotations

from benchwright.services.meridian_v3 import Commit as VendorCommit
from benchwright.services.meridian_v3 import CommitLedger, CreateAttempt, berlin_day
from benchwright.services.meridian_v3 import Delivery as VendorDelivery
from benchwright.suites.sb7.context import GradeContext
from benchwright.suites.sb7.observations import (
    Commit,
    CreateRecord,
    Delivery,
    Observations,
    VendorObs,
    VendorTrace,
)
from benchwright.suites.sb7.phases._trace import list_lines, list_request, marks
from benchwright.suites.sb7.phases.sync1 import AFTER_SYNC1

UNSENT = "unregistered"
"""A delivery the vendor never sent (no webhook was registered): nothing for the app to
answer, so not a delivery the app could acknowledge or drop."""
CREATED_STATUS = {"created": 201, "replayed": 200}


def vendor(ctx: GradeContext, obs: Observations) -> VendorObs:
    """Commits, sliced list requests, deliveries and the app's creates."""
    ledger = ctx.mock.commit_ledger()
    at = marks(ctx)
    boot, after = at.get("boot", 0), at.get(AFTER_SYNC1)
    trace = VendorTrace(
        sync1=tuple(list_request(x) for x in list_lines(ctx, boot, after)),
        resync=tuple(list_request(x) for x in list_lines(ctx, after)) if after else (),
    )
    return VendorObs(
        commits=tuple(commit(c, ledger) for c in ledger.commits),
        trace=trace,
        deliveries=tuple(delivery(d) for d in ctx.mock.delivery_ledger() if d.kind != UNSENT),
        creates=tuple(create(c, ledger) for c in ledger.creates if not c.internal),
    )


def commit(found: VendorCommit, ledger: CommitLedger) -> Commit:
    """One vendor commit as the record keeps it (a refund also made the reversal)."""
    row = found.row
    created = found.source == "create"
    refunds = any(r.txn == found.txn for r in ledger.reversals) if found.txn else False
    return Commit(
        seq=found.seq, payment_id=found.payment_id, version=found.version,
        status=row["status"], amount_minor=row["amount_minor"], currency=row["currency"],
        note=row.get("note") or "", created=created,
        day=berlin_day(row["created_at"]).isoformat() if created else None,
        reversal=refunds, txn=found.txn,
    )  # fmt: skip


def delivery(found: VendorDelivery) -> Delivery:
    txn = found.txn.get("id") if isinstance(found.txn, dict) else None
    return Delivery(found.event_id, found.type, found.payment_id or None, found.version,
                    found.status or None, forged=found.kind == "forged", txn=txn)  # fmt: skip


def create(found: CreateAttempt, ledger: CommitLedger) -> CreateRecord:
    """One create the app sent: 201 created, 200 replayed (same key), else a 400. The
    vendor's attempt keeps no counterparty: the created (or replayed) payment's is it."""
    amount = found.amount_minor if isinstance(found.amount_minor, int) else None
    currency = found.currency if isinstance(found.currency, str) else None
    status = CREATED_STATUS.get(found.outcome, 400)
    replay = found.outcome == "replayed"
    rows = (
        c.row for c in ledger.commits if c.payment_id == found.payment_id and c.source == "create"
    )
    party = next(rows, {}).get("counterparty") if found.payment_id else None
    name = party.get("name") if isinstance(party, dict) else None
    return CreateRecord(found.key or None, status, found.payment_id, replay, amount, currency, name)
