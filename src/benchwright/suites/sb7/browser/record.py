"""What the sb-7 ``browser`` phase leaves in the record: the kit's `BrowserRecord` (every
scenario's view by name, or why it has none) and which scenario modules the plan found,
so that a row can tell "this scenario's module is not installed" from "it ran and failed"."""

from __future__ import annotations

from dataclasses import dataclass

from benchwright.suites.kit.browser import BrowserRecord

BROWSER = "browser"
"""The phase name the record is stored under (the kit's rows read ``obs["browser"]``)."""


@dataclass(frozen=True)
class Sb7BrowserRecord(BrowserRecord):
    """The sb-7 ``browser`` phase: the kit's record of its scenarios (this package's
    ``load``, ``error`` and ``empty``, plus every discovered module's own) and the modules
    whose lanes ran."""

    lane_modules: tuple[str, ...] = ()
    """The discovered scenario modules (`phase.LANE_MODULES`) that contributed a lane."""
