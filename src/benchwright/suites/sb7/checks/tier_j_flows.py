"""Tier J's interactive journeys (§12), read from the flow scenarios of the ``browser``
phase (`sb7.browser.flows`): the sync click, the maker/checker approval journey (CRITICAL:
a dead primary flow), the rejection, and the notifications feed across a notifier kill.
A scenario that raised or never ran is PROBE UNAVAILABLE (`kit.browser.rows.view`); a
``/`` that is no page is the app's 0."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.suites.kit.browser.rows import quote, shots, view
from benchwright.suites.kit.checks import app_check, g, result
from benchwright.suites.sb7.browser.flows.flow import FLOW
from benchwright.suites.sb7.browser.flows.views import NO_ANSWER
from benchwright.suites.sb7.checks._common import CheckSettings, parts_row
from benchwright.suites.sb7.observations import Observations

IN_FLIGHT_MS = 1200
"""§12: the in-flight state shows within 1200 ms of the click."""
RECOVER_S = 5.0
"""§7: the feed is live again within 5 s of notifierd coming back."""


@app_check("j_sync_journey", needs=("browser",))
def j_sync_journey(obs: Observations, _s: CheckSettings) -> CheckResult:
    """Quarters: ``#sync-now`` found and clicked; busy within 1200 ms; completed (idle again,
    no notice, corroborated by the page's own answered ``POST /api/sync``); the view
    refreshed (refetched and re-rendered after the answer, or its rows' text changed). When
    the busy state's time is the only shortfall, the contention rule judges it
    (`checks._timing`: a busy host's late paint proves nothing about the app)."""
    seen, refused = view(obs, "j_sync_journey", "sync")
    if refused:
        return refused
    ev = {"screenshots": shots(seen), "in_flight_ms": seen.in_flight_ms,
          "api_sync_status": seen.api_sync_status}  # fmt: skip
    if not (seen.button_found and seen.clicked):
        why = "sync button never found" if not seen.button_found else "sync button not clickable"
        return result("j_sync_journey", 0.0, f"0: {why} (#sync-now)", **ev)
    answered = seen.api_sync_status is not None and 200 <= seen.api_sync_status < 300
    changed = seen.hash_before != seen.hash_after
    parts = {
        "found": True,
        "in flight": seen.in_flight_ms is not None and seen.in_flight_ms <= IN_FLIGHT_MS,
        "completed": seen.completed and seen.notice is None and answered,
        "refreshed": (seen.refetched and seen.rerendered) or changed,
    }
    row = parts_row("j_sync_journey", parts, "the sync journey")
    if seen.in_flight_ms is not None and all(v for k, v in parts.items() if k != "in flight"):
        ev["timing_score"] = float(parts["in flight"])  # a late busy state alone: the host's?
    notes = [f"busy at {seen.in_flight_ms:.0f} ms" if seen.in_flight_ms is not None
             else "never busy", f"POST /api/sync {_answer(seen.api_sync_status)}",
             f"notice {quote(seen.notice)}" if seen.notice else "no notice",
             f"refetched {seen.refetched}, re-rendered {seen.rerendered}, "
             f"rows changed {changed}"]  # fmt: skip
    return result("j_sync_journey", row.score, f"{row.detail} ({'; '.join(notes)})", **ev)


def _answer(status: int | None) -> str:
    """What became of the page's request: its status, or that it never had one."""
    if status is None:
        return "never sent"
    return "sent, never answered (failed or aborted)" if status == NO_ANSWER else str(status)


@app_check("j_workflow_journey", needs=("browser",))
def j_workflow_journey(obs: Observations, _s: CheckSettings) -> CheckResult:
    """Gate x steps/7: a page without the workflow controls scores 0 (an absent required
    surface); a refused token or no created draft closes the gate (0); otherwise each of
    §12's seven causal steps is 1/7."""
    flow, refused = view(obs, "j_workflow_journey", FLOW)
    if refused:
        return refused
    seen = flow.approval
    calls = [f"{c.method} {c.path} {c.status} as {c.bearer}" for c in flow.calls]
    ev = {"screenshots": shots(flow, "approval-end"), "draft_id": seen.draft_id, "calls": calls}
    if seen.surface:
        return result("j_workflow_journey", 0.0, "0: absent required surface: no "
                      f"{', '.join(seen.surface)} on the page", **ev)  # fmt: skip
    steps = {"token_accepted": seen.token_accepted, "draft_created": seen.draft_id is not None,
             "submitted": seen.submitted, "approved": seen.approved, "list_ok": seen.list_ok,
             "notification_seen": seen.notification_seen,
             "payment_in_table": seen.payment_in_table}  # fmt: skip
    if not (steps["token_accepted"] and steps["draft_created"]):
        why = "the maker's token was never accepted" if not steps["token_accepted"] \
            else "no draft was created through the form"  # fmt: skip
        return result("j_workflow_journey", 0.0, f"0: gate closed: {why}", **ev, **steps)
    row = parts_row("j_workflow_journey", steps, "the approval journey through the UI")
    tail = f" (list states {list(seen.list_states)}; feed kinds {list(seen.notified)})"
    return result("j_workflow_journey", row.score, row.detail + tail, **ev, **steps)


@app_check("j_workflow_reject", needs=("browser",))
def j_workflow_reject(obs: Observations, _s: CheckSettings) -> CheckResult:
    """Thirds: the ``#reject-btn`` click reached ``rejected`` on the wire; the draft's list
    row says ``rejected``; the ``draft.rejected`` notification showed in the feed."""
    flow, refused = view(obs, "j_workflow_reject", FLOW)
    if refused:
        return refused
    seen, shot = flow.rejection, shots(flow, "rejection-end")
    parts = {"reached rejected": seen.clicked and seen.reached_rejected,
             "listed rejected": seen.list_state == "rejected",
             "notification seen": seen.notification_seen}  # fmt: skip
    if not any(parts.values()):
        why = "no draft was created" if seen.draft_id is None else "rejection never completed"
        return result("j_workflow_reject", 0.0, f"0: {why}", screenshots=shot)
    row = parts_row("j_workflow_reject", parts, "the rejection")
    return result("j_workflow_reject", row.score, f"{row.detail} (list state "
                  f"{seen.list_state!r})", screenshots=shot)  # fmt: skip


@app_check("j_notifications_feed", needs=("browser",))
def j_notifications_feed(obs: Observations, _s: CheckSettings) -> CheckResult:
    """Quarters: ``degraded`` while notifierd was down; ``live`` after the heal; live
    within 5 s of it; and the same document throughout (no reload)."""
    seen, refused = view(obs, "j_notifications_feed", "feed")
    if refused:
        return refused
    ev = {"screenshots": shots(seen), "degraded_after_s": seen.degraded_after_s,
          "recovered_s": seen.recovered_s, "partition_writes": list(seen.writes)}  # fmt: skip
    if not seen.feed_found:
        return result("j_notifications_feed", 0.0, "0: no #notifications feed on the page", **ev)
    recovered = seen.recovered_s is not None and seen.recovered_s <= RECOVER_S
    parts = {"degraded during the partition": seen.degraded_seen,
             "live after the heal": seen.live_after,
             f"live within {RECOVER_S:g} s": recovered,
             "no reload": not seen.reloaded}  # fmt: skip
    row = parts_row("j_notifications_feed", parts, "the feed across the notifier kill")
    when = f"live {g(seen.recovered_s)} s after the heal" if seen.recovered_s is not None \
        else "never live again"  # fmt: skip
    return result("j_notifications_feed", row.score, f"{row.detail} ({when})", **ev)
