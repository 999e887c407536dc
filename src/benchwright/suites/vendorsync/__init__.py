"""The sb-5.2 ``vendorsync`` grader: phases that measure a built vendorsync (a payments
sync from the Meridian v1 vendor, a SQLite store, a JSON API and a page), checks that
judge the measurements, and the suite's scorer (``scorers/sb52.yaml``).

Usage::

    grading = grade(Path("build"), seed=0)                       # every phase
    grading = grade(Path("build"), build_trace=Path("vendor.jsonl"))  # with the build's docs reads
    card = compose(grading.rows, load_scorer(Path("scorers/sb52.yaml")))

See docs/vendorsync.md for the phases and the checks.
"""

# What it exports is the `kit.SuiteGrader` interface plus its own types, re-exported by
# name (``import X as X``): the public surface is the import list itself.
from benchwright.suites.kit import Grading as Grading
from benchwright.suites.vendorsync.checks import BROWSER_CHECKS as BROWSER_CHECKS
from benchwright.suites.vendorsync.checks import CheckSettings as CheckSettings
from benchwright.suites.vendorsync.checks import build_table as build_table
from benchwright.suites.vendorsync.context import GradeSettings as GradeSettings
from benchwright.suites.vendorsync.grader import grade as grade
from benchwright.suites.vendorsync.observations import Observations as Observations
from benchwright.suites.vendorsync.phases import PHASE_NAMES as PHASE_NAMES
from benchwright.suites.vendorsync.phases import select_phases as select_phases

SCORER = "sb52.yaml"
"""The scorer config under ``scorers/``."""
CALIBRATION: tuple = ()
"""No timing row is calibrated yet: the P ladders are the methodology's (facts 58-60)."""
MEMORY_MB = {"browser": 1536, "http": 256}
"""What one grading asks of a node, with or without the ``browser`` phase: vspro's
measured figures (a smaller app and the same browser), until vendorsync's are measured."""
