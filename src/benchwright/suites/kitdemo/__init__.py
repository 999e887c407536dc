"""The ``kitdemo`` grader: the executed-app kit's example suite (``suites/kitdemo``), a
notes JSON API on SQLite graded by five phases and seven checks (``scorers/kitdemo.yaml``).

This module is its `kit.SuiteGrader`: what ``grade``, ``audit`` and ``run`` read.
docs/suites.md ("Writing an executed-app suite") walks through every part.
"""

from benchwright.suites.kitdemo.checks import CheckSettings
from benchwright.suites.kitdemo.grader import grade
from benchwright.suites.kitdemo.phases import PHASE_NAMES, select_phases

SCORER = "kitdemo.yaml"
MEMORY_MB = {"browser": 128, "http": 128}
"""No browser phase: the grader, a stdlib app and a few requests."""
CALIBRATION = ()
"""No timing rows: nothing to calibrate."""

__all__ = ["CALIBRATION", "MEMORY_MB", "PHASE_NAMES", "SCORER", "CheckSettings", "grade",
           "select_phases"]  # fmt: skip
