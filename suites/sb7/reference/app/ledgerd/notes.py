"""``POST /api/payments/<id>/note``: the note written through to the vendor first.

Every write carries ``If-Match`` with the version last read. A 412 means someone got
there first: read the payment again, retry once with its version; a second 412 is 409
``conflict`` and nothing local changes. On success the vendor's answer is stored (by
version, like every other upsert) with a ``payment.updated`` event of source ``local``.
"""

from __future__ import annotations

from app.httpkit import ApiError, Request, invalid, not_found
from app.ledgerd import queries
from app.ledgerd.ledger import Ledger
from app.ledgerd.meridian import Answer, Meridian, VendorUnavailable

MAX_NOTE = 280


def _note_of(request: Request) -> str:
    note = request.json().get("note")
    if note is None or note == "":
        raise invalid([{"path": "note", "code": "required"}], "A note is required.")
    if not isinstance(note, str):
        raise invalid([{"path": "note", "code": "bad_format"}], "The note must be text.")
    if len(note) > MAX_NOTE:
        raise invalid([{"path": "note", "code": "too_long"}], "The note is too long.")
    return note


def _unavailable() -> ApiError:
    return ApiError(502, "vendor_unavailable", "Meridian did not answer; try again shortly.")


def write_note(ledger: Ledger, vendor: Meridian, request: Request) -> dict:
    payment_id, note = request.params[0], _note_of(request)
    with ledger.db.read() as conn:
        row = queries.payment(conn, payment_id)
    if row is None:
        raise not_found("No such payment.")
    try:
        answer = vendor.write_note(payment_id, note, row["version"])
        if answer.status == 412:
            answer = _retry_on_fresh(vendor, payment_id, note)
    except VendorUnavailable:
        raise _unavailable() from None
    if answer.status == 412:
        raise ApiError(409, "conflict", "The payment changed twice while saving; reload it.")
    if answer.status == 404:
        raise not_found("Meridian has no such payment.")
    if answer.status != 200:
        raise _unavailable()
    payment = answer.json()
    with ledger.transaction() as writer:
        writer.upsert(payment, "local")
    return {"id": payment["id"], "note": payment["note"], "version": payment["version"]}


def _retry_on_fresh(vendor: Meridian, payment_id: str, note: str) -> Answer:
    fresh = vendor.payment(payment_id)
    if fresh.status != 200:
        return fresh
    return vendor.write_note(payment_id, note, int(fresh.json()["version"]))
