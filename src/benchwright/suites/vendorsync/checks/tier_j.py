"""Tier J (journeys, facts entries 47-51): the page loads the data, stays quiet in the
console, syncs on a click, and shows its error and empty states. Each reads a scenario
of the ``browser`` phase; a scenario the probe could not run makes its rows UNAVAILABLE
with ``PROBE UNAVAILABLE`` (`seen`), never an app zero."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from benchwright.model import CheckResult, Status
from benchwright.suites.kit.browser.rows import errors_of, quote, shots, view
from benchwright.suites.kit.checks import app_check, g, result
from benchwright.suites.kit.record import PhaseLog
from benchwright.suites.vendorsync.browser import JOURNEYS
from benchwright.suites.vendorsync.checks._common import PROBE_UNAVAILABLE

PAGE_INFO = re.compile(r"(\d[\d,.\s]*?)\s*[\u2013\u2014-]\s*(\d[\d,.\s]*?)\s+of\s+(\d[\d,.\s]*)")
"""``#page-info``'s "X-Y of TOTAL" (an en dash, an em dash or a hyphen; grouped digits)."""
ACTIONABLE = re.compile(r"try again|retry|check|running|reload|refresh", re.I)
"""Words that tell the user what to do about an error."""


def seen(obs: PhaseLog, check_id: str, name: str, timed: bool = False) -> tuple[Any, Any]:
    """The kit's `view` of scenario ``name``, its refusal marked ``PROBE UNAVAILABLE`` as
    the methodology words it (facts §2)."""
    found, refused = view(obs, check_id, name, timed)
    if refused is not None and refused.status is Status.UNAVAILABLE:
        refused = replace(refused, detail=PROBE_UNAVAILABLE + refused.detail)
    return found, refused


def stated_total(page_info: str | None) -> int | None:
    """TOTAL of a "X-Y of TOTAL" ``#page-info``, else None."""
    found = PAGE_INFO.search(page_info or "")
    digits = re.sub(r"\D", "", found.group(3)) if found else ""
    return int(digits) if digits else None


@app_check("j_loads_data", needs=("browser",))
def j_loads_data(obs: PhaseLog, s: Any) -> CheckResult:
    """Rows render (0.5) and the page accounts for the whole collection: ``#page-info``
    "X-Y of <collection>" or every row rendered (0.5)."""
    load, refused = seen(obs, "j_loads_data", "load")
    if refused:
        return refused
    total = stated_total(load.page_info)
    rendered = load.rows > 0
    accounted = total == load.collection or load.rows == load.collection
    score = 0.5 * rendered + 0.5 * accounted
    info = "no #page-info" if load.page_info is None else f"#page-info {quote(load.page_info)}"
    detail = (f"{g(score)}: {load.rows} rows rendered ({'0.5' if rendered else '0'}/0.5); "
              f"{info}, the collection is {load.collection} "
              f"({'0.5' if accounted else '0'}/0.5)")  # fmt: skip
    return result("j_loads_data", score, detail, rows=load.rows, stated_total=total,
                  screenshots=shots(load, "load-1280"))  # fmt: skip


@app_check("j_console_clean", needs=("browser",))
def j_console_clean(obs: PhaseLog, s: Any) -> CheckResult:
    """No console errors while loading, paging and syncing (the load, empty and sync
    scenarios): 1.0; one 0.5; two or more 0."""
    errors: list[str] = []
    for name in JOURNEYS:
        journey, refused = seen(obs, "j_console_clean", name)
        if refused:
            return refused
        errors += [f"{name}: {text}" for text in errors_of(journey)]
    score = 1.0 if not errors else 0.5 if len(errors) == 1 else 0.0
    head = "no console errors" if not errors else f"{len(errors)} console error(s)"
    shown = "; ".join(quote(e, 160) for e in errors[:3])
    detail = f"{g(score)}: {head} over {', '.join(JOURNEYS)}" + (f": {shown}" if shown else "")
    return result("j_console_clean", score, detail, errors=errors)


@app_check("j_sync_journey", needs=("browser",))
def j_sync_journey(obs: PhaseLog, s: Any) -> CheckResult:
    """Four quarters, on an empty page the click must fill: ``#sync-now`` found; disabled
    while the sync runs; the sync completes (answered 2xx, the button enabled again); the
    view refreshes afterwards (rows shown, something changed)."""
    sync, refused = seen(obs, "j_sync_journey", "sync")
    if refused:
        return refused
    completed = (sync.sync_status is not None and 200 <= sync.sync_status < 300
                 and sync.enabled_after)  # fmt: skip
    refreshed = sync.after is not None and sync.after.rows > 0 and sync.after != sync.before
    quarters = {
        "#sync-now found": sync.found and sync.clicked,
        "disabled while running": sync.disabled_while_running,
        f"completed (POST /api/sync {sync.sync_status})": completed,
        "view refreshed": refreshed,
    }
    score = 0.25 * sum(quarters.values())
    parts = ", ".join(f"{name} {'yes' if ok else 'no'}" for name, ok in quarters.items())
    return result("j_sync_journey", score, f"{g(score)}: {parts}",
                  before=_snap(sync.before), after=_snap(sync.after),
                  screenshots=shots(sync))  # fmt: skip


def _snap(snapshot: Any) -> dict[str, Any] | None:
    return None if snapshot is None else dict(vars(snapshot))


@app_check("j_error_state", needs=("browser",))
def j_error_state(obs: PhaseLog, s: Any) -> CheckResult:
    """With the API unreachable: a visible ``#error`` whose text says what to do, with a
    visible ``#retry``: 1.0; 0 otherwise."""
    error, refused = seen(obs, "j_error_state", "error")
    if refused:
        return refused
    actionable = bool(ACTIONABLE.search(error.error_text))
    parts = (("a visible #error", error.error_visible), ("text saying what to do", actionable),
             ("a visible #retry", error.retry_visible))  # fmt: skip
    missing = [name for name, ok in parts if not ok]
    score = 0.0 if missing else 1.0
    head = (
        "a visible #error saying what to do, with #retry"
        if not missing
        else (f"missing {', '.join(missing)}")
    )
    text = f"; #error reads {quote(error.error_text, 100)}" if error.error_text else ""
    return result("j_error_state", score, f"{g(score)}: {head}{text}",
                  retry_recovered=error.recovered, screenshots=shots(error))  # fmt: skip


@app_check("j_empty_state", needs=("browser",))
def j_empty_state(obs: PhaseLog, s: Any) -> CheckResult:
    """On a fresh database: a visible ``#empty`` that says so: 1.0; not shown, or rows
    rendered on the empty database: 0."""
    empty, refused = seen(obs, "j_empty_state", "empty")
    if refused:
        return refused
    if empty.rows > 0:
        detail = f"0: {empty.rows} rows rendered on an empty database"
    elif not empty.empty_visible or not empty.empty_text.strip():
        detail = "0: no visible #empty with text on a fresh database"
    else:
        detail = f"1: #empty reads {quote(empty.empty_text, 100)}"
    return result("j_empty_state", float(detail.startswith("1")), detail,
                  screenshots=shots(empty))  # fmt: skip
