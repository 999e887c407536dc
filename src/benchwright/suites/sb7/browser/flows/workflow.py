"""The ``workflow`` scenario (j_workflow_journey): the maker/checker approval journey
through the drafts panel alone (§7): the maker's token, a draft typed into the form,
submitted; the maker's own approve refused (four eyes); the checker's token, approved;
the list showing each state, the feed the submitted and approved notifications, and
the vendor-created payment in the payments table, found through the table's own filter
and sort."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from benchwright.probes.browser import Instrumentation, Lane
from benchwright.suites.kit.browser.nav import SETTLE_MS, open_page
from benchwright.suites.kit.browser.waits import APPEAR_S, click
from benchwright.suites.sb7.browser.flows import _drafts, _page
from benchwright.suites.sb7.browser.flows._calls import CallLog
from benchwright.suites.sb7.browser.flows.views import WorkflowView
from benchwright.suites.sb7.context import GradeContext

DRAFTS = re.compile(r"^/api/drafts")
SENT = ("approved", "sent")
KINDS = ("draft.submitted", "draft.approved")
AMOUNT_MINOR = 98_765_432
"""KWD 98,765.432: above every fixture KWD amount, so that the new payment heads the
KWD-filtered table sorted by Amount descending; below the JPY amounts that own the 3D
field's twelve labels, which it must not displace."""
CURRENCY = "KWD"
ROUND_TRIP_S = 30.0
"""The approved draft's vendor payment reaching ledgerd (send, webhook or sync)."""
NOTICE_S = 5.0


def observe_workflow(lane: Lane, ctx: GradeContext, shots: Path) -> WorkflowView:
    """Drive the approval journey and record each of §12's seven steps with its cause."""
    tag = f"{int(time.time() * 1000) % 1_000_000:06d}"
    draft = _drafts.Draft(AMOUNT_MINOR, CURRENCY, f"Benchwright approval {tag}", "DE",
                          "approval journey")  # fmt: skip
    with lane.scenario("workflow", Instrumentation(row_selector=_page.ROW), artifacts=shots) as sc:
        calls = CallLog(DRAFTS, ctx.tokens).attach(sc.page)
        open_page(sc, ctx.base_url + "/")
        sc.wait_for_first_row(timeout_s=APPEAR_S)
        sc.page.wait_for_timeout(SETTLE_MS)
        page = sc.page
        surface = _drafts.missing_surface(page)
        since = max(_drafts.feed_seqs(page), default=0)
        seen = _journey(page, ctx, calls, draft) if not surface else {}
        kinds = _drafts.new_kinds(page, since, KINDS) if seen.get("approved") else ()
        in_table = bool(seen.get("approved")) and _in_table(page, ctx, draft)
        sc.screenshot("workflow-end", full_page=True)
    states = tuple(seen.get("states", ()))
    return WorkflowView(
        scenario=sc.observation,  # type: ignore[arg-type]
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
        four_eyes_notice=seen.get("four_eyes"),
        calls=calls.snapshot(),
    )


def _journey(page: Any, ctx: GradeContext, calls: CallLog, draft: _drafts.Draft) -> dict:
    """Create and submit as the maker, try the maker's own approve, approve as the checker."""
    _drafts.set_token(page, ctx.tokens.maker)
    draft_id = _drafts.create(page, draft)
    seen: dict[str, Any] = {"draft_id": draft_id, "states": []}
    if draft_id is None:
        return seen
    action = re.compile(rf"^/api/drafts/{re.escape(draft_id)}/")
    clicked, state = _drafts.act(page, draft_id, "#submit-btn", ("submitted",))
    seen["states"].append(state)
    seen["submitted"] = clicked and state == "submitted" and calls.answered(
        "POST", re.compile(action.pattern + "submit$"), "maker")  # fmt: skip
    if seen["submitted"]:
        seen["four_eyes"] = _own_approve(page)
    _drafts.set_token(page, ctx.tokens.checker)
    clicked, state = _drafts.act(page, draft_id, "#approve-btn", SENT)
    seen["states"].append(state)
    seen["approved"] = clicked and state in SENT and calls.answered(
        "POST", re.compile(action.pattern + "approve$"), "checker")  # fmt: skip
    return seen


def _own_approve(page: Any) -> str | None:
    """The maker clicks Approve on their own submitted draft: the notice shown, if any.
    A page that disables the button for them shows the refusal by that instead (None)."""
    button = page.locator("#approve-btn")
    if not button.first.is_enabled() or not click(button.first):
        return None
    _drafts.wait_for(page, lambda: page.evaluate(_page.NOTICE) is not None, NOTICE_S)
    return page.evaluate(_page.NOTICE)


def _in_table(page: Any, ctx: GradeContext, draft: _drafts.Draft) -> bool:
    """Once ledgerd holds the vendor's payment: filter the table to the draft's currency,
    sort by Amount descending (its amount heads them), and look for its counterparty."""
    _drafts.wait_for(page, lambda: _landed(ctx, draft), ROUND_TRIP_S)
    _choose(page, "#currency-filter", draft.currency)
    header = page.locator("thead th", has_text=re.compile(r"^\s*amount", re.I)).first
    for _ in range(2):
        if header.get_attribute("aria-sort") == "descending" or not click(header):
            break
        _drafts.wait_for(page, lambda: header.get_attribute("aria-sort") != "none", NOTICE_S)
    row = page.locator(_page.ROW, has_text=draft.name)
    return _drafts.wait_for(page, lambda: row.count() > 0 and row.first.is_visible(), NOTICE_S)


def _landed(ctx: GradeContext, draft: _drafts.Draft) -> bool:
    """The vendor created the draft's payment and ledgerd serves it."""
    created = [c for c in ctx.mock.commit_ledger().creates
               if c.payment_id and c.amount_minor == draft.amount_minor]  # fmt: skip
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
