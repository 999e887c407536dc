"""Suite graders shipped with benchwright, by suite name.

A grader turns a built tree into check rows for its suite's scorer. The suite's
data (spec, reference app, scorer config) stays under ``suites/<name>/``; the
grading code lives here so it is importable, linted and tested like the rest.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

from benchwright.errors import SpecError

GRADERS = {"vspro": "benchwright.suites.vspro"}
"""Suite name -> module exposing ``grade``, ``PHASE_NAMES`` and ``SCORER``."""


def grader_for(suite: str) -> ModuleType:
    """The grader of ``suite``: a name (``vspro``) or a suite directory (``suites/vspro``).

    Raises:
        SpecError: no grader for that suite; the message lists the known ones.
    """
    name = Path(suite).name if suite not in GRADERS else suite
    if name not in GRADERS:
        known = ", ".join(sorted(GRADERS))
        raise SpecError.single(suite, f"no grader for suite '{name}' (known: {known})")
    return importlib.import_module(GRADERS[name])
