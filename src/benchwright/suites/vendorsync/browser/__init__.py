"""The vendorsync ``browser`` phase: Playwright scenarios that see the built page as its
user does (spec §7), for tiers J and V and ``p_page_interactive``.

A scenario is ``(lane, ctx, shots) -> <frozen view>``; the phase records the kit's
`BrowserRecord` under ``obs.phases["browser"]`` with ``scenarios`` keyed ``load``,
``error``, ``empty`` and ``sync``. See docs/vendorsync.md, "The browser phase".
"""

from benchwright.suites.vendorsync.browser._phase import BrowserContext, browser
from benchwright.suites.vendorsync.browser._views import (
    BrowserObservation,
    EmptyView,
    ErrorView,
    LoadView,
    Snapshot,
    StatusCell,
    SyncView,
)

SCENARIOS = ("load", "error", "empty", "sync")
JOURNEYS = ("load", "empty", "sync")
"""The scenarios whose console must be clean (loading, paging, syncing)."""

__all__ = [
    "JOURNEYS",
    "SCENARIOS",
    "BrowserContext",
    "BrowserObservation",
    "EmptyView",
    "ErrorView",
    "LoadView",
    "Snapshot",
    "StatusCell",
    "SyncView",
    "browser",
]
