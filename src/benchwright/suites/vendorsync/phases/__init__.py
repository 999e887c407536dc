"""The vendorsync measurement phases, in order.

A phase is ``(ctx, observations) -> observation`` (`kit.Phase`). ``static`` reads files
only; the others need the running app. The boot and the restart are the kit's kinds and
gate the rest; ``trace`` reads the vendor and runs even when the app went down. The
browser phase (``browser``, from ``vendorsync.browser``) sits after ``update`` and
before ``restart``: the page must show both ``settled`` and ``refunded``.
"""

from __future__ import annotations

from benchwright.suites.kit import Phase, kinds
from benchwright.suites.kit.phases import PhasePlan, plain
from benchwright.suites.vendorsync.browser import browser
from benchwright.suites.vendorsync.phases.client import client
from benchwright.suites.vendorsync.phases.reads import perf, reads, validation
from benchwright.suites.vendorsync.phases.static import static
from benchwright.suites.vendorsync.phases.syncs import concurrent, health, sync1, sync2, update
from benchwright.suites.vendorsync.phases.trace import trace

PLAN = PhasePlan(
    (
        Phase("static", static, needs_app=False),
        Phase("boot", kinds.boot, gates=True),
        *plain(health, sync1, concurrent, sync2, reads, validation, client, update, browser),
        Phase("restart", kinds.restart, gates=True),
        Phase("perf", perf),
        Phase("trace", trace, after_down=True),
    )
)
"""``boot`` and ``trace`` join any selection that touches the app: nothing runs unbooted,
and the vendor's ledger is what the C and hard rows read."""
PHASES = PLAN.phases
PHASE_NAMES = PLAN.names
select_phases = PLAN.select

__all__ = ["PHASES", "PHASE_NAMES", "PLAN", "select_phases"]
