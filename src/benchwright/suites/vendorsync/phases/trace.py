"""Phase ``trace``: the vendor's contract ledger of each graded window, read after
everything else (it runs even when the app went down: it reads only the vendor)."""

from __future__ import annotations

from benchwright.services.meridian import ContractLedger
from benchwright.suites.vendorsync.context import GradeContext
from benchwright.suites.vendorsync.observations import LedgerObs, Observations

WINDOWS = ("sync1", "sync2", "client")
"""The first sync, the conditional re-sync, the direct client calls."""


def trace(ctx: GradeContext, obs: Observations) -> LedgerObs:
    """``contract_ledger`` of sync1, sync2 and the client calls (None: never marked)."""
    return LedgerObs({name: _ledger(ctx, name) for name in WINDOWS})


def _ledger(ctx: GradeContext, phase: str) -> ContractLedger | None:
    try:
        return ctx.mock.contract_ledger(phase)
    except ValueError:  # the phase never ran, so it was never marked
        return None
