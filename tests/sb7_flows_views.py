"""Canned views of the flow scenarios (`sb7.browser.flows.views`) as a correct console
leaves them: every journey completed. The browser record of `sb7_observations.perfect`
carries them; the journey rows' tests replace one field at a time."""

from __future__ import annotations

from scenario_obs import scenario

from benchwright.suites.sb7.browser.flows.views import (
    FeedView,
    PaintView,
    RejectView,
    SyncView,
    WorkflowView,
)

SYNC = SyncView(scenario("sync"), True, True, 80.0, True, None, 200, True, True, "a", "a")
WORKFLOW = WorkflowView(scenario("workflow"), (), True, "drf_1", True, True,
                        ("submitted", "approved"), True, ("draft.approved", "draft.submitted"),
                        True, True, "Could not approve the draft", ())  # fmt: skip
REJECT = RejectView(scenario("reject"), "drf_2", True, True, "rejected", True, ())
FEED = FeedView(scenario("feed"), True, True, True, 1.9, (201, 200), True, True, 1.8, False)
PAINT = PaintView(scenario("paint"), True, True, True, True, True, 9.0, False, True, "saved")
FLOWS = {"sync": SYNC, "workflow": WORKFLOW, "reject": REJECT, "feed": FEED, "paint": PAINT}
"""Scenario name -> its view."""
