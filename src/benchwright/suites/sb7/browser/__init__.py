"""The sb-7 ``browser`` phase: the console in a real Chromium on the kit's lanes
(`kit.browser`). This package runs ``load``, ``error`` and ``empty`` and discovers the
scenario modules of the journeys and the 3D field (`phase`, "The discovery hook"); the
record is a `Sb7BrowserRecord` stored under ``browser``. See docs/sb7.md, "Browser"."""

from benchwright.suites.sb7.browser.lanes import EMPTY, ERROR, LOAD
from benchwright.suites.sb7.browser.phase import LANE_MODULES, browser, scenario_names, settled
from benchwright.suites.sb7.browser.record import BROWSER, Sb7BrowserRecord
from benchwright.suites.sb7.browser.views import EmptyView, LoadView

__all__ = ["BROWSER", "EMPTY", "ERROR", "LANE_MODULES", "LOAD", "EmptyView", "LoadView",
           "Sb7BrowserRecord", "browser", "scenario_names", "settled"]  # fmt: skip
