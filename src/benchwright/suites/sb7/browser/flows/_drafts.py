"""Driving the drafts panel as a person would (§7): the token field, the draft form, a
click on a list row, the three action buttons. Nothing here writes through the drafts
API: the journeys are graded "through the UI alone"; the probe reads what the page shows,
for causality what the browser saw the page send, and, to know which list row is the
draft it typed, what ledgerd holds under the draft's tagged counterparty name."""

# ruff: noqa: E501  (FIND_FIELDS is JavaScript source; its lines follow the page code)

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Error

from benchwright.suites.kit.browser.waits import click
from benchwright.suites.kit.wire import rows_of
from benchwright.suites.sb7.browser.flows import _page
from benchwright.suites.sb7.context import GradeContext
from benchwright.suites.sb7.schedule import Draft

SURFACE = ("#role-token", "#draft-form", "#draft-list", "#submit-btn", "#approve-btn",
           "#reject-btn", "#notifications")  # fmt: skip
"""The workflow controls §7 names."""
STATE_S = 15.0
"""A draft row reaching a state after a click (a send waits on the vendor's answer)."""
FEED_S = 15.0
"""A notification appearing: the feed polls at most every 5 s, after the outbox relay."""
POLL_MS = 100
FIELDS = (
    ("amount", r"amount"),
    ("currency", r"curr"),
    ("country", r"country"),
    ("note", r"note|memo"),
    ("name", r"counterparty|name|payee|beneficiary"),
)
"""The draft form's fields (§7 names them, not their markup): each found by its name, id,
placeholder, aria-label or label text, in this order so that "name" never takes the
country's field."""


def form_values(draft: Draft) -> dict[str, str]:
    """What the probe types into each of the form's fields (`FIELDS`)."""
    return {"amount": str(draft.amount_minor), "currency": draft.currency,
            "name": draft.name, "country": draft.country, "note": draft.note}  # fmt: skip


FIND_FIELDS = r"""(pairs) => {
  const form = document.getElementById('draft-form');
  if (!form) return {};
  const controls = [...form.querySelectorAll('input, textarea, select, [data-value]')]
    .filter((e) => e.type !== 'submit' && e.type !== 'button' && e.type !== 'hidden');
  const words = (e) => [e.name, e.id, e.getAttribute('placeholder'), e.getAttribute('aria-label'),
    e.labels && e.labels[0] ? e.labels[0].innerText : '', e.closest('label') ? e.closest('label').innerText : '']
    .filter(Boolean).join(' ');
  const taken = new Set(), found = {};
  for (const [key, re] of pairs) {
    const i = controls.findIndex((e, k) => !taken.has(k) && new RegExp(re, 'i').test(words(e)));
    if (i >= 0) { taken.add(i); controls[i].setAttribute('data-bw-field', key); found[key] = controls[i].tagName.toLowerCase(); }
  }
  return found;
}"""


def missing_surface(page: Any) -> tuple[str, ...]:
    """The §7 workflow controls the page does not have."""
    return tuple(s for s in SURFACE if page.locator(s).count() == 0)


def set_token(page: Any, token: str) -> None:
    """Type ``token`` into ``#role-token`` and leave the field (its change event)."""
    field = page.locator("#role-token")
    field.fill(token)
    field.press("Tab")


def create(page: Any, ctx: GradeContext, draft: Draft) -> str | None:
    """Fill the form and submit it; the id of the created draft's ``#draft-list`` row."""
    found = page.evaluate(FIND_FIELDS, [list(pair) for pair in FIELDS])
    values = form_values(draft)
    for key, tag in found.items():
        _fill(page, page.locator(f'[data-bw-field="{key}"]'), tag, values[key])
    form = page.locator("#draft-form")
    button = form.locator('button[type="submit"], input[type="submit"], button:not([type])')
    if button.count():
        click(button.first)
    else:
        form.evaluate("(f) => f.requestSubmit()")
    return _created_row(page, ctx, draft.name)


