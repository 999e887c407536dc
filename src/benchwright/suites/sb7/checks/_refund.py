"""The refund group seen through the read stream: each summary snapshot taken in the refund
window classified against the app's own pre-group baseline, and the half states the
stream's real-time order confirms. x_l5 and x_m2 grade the same evidence (§12: "the same
sampling that grades L5 supplies the evidence").

A snapshot shows the group *with* its reversal (the target currency's reversal total is
the baseline plus the refunded amount), *without* it (the baseline), or neither
(*broken*: minor units in the reversals block that no state of the group explains). A half
state is *confirmed* when a read that the snapshot provably follows or precedes in real
time disagrees with it: a row read that ended before the snapshot started already showed
the payment refunded, but the snapshot lacks the reversal; or the snapshot holds the
reversal, but a row read that started after it ended still shows the payment unrefunded.
Reads that overlap prove nothing, so they never confirm anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import is_int, unavailable
from benchwright.suites.sb7.checks._common import PROBE, never_ran, phase, sync_dead, vacuous
from benchwright.suites.sb7.observations import (
    STREAM,
    SYNC1,
    Observations,
    ReadStream,
    RefundWindow,
    StreamRead,
)

WITH, WITHOUT, BROKEN = "with", "without", "broken"


@dataclass(frozen=True)
class Snapshot:
    read: StreamRead
    shows: str
    """``with``, ``without`` or ``broken``."""
    confirmed_half: bool


def reversal_totals(summary: Any) -> dict[str, Any]:
    """Currency -> the ``total_minor`` the summary's reversals block gives it."""
    block = summary.get("reversals") if isinstance(summary, dict) else None
    if not isinstance(block, list):
        return {}
    return {str(e.get("currency")): e.get("total_minor") for e in block if isinstance(e, dict)}


def _shows(summary: Any, refund: RefundWindow) -> str:
    totals = reversal_totals(summary)
    base = dict(refund.reversals_before)
    others = set(totals) | set(base)
    for currency in others - {refund.currency}:
        if totals.get(currency, 0) != base.get(currency, 0):
            return BROKEN
    seen = totals.get(refund.currency, 0)
    before = base.get(refund.currency, 0)
    if not is_int(seen):
        return BROKEN
    if seen == before + refund.amount_minor:
        return WITH
    return WITHOUT if seen == before else BROKEN


def _refunded(read: StreamRead, refund: RefundWindow) -> bool | None:
    """Whether this read showed the target refunded (None: it did not read the target)."""
    for row in read.rows:
        if row.payment_id == refund.payment_id:
            return row.status == "refunded"
    return None


def snapshots(stream: ReadStream, refund: RefundWindow) -> list[Snapshot]:
    """Every summary snapshot taken inside the refund window, classified."""
    found = []
    rows = [(r, _refunded(r, refund)) for r in stream.reads]
    rows = [(r, flag) for r, flag in rows if flag is not None]
    for read in stream.reads:
        if not read.in_refund_window or not isinstance(read.summary, dict):
            continue
        shows = _shows(read.summary, refund)
        found.append(Snapshot(read, shows, _confirmed(read, shows, rows)))
    return found


def _confirmed(read: StreamRead, shows: str, rows: Sequence[tuple[StreamRead, bool]]) -> bool:
    if shows == WITHOUT:
        return any(flag and r.ended <= read.started for r, flag in rows)
    if shows == WITH:
        return any(not flag and r.started >= read.ended for r, flag in rows)
    return False


def window_reads(stream: ReadStream) -> int:
    """How many reads the stream took inside the refund window."""
    return sum(r.in_refund_window for r in stream.reads)


def evidence(obs: Observations, check_id: str) -> CheckResult | list[Snapshot]:
    """The classified snapshots of the refund window, or the row when there are none to
    grade: the window never armed, fired or sampled (UNAVAILABLE), a dead sync (vacuous)."""
    if (gone := never_ran(obs, check_id, STREAM, "the read stream")) is not None:
        return gone
    refund = getattr(phase(obs, SYNC1), "refund", None)
    if refund is None or not refund.armed or not refund.fired:
        return unavailable(check_id, f"{PROBE}the refund group never fired")
    if sync_dead(obs):
        return vacuous(check_id)
    if not window_reads(obs[STREAM]):
        return unavailable(check_id, f"{PROBE}the read stream never sampled the refund window")
    return snapshots(obs[STREAM], refund)
