"""The ``flow`` scenario (the methodology's flow probe): on one page of the graded
instance, the optimistic note edit under a held write (`paint`), the maker/checker
approval journey (`workflow`) and a rejection (`reject`), through the UI alone. Its
console is one of those the ``console_clean`` condition reads, so nothing here provokes
an error answer on purpose."""

from __future__ import annotations

import re
from pathlib import Path

from benchwright.probes.browser import Instrumentation, Lane
from benchwright.suites.kit.browser.nav import SETTLE_MS, open_page
from benchwright.suites.kit.browser.waits import APPEAR_S
from benchwright.suites.sb7.browser.flows import _page
from benchwright.suites.sb7.browser.flows._calls import CallLog
from benchwright.suites.sb7.browser.flows.paint import paint
from benchwright.suites.sb7.browser.flows.reject import rejection
from benchwright.suites.sb7.browser.flows.views import FlowView
from benchwright.suites.sb7.browser.flows.workflow import approval
from benchwright.suites.sb7.context import GradeContext

FLOW = "flow"
DRAFTS = re.compile(r"^/api/drafts")


def observe_flow(lane: Lane, ctx: GradeContext, shots: Path) -> FlowView:
    """Paint, then approve, then reject, on one page; each exercise's view."""
    with lane.scenario(FLOW, Instrumentation(row_selector=_page.ROW), artifacts=shots) as sc:
        calls = CallLog(DRAFTS, ctx.tokens).attach(sc.page)
        open_page(sc, ctx.base_url + "/")
        sc.wait_for_first_row(timeout_s=APPEAR_S)
        sc.page.wait_for_timeout(SETTLE_MS)
        painted = paint(sc, ctx)
        approved = approval(sc, ctx, calls)
        rejected = rejection(sc, ctx, calls)
    return FlowView(
        scenario=sc.observation,  # type: ignore[arg-type]
        paint=painted,
        approval=approved,
        rejection=rejected,
        calls=calls.snapshot(),
    )
