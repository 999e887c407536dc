"""The sb-7 interactive journeys: one lane of the ``browser`` phase (the discovery hook of
`sb7.browser.phase`: this module's ``SCENARIOS``), on the graded instance, in order:

- ``paint``: a note edit with its write held on the wire (e_optimistic_paint);
- ``sync``: the ``#sync-now`` click (j_sync_journey);
- ``workflow``: the maker/checker approval journey through the drafts panel alone
  (j_workflow_journey), then ``reject`` (j_workflow_reject);
- ``feed``: notifierd SIGKILLed and restarted under an open page (j_notifications_feed).

They share the graded instance's state, so they run in one lane. The feed comes last and
first waits for the other lanes' scenarios on the graded instance (``load``, and ``viz``
when the 3D field's lane runs): its kill makes the feed poll of every page open on the
instance fail, which Chromium logs as a console error in theirs. Everything
they write (a note, drafts, a vendor payment, notifications) happens after ``final``: no
part-one row reads it. Each view is a frozen dataclass of `views`, stored under its
scenario's name.
"""

from __future__ import annotations

from pathlib import Path

from benchwright.probes.browser import Lane
from benchwright.suites.kit.browser import Step, scenario
from benchwright.suites.sb7.browser.flows.feed import observe_feed
from benchwright.suites.sb7.browser.flows.paint import observe_paint
from benchwright.suites.sb7.browser.flows.reject import observe_reject
from benchwright.suites.sb7.browser.flows.sync import observe_sync
from benchwright.suites.sb7.browser.flows.workflow import observe_workflow
from benchwright.suites.sb7.browser.lanes import LOAD
from benchwright.suites.sb7.browser.phase import LANE_MODULES, settled

VIZ_LANE, VIZ = LANE_MODULES[1], "viz"
"""The 3D field's lane module and its scenario on the graded instance."""


def _instance_quiet(lane: Lane, ctx: object, shots: Path, seen: object) -> None:
    """Wait for the other lanes' scenarios on the graded instance (`settled`)."""
    others = (LOAD, VIZ) if VIZ_LANE in getattr(seen, "modules", ()) else (LOAD,)
    settled(*others)(lane, ctx, shots, seen)


SCENARIOS: tuple[Step, ...] = (
    scenario("paint", observe_paint),
    scenario("sync", observe_sync),
    scenario("workflow", observe_workflow),
    scenario("reject", observe_reject),
    _instance_quiet,
    scenario("feed", observe_feed),
)

__all__ = ["SCENARIOS"]
