"""The ``reject`` scenario (j_workflow_reject): the checker's other answer. The maker
creates and submits a draft through the panel, the checker rejects it with
``#reject-btn``; the list row, the wire and the feed must all say rejected."""

from __future__ import annotations

import re
import time
from pathlib import Path

from benchwright.probes.browser import Instrumentation, Lane
from benchwright.suites.kit.browser.nav import SETTLE_MS, open_page
from benchwright.suites.kit.browser.waits import APPEAR_S
from benchwright.suites.kit.wire import rows_of
from benchwright.suites.sb7.browser.flows import _drafts, _page
from benchwright.suites.sb7.browser.flows._calls import CallLog
from benchwright.suites.sb7.browser.flows.views import RejectView
from benchwright.suites.sb7.context import GradeContext

DRAFTS = re.compile(r"^/api/drafts")


def observe_reject(lane: Lane, ctx: GradeContext, shots: Path) -> RejectView:
    """Create and submit as the maker, reject as the checker, read list, wire and feed."""
    tag = f"{int(time.time() * 1000) % 1_000_000:06d}"
    draft = _drafts.Draft(4200, "JPY", f"Benchwright rejection {tag}", "FR", "reject journey")
    with lane.scenario("reject", Instrumentation(row_selector=_page.ROW), artifacts=shots) as sc:
        calls = CallLog(DRAFTS, ctx.tokens).attach(sc.page)
        open_page(sc, ctx.base_url + "/")
        sc.wait_for_first_row(timeout_s=APPEAR_S)
        sc.page.wait_for_timeout(SETTLE_MS)
        page = sc.page
        since = max(_drafts.feed_seqs(page), default=0)
        _drafts.set_token(page, ctx.tokens.maker)
        draft_id = _drafts.create(page, draft)
        clicked, state = False, None
        if draft_id is not None:
            _drafts.act(page, draft_id, "#submit-btn", ("submitted",))
            _drafts.set_token(page, ctx.tokens.checker)
            clicked, state = _drafts.act(page, draft_id, "#reject-btn", ("rejected",))
        kinds = _drafts.new_kinds(page, since, ("draft.rejected",)) if clicked else ()
        sc.screenshot("reject-end", full_page=True)
    return RejectView(
        scenario=sc.observation,  # type: ignore[arg-type]
        draft_id=draft_id,
        clicked=clicked,
        reached_rejected=clicked and _rejected(ctx, draft_id),
        list_state=state,
        notification_seen="draft.rejected" in kinds,
        calls=calls.snapshot(),
    )


def _rejected(ctx: GradeContext, draft_id: str | None) -> bool:
    """ledgerd lists the draft as rejected (read as admin, who may read everything)."""
    rows = rows_of(ctx.call("/api/drafts?state=rejected", role="admin")) or []
    return any(isinstance(r, dict) and str(r.get("id")) == draft_id for r in rows)
