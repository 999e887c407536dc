"""The ``flow`` scenario's rejection (j_workflow_reject): the checker's other answer. The maker
creates and submits a draft through the panel, the checker rejects it with
``#reject-btn``; the list row, the wire and the feed must all say rejected."""

from __future__ import annotations

import time
from typing import Any

from benchwright.suites.kit.wire import rows_of
from benchwright.suites.sb7.browser.flows import _drafts, workflow
from benchwright.suites.sb7.browser.flows._calls import CallLog
from benchwright.suites.sb7.browser.flows.views import RejectView
from benchwright.suites.sb7.context import GradeContext
from benchwright.suites.sb7.schedule import Draft


def rejection(sc: Any, ctx: GradeContext, calls: CallLog) -> RejectView:
    """On the open page: create and submit as the maker, reject as the checker; read the
    list row, the wire and the feed."""
    tag = f"{int(time.time() * 1000) % 1_000_000:06d}"
    draft = Draft(4200, "JPY", f"Benchwright rejection {tag}", "FR", "reject journey")
    page = sc.page
    since = max(_drafts.feed_seqs(page), default=0)
    _drafts.set_token(page, ctx.tokens.maker)
    draft_id = _drafts.create(page, ctx, draft)
    clicked, state = False, None
    if draft_id is not None:
        submit = workflow.answer(calls, draft_id, "submit", "maker")
        reject = workflow.answer(calls, draft_id, "reject", "checker")
        _drafts.act(page, draft_id, "#submit-btn", ("submitted",), submit)
        _drafts.set_token(page, ctx.tokens.checker)
        clicked, state = _drafts.act(page, draft_id, "#reject-btn", ("rejected",), reject)
    kinds = _drafts.new_kinds(page, since, ("draft.rejected",)) if clicked else ()
    sc.screenshot("rejection-end", full_page=True)
    return RejectView(
        draft_id=draft_id,
        clicked=clicked,
        reached_rejected=clicked and _rejected(ctx, draft_id),
        list_state=state,
        notification_seen="draft.rejected" in kinds,
    )


def _rejected(ctx: GradeContext, draft_id: str | None) -> bool:
    """ledgerd lists the draft as rejected (read as admin, who may read everything)."""
    rows = rows_of(ctx.call("/api/drafts?state=rejected", role="admin")) or []
    return any(isinstance(r, dict) and str(r.get("id")) == draft_id for r in rows)
