"""The 3D field's lane in the sb-7 browser phase (its discovery hook, `browser.phase`):
the ``viz`` scenario, taken again alone when a contended host spoiled its timing (the
drag's frames are a timing figure)."""

from benchwright.suites.kit.browser import Observe, Step, scenario
from benchwright.suites.sb7.viz.scenario import observe_viz
from benchwright.suites.sb7.viz.view import SCENARIO

SCENARIOS: tuple[Step, ...] = (scenario(SCENARIO, observe_viz),)
REPEATABLE: dict[str, Observe] = {SCENARIO: observe_viz}
