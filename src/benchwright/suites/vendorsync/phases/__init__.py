"""The vendorsync measurement phases, in order.

A phase is ``(ctx, observations) -> observation`` (`kit.Phase`). ``static`` reads files
only; the others need the running app. The boot and the restart are the kit's kinds and
gate the rest; ``trace`` reads the vendor and runs even when the app went down. The
browser phase (``browser``, from ``vendorsync.browser``) sits after ``update`` and
before ``restart``: the page must show both ``settled`` and ``refunded``.
"""

from __future__ import annotations

from collections.abc import Iterable

from benchwright.suites import kit
from benchwright.suites.kit import Phase, kinds
from benchwright.suites.vendorsync.phases.client import client
from benchwright.suites.vendorsync.phases.reads import perf, reads, validation
from benchwright.suites.vendorsync.phases.static import static
from benchwright.suites.vendorsync.phases.syncs import concurrent, health, sync1, sync2, update
from benchwright.suites.vendorsync.phases.trace import trace

PHASES = (
    Phase("static", static, needs_app=False),
    Phase("boot", kinds.boot, gates=True),
    Phase("health", health),
    Phase("sync1", sync1),
    Phase("concurrent", concurrent),
    Phase("sync2", sync2),
    Phase("reads", reads),
    Phase("validation", validation),
    Phase("client", client),
    Phase("update", update),
    # the browser phase goes here: Phase("browser", browser) (vendorsync.browser)
    Phase("restart", kinds.restart, gates=True),
    Phase("perf", perf),
    Phase("trace", trace, after_down=True),
)
PHASE_NAMES = tuple(p.name for p in PHASES)
ALWAYS_WITH_APP = ("boot", "trace")
"""Added to any selection that touches the app: nothing runs unbooted, and the vendor's
ledger is what the C and hard rows read."""


def select_phases(names: Iterable[str] | None) -> tuple[Phase, ...]:
    """The phases to run, in order; ``boot`` and ``trace`` come with any app phase.
    Raises `SpecError` for an unknown name, listing the known ones."""
    return kit.select_phases(PHASES, ALWAYS_WITH_APP, names)


__all__ = ["ALWAYS_WITH_APP", "PHASES", "PHASE_NAMES", "select_phases"]
