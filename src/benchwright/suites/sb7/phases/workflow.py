"""Phase ``workflow``: the rest of the approval workflow over the API.

D2: a draft is created, submitted, rejected by the checker, then submitted again (its
status is the app's published decision, DECISIONS.md ``## D2``). A2: a draft is
created and submitted by the maker; the vendor holds every create open; the checker
approves, and as soon as the vendor holds the app's create (the send in flight) ledgerd
is SIGKILLed, then restarted with the vendor answering again: the approved state must
have survived and the send must complete with the same idempotency key (the vendor's
create ledger says which keys came and what they created).
"""

from __future__ import annotations

from benchwright.suites.kit.wire import body
from benchwright.suites.sb7.context import LEDGERD, GradeContext
from benchwright.suites.sb7.observations import FaultWindow, Observations, WorkflowObs
from benchwright.suites.sb7.phases._kills import kill_and_restart
from benchwright.suites.sb7.phases._reads import draft_state
from benchwright.suites.sb7.phases._trace import mark
from benchwright.suites.sb7.phases._waits import until
from benchwright.suites.sb7.schedule import Draft

SENT = "sent"
CREATE_POLL_S = 0.01
"""How often the vendor's create ledger is read for the app's send: the kill lands within
this of the create arriving, long before the vendor's hold (6 s) answers it."""
ANNOUNCE_S = 3.0
"""How long the kill waits for the vendor's ``payment.created`` of the held create to be
acknowledged (the spec's webhook answer budget): the send is still held open, but the
delivery racing it no longer lands on a ledgerd the harness just killed (an attempt the
harness made fail would count against the app's acknowledgements)."""


def workflow(ctx: GradeContext, obs: Observations) -> WorkflowObs:
    """D2's resubmit, then A2's kill with the send in flight."""
    mark(ctx, "workflow")
    rejected = _submitted(ctx, ctx.schedule.rejected)
    ctx.call(f"/api/drafts/{rejected}/reject", method="POST", role="checker")
    resubmit = ctx.call(f"/api/drafts/{rejected}/submit", method="POST", role="maker")
    draft = ctx.schedule.approved
    approved = _submitted(ctx, draft)
    absent = rejected is None and approved is None
    window, kill, state = _a2(ctx, approved)
    return WorkflowObs(a2=window, a2_kill=kill, a2_draft=approved, a2_state_after=state,
                       a2_payload=draft.body(), drafts_absent=absent,
                       resubmit_status=resubmit.status if rejected else None)  # fmt: skip


def _submitted(ctx: GradeContext, draft: Draft) -> str | None:
    """Create ``draft`` and submit it as the maker; its id (None: not created)."""
    created = (body(ctx.call("/api/drafts", method="POST", json=draft.body(),
                             role="maker")) or {}).get("id")  # fmt: skip
    if created is None:
        return None
    ctx.call(f"/api/drafts/{created}/submit", method="POST", role="maker")
    return str(created)


def _a2(ctx: GradeContext, draft: str | None) -> tuple:
    """Approve with creates held open; kill once the app's create is held; restart; the
    window, the kill record and the draft's state right after the restart."""
    settings = ctx.settings
    if draft is None:
        return FaultWindow(armed=True, fired=False, unreached="no draft to approve"), None, None
    creates = len(_app_creates(ctx))
    before = ctx.health_count()
    ctx.mock.hold_creates(on=True)
    try:
        approve = ctx.call(f"/api/drafts/{draft}/approve", method="POST", role="checker")
        answered = approve.status == 200
        held = answered and until(lambda: len(_app_creates(ctx)) > creates,
                                  settings.kill_window_s, CREATE_POLL_S,
                                  ctx.ledgerd_alive)  # fmt: skip
        if not held:
            why = ("the app sent no create within the kill window" if answered
                   else f"the approve was answered {approve.status}")  # fmt: skip
            return FaultWindow(armed=True, fired=False, unreached=why), None, None
        created = _app_creates(ctx)[-1].payment_id
        until(lambda: _announced(ctx, created), ANNOUNCE_S, CREATE_POLL_S, ctx.ledgerd_alive)
        kill = kill_and_restart(ctx, "A2", LEDGERD, before,
                                meanwhile=lambda: ctx.mock.hold_creates(on=False))  # fmt: skip
    finally:
        ctx.mock.hold_creates(on=False)
    state = draft_state(ctx, draft)
    until(lambda: draft_state(ctx, draft) == SENT, settings.quiesce_budget_s, settings.poll_s * 5,
          ctx.ledgerd_alive)  # fmt: skip
    return FaultWindow(armed=True, fired=True), kill, state


def _app_creates(ctx: GradeContext) -> list:
    """The creates the app sent (the vendor's own mid-walk create is not one)."""
    return [c for c in ctx.mock.commit_ledger().creates if not c.internal]


def _announced(ctx: GradeContext, payment_id: str | None) -> bool:
    """The vendor's ``payment.created`` for ``payment_id`` was acknowledged 2xx."""
    return any(d.payment_id == payment_id and d.type == "payment.created" and d.acked
               for d in ctx.mock.delivery_ledger())  # fmt: skip
