"""Phases ``mutation``, ``hostile``, ``restart`` and ``webhook`` (the trace is the kit's
`kinds.trace`)."""

from __future__ import annotations

from benchwright.services.meridian import NoWebhookRegistered
from benchwright.services.meridian.script import HOSTILE_EVENT, HOSTILE_NAME, HOSTILE_PAYMENT
from benchwright.suites.kit import kinds
from benchwright.suites.vspro.context import GradeContext
from benchwright.suites.vspro.observations import (
    HostileObs,
    MutationObs,
    Observations,
    RestartObs,
    WebhookObs,
    body,
)


def mutation(ctx: GradeContext, obs: Observations) -> MutationObs:
    """Flip 12 statuses at the vendor, sync #3, read each id; then flip back and sync #4."""
    changed = ctx.mock.mutate_statuses()
    try:
        ctx.mock.mark_phase("sync3")
        sync3 = ctx.sync()
        seen = {
            pid: (body(ctx.call(f"/api/payments/{pid}")) or {}).get("status") for pid in changed
        }
    finally:
        # a fresh version bump, so the app's rows return to the fixture truth
        ctx.mock.unmutate_statuses()
        ctx.mock.mark_phase("sync4")
    return MutationObs(changed, sync3, seen, ctx.sync())


def hostile(ctx: GradeContext, obs: Observations) -> HostileObs:
    """A markup counterparty name on a first-page row, as a signed vendor update; read back.

    Before ``browser``, whose ``load`` scenario reports whether it ran in the page (the
    weight-zero ``x_name_injection``). The vendor's row changes with the event, so any
    later sync agrees with it.
    """
    row = next(r for r in ctx.mock.fixture.rows if r["id"] == HOSTILE_PAYMENT)
    party = {**row["counterparty"], "name": HOSTILE_NAME}
    sent, refused = None, None
    try:
        sent = ctx.mock.deliver_update(HOSTILE_PAYMENT, {"counterparty": party}, HOSTILE_EVENT)
    except NoWebhookRegistered as exc:
        refused = str(exc)
    return HostileObs(sent, refused, ctx.call(f"/api/payments/{HOSTILE_PAYMENT}"))


def restart(ctx: GradeContext, obs: Observations) -> RestartObs:
    """Count, SIGKILL the process group, respawn on the same db and port (20 s to health).

    The seed's empty-instance probe re-registered the vendor webhook before this
    point, taking its single slot; the slot is emptied here to the same effect, so
    the webhook script can only reach an app that re-registers after its reboot.
    """
    with ctx.mock.store.lock:
        ctx.mock.store.webhook = None
    return kinds.restart(ctx, obs)


def webhook(ctx: GradeContext, obs: Observations) -> WebhookObs:
    """Give the rebooted app its re-registration window, run the 8-step script, read back."""
    registered = ctx.wait_registered(ctx.settings.register_wait_s)
    script, refused = None, None
    try:
        script = ctx.mock.run_delivery_script()
    except NoWebhookRegistered as exc:
        refused = f"{exc} (the app did not re-register after its restart)"
    health = body(ctx.call("/api/health"))
    touched = (script or {}).get("expected_rows") or {}
    rows = {pid: body(ctx.call(f"/api/payments/{pid}")) for pid in touched}
    return WebhookObs(registered, script, refused, health, rows)
