"""The vspro browser phase: Playwright scenarios that see the built app as a user does.

A scenario is ``(session or lane, ctx, shots) -> <frozen view>``: it drives one fresh
browser context against ``ctx.base_url`` and returns what it saw (never a verdict). The
phase `browser` runs them in concurrent lanes on one Chromium and records a
`BrowserObservation` under
``obs.phases["browser"]``: ``scenarios`` keyed load, sync, note, error, empty, viz,
viz_fallback (the 3D pair comes from ``browser.viz`` when that module is installed),
``scenario_errors`` for a scenario that raised, and ``unavailable`` when Chromium is
absent or died. See docs/vspro.md, "Browser".
"""

from benchwright.suites.kit.browser.states import EmptyView, ErrorView
from benchwright.suites.vspro.browser._phase import browser
from benchwright.suites.vspro.browser._publish import publishable, ranked
from benchwright.suites.vspro.browser._views import (
    BrowserObservation,
    FilterDrive,
    LoadView,
    NoteView,
    SyncView,
    ViewSnapshot,
)

SCENARIOS = ("load", "sync", "note", "error", "empty", "viz", "viz_fallback")
NOMINAL = ("load", "sync", "empty", "viz")
"""The scenarios whose console must be clean for the ``console_clean`` condition."""

__all__ = [
    "NOMINAL",
    "SCENARIOS",
    "BrowserObservation",
    "EmptyView",
    "ErrorView",
    "FilterDrive",
    "LoadView",
    "NoteView",
    "SyncView",
    "ViewSnapshot",
    "browser",
    "publishable",
    "ranked",
]
