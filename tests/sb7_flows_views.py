"""Canned views of the flow scenarios (`sb7.browser.flows.views`) as a correct console
leaves them: every journey completed. The browser record of `sb7_observations.perfect`
carries them; the journey rows' tests replace one field at a time (`flow_with`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from scenario_obs import scenario

from benchwright.suites.sb7.browser.flows.views import (
    FeedView,
    FlowView,
    PaintView,
    RejectView,
    SyncView,
    WorkflowView,
)

SYNC = SyncView(scenario("sync"), True, True, 80.0, True, None, 200, True, True, "a", "a")
APPROVAL = WorkflowView((), True, "drf_1", True, True, ("submitted", "approved"), True,
                        ("draft.approved", "draft.submitted"), True, True)  # fmt: skip
REJECTION = RejectView("drf_2", True, True, "rejected", True)
PAINT = PaintView(True, True, True, True, True, 9.0, False, True, "saved")
FLOW = FlowView(scenario("flow"), PAINT, APPROVAL, REJECTION, ())
FEED = FeedView(scenario("feed"), True, True, True, 1.9, (201, 200), True, True, 1.8, False)
FLOWS = {"sync": SYNC, "flow": FLOW, "feed": FEED}
"""Scenario name -> its view."""


def flow_with(part: str, **changes: Any) -> FlowView:
    """`FLOW` with its ``part`` (``paint``, ``approval``, ``rejection``) changed."""
    return replace(FLOW, **{part: replace(getattr(FLOW, part), **changes)})
