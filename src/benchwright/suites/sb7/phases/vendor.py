"""Phase ``vendor``: the vendor's own ledgers, read from the mock after the run (never from
the app): every commit after load, the list requests of the first sync and of the later
ones (sliced at the phase marks), every webhook delivery with the app's answer, and every
create the app sent. It runs even when the app died at boot: what the vendor saw is
evidence either way.

The commits, creates and later list requests stop at the ``final`` mark, and so do the
deliveries announcing a later commit: the X and R rows compare the vendor with what
``final`` read from the app, so what the vendor did after it (the browser's journeys: a
note, a sync click, an approved draft's payment) belongs to the browser rows and to none
of theirs. (Deliveries of earlier commits that ``final`` waited for stay.)"""

from __future__ import annotations

import math

from benchwright.services.meridian_v3 import Commit as VendorCommit
from benchwright.services.meridian_v3 import CommitLedger, CreateAttempt, berlin_day
from benchwright.services.meridian_v3 import Delivery as VendorDelivery
from benchwright.suites.sb7.context import GradeContext
from benchwright.suites.sb7.observations import (
    FINAL,
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
    boot, after, final = at.get("boot", 0), at.get(AFTER_SYNC1), at.get(FINAL)
    cut = _when(ctx, final)
    trace = VendorTrace(
        sync1=tuple(list_request(x) for x in list_lines(ctx, boot, after)),
        resync=tuple(list_request(x) for x in list_lines(ctx, after, final)) if after else (),
    )
    later = {(c.payment_id, c.version) for c in ledger.commits if c.t > cut}
    return VendorObs(
        commits=tuple(commit(c, ledger) for c in ledger.commits if c.t <= cut),
        trace=trace,
        deliveries=tuple(
            delivery(d)
            for d in ctx.mock.delivery_ledger()
            if d.kind != UNSENT and (d.payment_id, d.version) not in later
        ),
        creates=tuple(create(c, ledger) for c in ledger.creates if not c.internal and c.t <= cut),
    )


def _when(ctx: GradeContext, seq: int | None) -> float:
    """The wall time of trace line ``seq`` (a mark); no mark: no cut."""
    if seq is None:
        return math.inf
    return next(line["t"] for line in ctx.mock.trace.lines() if line["seq"] == seq)


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
