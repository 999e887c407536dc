"""The sb-7 grader: phases that run the entrant's Meridian Payments Console (two
services, ledgerd and notifierd, against the Meridian v3 mock under a seeded fault
schedule), checks that judge what they saw, and the suite's scorer (``scorers/sb7.yaml``).

Usage::

    grading = grade(Path("suites/sb7/reference"), seed=0)
    card = compose(grading.rows, load_scorer(Path("scorers/sb7.yaml")))

See docs/sb7.md for the checks.
"""

# What it exports is the `kit.SuiteGrader` interface plus its own types, re-exported by
# name (``import X as X``): the public surface is the import list itself.
from benchwright.suites.kit import Grading as Grading
from benchwright.suites.sb7.calibration import MEASUREMENTS
from benchwright.suites.sb7.checks import CheckSettings as CheckSettings
from benchwright.suites.sb7.context import GradeSettings as GradeSettings
from benchwright.suites.sb7.grader import grade as grade
from benchwright.suites.sb7.observations import Observations as Observations
from benchwright.suites.sb7.phases import PHASE_NAMES as PHASE_NAMES
from benchwright.suites.sb7.phases import select_phases as select_phases

SCORER = "sb7.yaml"
"""The scorer config under ``scorers/``."""
CALIBRATION = MEASUREMENTS
"""Where ``benchwright calibrate`` finds each calibration-owned figure (`calibration`)."""
BROWSER_SLOTS = 1
"""One browser grading at a time in a machine's pool (``audit``, ``grade --many``): the 3D
field renders 12,288 columns in SwiftShader on the CPU, so two side by side contend,
every timed row of both comes back UNAVAILABLE and each retakes its scenarios alone."""
MEMORY_MB = {"browser": 1536, "http": 512}
"""What one grading asks of a node: two services and a 12,288-payment vendor (the
browser figure is vspro's until part two measures its own)."""
