"""Suite graders shipped with benchwright, by suite name.

A grader turns a built tree into check rows for its suite's scorer. The suite's
data (spec, reference app, scorer config) stays under ``suites/<name>/``; the
grading code lives here so it is importable, linted and tested like the rest.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from benchwright.errors import SpecError

if TYPE_CHECKING:
    from benchwright.execution.executor import Resources

GRADERS = {
    "kitdemo": "benchwright.suites.kitdemo",
    "vspro": "benchwright.suites.vspro",
    "vendorsync": "benchwright.suites.vendorsync",
    "sb7": "benchwright.suites.sb7",
}
"""Suite name -> its grader module (a `kit.SuiteGrader`)."""


def grader_for(suite: str) -> ModuleType:
    """The grader of ``suite``: a name (``vspro``) or a suite directory (``suites/vspro``).

    Raises:
        SpecError: no grader for that suite; the message lists the known ones.
    """
    name = Path(suite).name if suite not in GRADERS else suite
    if name not in GRADERS:
        known = ", ".join(sorted(GRADERS))
        raise SpecError.single(suite, f"no grader for suite '{name}' (known: {known})")
    from benchwright.suites.kit.interface import INTERFACE, SuiteGrader

    module = importlib.import_module(GRADERS[name])
    if not isinstance(module, SuiteGrader):
        missing = ", ".join(n for n in INTERFACE if not hasattr(module, n))
        raise SpecError.single(suite, f"grader {GRADERS[name]} lacks part of the SuiteGrader "
                               f"interface: {missing}")  # fmt: skip
    return module


def browser_slots(suite: str) -> int | None:
    """How many of ``suite``'s browser gradings one machine's pool runs at once (the
    grader's ``BROWSER_SLOTS``; None: no cap). An unknown suite has none: its own error
    comes from where it is graded."""
    try:
        return getattr(grader_for(suite), "BROWSER_SLOTS", None)
    except SpecError:
        return None


def grading_resources(suite: str, phases: tuple[str, ...] | None) -> Resources:
    """What one grading of ``suite`` through ``phases`` (None: all) asks of a node: the
    browser when the ``browser`` phase runs (whole or in parts: ``browser:load``), and
    the memory its grader measured for that case (``MEMORY_MB``), so a Ray scheduler
    never packs more gradings on a node than its memory holds."""
    from benchwright.execution.executor import Resources

    browser = phases is None or any(p.partition(":")[0] == "browser" for p in phases)
    memory = getattr(grader_for(suite), "MEMORY_MB", {})
    return Resources(memory_mb=memory.get("browser" if browser else "http", 0), browser=browser)
