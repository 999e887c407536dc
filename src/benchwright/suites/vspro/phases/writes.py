"""Phases ``batch`` and ``conflict``: writes through the app to the vendor."""

from __future__ import annotations

from benchwright.services.meridian import AMOUNT_LIMIT_MINOR
from benchwright.suites.vspro.context import GradeContext
from benchwright.suites.vspro.observations import BatchObs, ConflictObs, Observations, rows_of


def _item(value, currency, name, country, at, key) -> dict:
    return {
        "amount": {"value_minor": value, "currency": currency},
        "counterparty": {"name": name, "country": country},
        "occurred_at": at,
        "idempotency_key": key,
    }


GOOD_BATCH = (
    _item(5000, "EUR", "Alpha GmbH", "DE", "2026-03-25T10:00:00Z", "sb6-b1"),
    _item(AMOUNT_LIMIT_MINOR + 1, "USD", "Over Limit LLC", "US", "2026-03-25T11:00:00Z", "sb6-b2"),
    _item(900, "JPY", "Kappa KK", "JP", "2026-03-25T12:00:00Z", "sb6-b3"),
)
INVALID_BATCH = (_item("x", "EUR", "", "deu", "nope", ""),)
FIRST_NOTE, SECOND_NOTE = "sb6 conflict probe", "sb6 double conflict"


def batch(ctx: GradeContext, obs: Observations) -> BatchObs:
    """Three items (the second over the vendor's limit), the create ledger, an invalid batch."""
    response = ctx.call("/api/payments/batch", method="POST", json={"items": list(GOOD_BATCH)})
    trace = ctx.mock.batch_trace()
    invalid = ctx.call("/api/payments/batch", method="POST", json={"items": list(INVALID_BATCH)})
    return BatchObs(response, trace, invalid)


def conflict(ctx: GradeContext, obs: Observations) -> ConflictObs:
    """One-shot 412 then a note; always-412 then a second note; read the row; mode off."""
    payment_id = _first_id(obs)
    path = f"/api/payments/{payment_id}"
    pristine = (ctx.mock.store.find(payment_id) or {}).get("note")
    try:
        ctx.mock.arm_conflict_once()
        first = ctx.call(f"{path}/note", method="POST", json={"note": FIRST_NOTE}, timeout_s=30)
        ctx.mock.arm_conflict_second()
        second = ctx.call(f"{path}/note", method="POST", json={"note": SECOND_NOTE}, timeout_s=30)
        row_after = ctx.call(path)
        trace = ctx.mock.conflict_trace()
    finally:
        ctx.mock.set_conflict_mode("off")  # later writes must meet a normal vendor
        _restore_note(ctx, payment_id, pristine)
    return ConflictObs(payment_id, first, second, row_after, SECOND_NOTE, trace)


def _restore_note(ctx: GradeContext, payment_id: str, note: str | None) -> None:
    """Give the vendor's row its note back under a new version, so the syncs before the
    browser phase return the app's copy to the fixture: ``load`` must see pristine data
    (docs/vspro.md), not lose a layout row to the note this phase wrote."""
    store = ctx.mock.store
    with store.lock:
        row = store.find(payment_id)
        if row is None or note is None or row.get("note") == note:
            return
        row["note"] = note
        row["version"] += 1
        store.generation += 1  # every cached page is stale: the next sync reads the row
    ctx.mock.trace.control("restore-note", payment_id=payment_id)


def _first_id(obs: Observations) -> str:
    """The default page's first row (the seed's choice), else the fixture's oldest id."""
    rows = rows_of(obs["reads"].default) if obs.has("reads") else None
    if rows and isinstance(rows[0], dict) and isinstance(rows[0].get("id"), str):
        return rows[0]["id"]
    return min(obs.fixture_ids)
