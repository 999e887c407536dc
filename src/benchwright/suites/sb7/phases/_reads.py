"""Reads of ledgerd that several phases make: one payment, the collection's total, one
draft's state."""

from __future__ import annotations

from benchwright.suites.kit.wire import body, integer, rows_of
from benchwright.suites.sb7.context import GradeContext
from benchwright.suites.sb7.observations import EventsRead, SpotRead

EVENTS_PAGE = 500
EVENTS_PAGES = 200
"""At most this many pages of events are read (100,000 events: far above any run's)."""
CROSSING = frozenset({"draft.submitted", "draft.approved", "draft.rejected",
                      "reversal.created", "payment.sent"})  # fmt: skip
"""The event types that cross the outbox to the notifier."""


def spot_read(ctx: GradeContext, payment_id: str) -> SpotRead:
    """``GET /api/payments/<id>``."""
    read = ctx.call(f"/api/payments/{payment_id}")
    return SpotRead(payment_id, read.status, body(read))


def total(ctx: GradeContext) -> int | None:
    """``total`` of ``GET /api/payments`` (None: no integer came)."""
    return integer(body(ctx.call("/api/payments?limit=1")), "total")


def draft_state(ctx: GradeContext, draft_id: str | None) -> str | None:
    """The draft's ``state`` as the admin's ``GET /api/drafts`` lists it (None: not
    listed, or no list)."""
    for row in rows_of(ctx.call("/api/drafts", role="admin")) or ():
        if isinstance(row, dict) and str(row.get("id")) == str(draft_id):
            state = row.get("state")
            return state if isinstance(state, str) else None
    return None


def events(ctx: GradeContext, after: int = 0) -> EventsRead:
    """Every event with ``seq > after``, as the admin reads them, page by page (``after``
    moving to the last seq served); stops at a page that moves nothing."""
    first = ctx.call(f"/api/events?after={after}&limit={EVENTS_PAGE}", role="admin")
    read, found = first, []
    for _ in range(EVENTS_PAGES):
        page = (body(read) or {}).get("events")
        if not isinstance(page, list):
            error = None if read is not first else f"no events list (status {read.status})"
            return EventsRead(first.status, tuple(found), error)
        seqs = [e["seq"] for e in page if isinstance(e, dict) and isinstance(e.get("seq"), int)]
        found += page
        if not seqs or max(seqs) <= after:
            break
        after = max(seqs)
        read = ctx.call(f"/api/events?after={after}&limit={EVENTS_PAGE}", role="admin")
    return EventsRead(first.status, tuple(found))


def crossing_seqs(ctx: GradeContext, after: int) -> tuple[int, ...]:
    """The seqs after ``after`` whose event crosses the outbox."""
    return tuple(e["seq"] for e in events(ctx, after).events
                 if isinstance(e, dict) and e.get("type") in CROSSING
                 and isinstance(e.get("seq"), int))  # fmt: skip


def processed(ctx: GradeContext, after: int = 0) -> tuple[int, ...] | None:
    """Every seq notifierd's ``/notify/processed?after=`` lists, repeats kept, in the
    order listed (None: no list came back)."""
    rows = (body(ctx.notifier(f"/notify/processed?after={after}")) or {}).get("processed")
    if not isinstance(rows, list):
        return None
    return tuple(r["seq"] for r in rows if isinstance(r, dict) and isinstance(r.get("seq"), int))