def _fill(page: Any, control: Any, tag: str, value: str) -> None:
    """An input or textarea typed into, a select chosen, a custom dropdown opened and its
    option (``data-value``) clicked."""
    try:
        if tag in ("input", "textarea"):
            control.fill(value)
        elif tag == "select":
            control.select_option(value)
        else:
            click(control)
            click(control.locator(f'[data-value="{value}"]').first)
    except Error:
        return  # an unfillable field is seen as the draft that was (not) created


def _created_row(page: Any, ctx: GradeContext, name: str) -> str | None:
    """The created draft's list row, once the list shows it (bounded by ``STATE_S``).
    Never "the rows added since a snapshot": the list's answer for a just-typed token may
    land after any snapshot, and its old drafts would pass for new."""
    deadline = time.monotonic() + STATE_S
    while True:
        found = _listed(page, ctx, name)
        if found is not None or time.monotonic() > deadline:
            return found
        page.wait_for_timeout(POLL_MS)


def _listed(page: Any, ctx: GradeContext, name: str) -> str | None:
    """The row showing the tagged counterparty ``name``, else the row of the draft ledgerd
    holds under that name (§7 asks the rows for ``data-draft-id`` and ``data-state``, not
    for the name); None while the list shows neither."""
    named = page.locator("#draft-list [data-draft-id]", has_text=name)
    if named.count():
        return named.first.get_attribute("data-draft-id")
    held = _held(ctx, name)
    return held if held is not None and held in page.evaluate(_page.DRAFT_ROWS) else None


def _held(ctx: GradeContext, name: str) -> str | None:
    """The id of the one draft ledgerd holds under counterparty ``name`` (read as admin,
    who may read every draft); None for none, or for several."""
    rows = rows_of(ctx.call("/api/drafts", role="admin")) or []
    ids = [str(r.get("id")) for r in rows
           if isinstance(r, dict) and (r.get("counterparty") or {}).get("name") == name]  # fmt: skip
    return ids[0] if len(ids) == 1 else None


def select(page: Any, draft_id: str) -> bool:
    """Click the draft's list row; whether it became ``data-selected="true"``."""
    row = page.locator(f'#draft-list [data-draft-id="{draft_id}"]')
    if not click(row.first):
        return False
    chosen = page.locator(f'#draft-list [data-draft-id="{draft_id}"][data-selected="true"]')
    return wait_for(page, lambda: chosen.count() > 0, STATE_S)


def act(
    page: Any, draft_id: str, button: str, states: tuple[str, ...], answered: Callable[[], bool]
) -> tuple[bool, str | None]:
    """Select the draft, click ``button`` once it is enabled; (clicked, the row's state
    once the page's write was ``answered`` and the row shows one of ``states``, or at the
    bound). Waiting for the answer first reads the settled row, not an optimistic paint
    a reload of the list may still overwrite."""
    select(page, draft_id)
    target = page.locator(button)
    wait_for(page, lambda: target.count() > 0 and target.first.is_enabled(), STATE_S)
    if not click(target.first):
        return False, state_of(page, draft_id)
    wait_for(page, lambda: answered() and state_of(page, draft_id) in states, STATE_S)
    return True, state_of(page, draft_id)


def state_of(page: Any, draft_id: str) -> str | None:
    return page.evaluate(_page.DRAFT_ROWS).get(draft_id)


def feed_seqs(page: Any) -> dict[int, str]:
    """``{seq: kind}`` of the feed's rows."""
    return {int(seq): kind for seq, kind in page.evaluate(_page.FEED_KINDS)}


def new_kinds(page: Any, since: int, want: tuple[str, ...]) -> tuple[str, ...]:
    """The kinds of feed rows above seq ``since``, once all of ``want`` show (bounded by
    ``FEED_S``; what showed by then otherwise)."""

    def kinds() -> tuple[str, ...]:
        return tuple(sorted({k for s, k in feed_seqs(page).items() if s > since}))

    wait_for(page, lambda: set(want) <= set(kinds()), FEED_S)
    return kinds()


def wait_for(page: Any, done: Any, bound_s: float) -> bool:
    """Poll ``done()`` every ``POLL_MS`` (a Playwright wait: the page runs meanwhile)."""
    deadline = time.monotonic() + bound_s
    while True:
        if done():
            return True
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(POLL_MS)
