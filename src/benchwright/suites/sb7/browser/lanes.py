"""This package's own lanes of the sb-7 ``browser`` phase: ``load`` alone; ``error``,
then the second instance and its ``empty``."""

from __future__ import annotations

from benchwright.suites.kit.browser import Observe, Step, named, scenario
from benchwright.suites.sb7.browser.load import observe_load
from benchwright.suites.sb7.browser.states import observe_sb7_error, second_instance

LOAD, ERROR, EMPTY = "load", "error", "empty"


def own_lanes() -> list[tuple[Step, ...]]:
    """``load`` alone (it reads the pristine page and is re-timed when contended), and
    ``error`` then the second instance (both independent of the graded data)."""
    error_then_empty = (scenario(ERROR, observe_sb7_error), named(second_instance, EMPTY))
    return [(scenario(LOAD, observe_load),), error_then_empty]


def own_repeatable() -> dict[str, Observe]:
    """``load`` is read-only: a contended first run is taken again alone for its timing."""
    return {LOAD: observe_load}
