"""The ``flow`` scenario's approval journey (j_workflow_journey), through the drafts panel
alone (§7): the maker's token, a draft typed into the form, submitted; the checker's
token, approved; the list showing each state, the feed the submitted and approved
notifications, and the vendor-created payment in the payments table, found through the
table's own filter and sort. (The maker's own approve, refused by four eyes, is not
tried: its 403 is a console error in the very scenario whose console must stay clean.)"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from benchwright.suites.kit.browser.waits import click
from benchwright.suites.sb7.browser.flows import _drafts, _page
from benchwright.suites.sb7.browser.flows._calls import CallLog
from benchwright.suites.sb7.browser.flows.views import WorkflowView
from benchwright.suites.sb7.context import GradeContext
from benchwright.suites.sb7.schedule import Draft

DRAFTS = re.compile(r"^/api/drafts")
SENT = ("approved", "sent")
KINDS = ("draft.submitted", "draft.approved")
AMOUNT_MINOR = 1
"""¥1, typed as "1": the same amount whether the form reads major or minor units (§7
names the field "amount" and leaves that open; JPY has no decimals), below every fixture
amount, so that the new payment heads the JPY-filtered table sorted by Amount ascending;
and never one of the 3D field's twelve labelled maxima."""
CURRENCY = "JPY"
ROUND_TRIP_S = 30.0
"""The approved draft's vendor payment reaching ledgerd (send, webhook or sync)."""
NOTICE_S = 5.0


def approval(sc: Any, ctx: GradeContext, calls: CallLog) -> WorkflowView:
    """On the open page: the approval journey, each of §12's seven steps with its cause."""
    tag = f"{int(time.time() * 1000) % 1_000_000:06d}"
    draft = Draft(AMOUNT_MINOR, CURRENCY, f"Benchwright approval {tag}", "DE",
                          "approval journey")  # fmt: skip
    page = sc.page
    surface = _drafts.missing_surface(page)
    since = max(_drafts.feed_seqs(page), default=0)
    seen = _journey(page, ctx, calls, draft) if not surface else {}
    kinds = _drafts.new_kinds(page, since, KINDS) if seen.get("approved") else ()
    in_table = bool(seen.get("approved")) and _in_table(page, ctx, draft)
    sc.screenshot("approval-end", full_page=True)
    states = tuple(seen.get("states", ()))
    return WorkflowView(
        surface=surface,
        token_accepted=calls.answered("GET", DRAFTS, "maker")
        or calls.answered("POST", DRAFTS, "maker"),
        draft_id=seen.get("draft_id"),
        submitted=bool(seen.get("submitted")),
        approved=bool(seen.get("approved")),
        list_states=states,
        list_ok=len(states) == 2 and states[0] == "submitted" and states[1] in SENT,
        notified=kinds,
        notification_seen=set(KINDS) <= set(kinds),
        payment_in_table=in_table,
    )


def _journey(page: Any, ctx: GradeContext, calls: CallLog, draft: Draft) -> dict:
    """Create and submit as the maker, approve as the checker."""
    _drafts.set_token(page, ctx.tokens.maker)
    draft_id = _drafts.create(page, ctx, draft)
    seen: dict[str, Any] = {"draft_id": draft_id, "states": []}
    if draft_id is None:
        return seen
    submit, approve = (answer(calls, draft_id, verb, role)
                       for verb, role in (("submit", "maker"), ("approve", "checker")))  # fmt: skip
    clicked, state = _drafts.act(page, draft_id, "#submit-btn", ("submitted",), submit)
    seen["states"].append(state)
    seen["submitted"] = clicked and state == "submitted" and submit()
    _drafts.set_token(page, ctx.tokens.checker)
    clicked, state = _drafts.act(page, draft_id, "#approve-btn", SENT, approve)
    seen["states"].append(state)
    seen["approved"] = clicked and state in SENT and approve()
    return seen


def answer(calls: CallLog, draft_id: str, verb: str, role: str) -> Callable[[], bool]:
    """Whether the page's ``POST /api/drafts/<id>/<verb>`` as ``role`` was answered 2xx."""
    path = re.compile(rf"^/api/drafts/{re.escape(draft_id)}/{verb}$")
    return lambda: calls.answered("POST", path, role)


def _in_table(page: Any, ctx: GradeContext, draft: Draft) -> bool:
    """Once ledgerd holds the vendor's payment: filter the table to the draft's currency,
    sort by Amount ascending (its amount heads them), and look for its counterparty."""
    _drafts.wait_for(page, lambda: _landed(ctx, draft), ROUND_TRIP_S)
    _choose(page, "#currency-filter", draft.currency)
    header = page.locator("thead th", has_text=re.compile(r"^\s*amount", re.I)).first
    for _ in range(2):
        if header.get_attribute("aria-sort") == "ascending" or not click(header):
            break
        _drafts.wait_for(page, lambda: header.get_attribute("aria-sort") == "ascending", NOTICE_S)
    row = page.locator(_page.ROW, has_text=draft.name)
    return _drafts.wait_for(page, lambda: row.count() > 0 and row.first.is_visible(), NOTICE_S)


def _landed(ctx: GradeContext, draft: Draft) -> bool:
    """The vendor created the draft's payment and ledgerd serves it."""
    wanted = (draft.amount_minor, draft.currency)
    created = [c for c in ctx.mock.commit_ledger().creates
               if c.payment_id and (c.amount_minor, c.currency) == wanted]  # fmt: skip
    return any(ctx.call(f"/api/payments/{c.payment_id}").status == 200 for c in created)


def _choose(page: Any, control: str, value: str) -> None:
    """Open a custom dropdown and click its option whose ``data-value`` (or text) is
    ``value``; then wait for the control's own ``data-value`` to say so."""
    root = page.locator(control)
    if root.count() == 0:
        return
    opener = root.locator("button, [role='button'], [aria-haspopup]")
    click(opener.first if opener.count() else root.first)
    option = page.locator(
        f'{control} [data-value="{value}"], [role="option"][data-value="{value}"]'
    )
    if option.count() == 0:
        option = page.locator(f"{control} [role='option'], {control} li", has_text=value)
    if option.count():
        click(option.first)
    _drafts.wait_for(page, lambda: root.get_attribute("data-value") == value, NOTICE_S)
