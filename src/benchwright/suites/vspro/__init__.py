"""The sb-6 ``vspro`` grader: phases that measure a built VendorSync Pro, checks that
judge the measurements, and the suite's scorer (``scorers/sb6.yaml``) that scores them.

Usage::

    grading = grade(Path("build"), seed=0)            # every phase, every check
    grading = grade(Path("build"), phases=["reads"])  # boot + reads + trace only
    card = compose(grading.rows, load_scorer(Path("scorers/sb6.yaml")))

See docs/vspro.md for the phases, the checks and their rungs.
"""

from benchwright.suites.kit import PhaseRecord
from benchwright.suites.vspro.calibration import MEASUREMENTS as CALIBRATION
from benchwright.suites.vspro.checks import BROWSER_CHECKS, CheckSettings, build_table
from benchwright.suites.vspro.context import GradeSettings
from benchwright.suites.vspro.grader import Grading, grade
from benchwright.suites.vspro.observations import Observations
from benchwright.suites.vspro.phases import PHASE_NAMES, select_phases

SCORER = "sb6.yaml"
"""The scorer config under ``scorers/``."""
MEMORY_MB = {"browser": 1536, "http": 256}
"""What one grading asks of a node, with or without the ``browser`` phase: the peak
proportional set size of the grading's whole process tree (grader, mock, app, Chromium)
sampled every 0.5 s while grading the golden on this project's 2-core host was 1,269 MB
with the browser and 101 MB without, plus headroom."""

__all__ = [
    "BROWSER_CHECKS",
    "CALIBRATION",
    "MEMORY_MB",
    "PHASE_NAMES",
    "SCORER",
    "CheckSettings",
    "GradeSettings",
    "Grading",
    "Observations",
    "PhaseRecord",
    "build_table",
    "grade",
    "select_phases",
]
