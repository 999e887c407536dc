"""The approval workflow: draft → submitted → approved | rejected, approved → sent.

Every transition is one transaction: the draft's new state, its ledger event and (for
submitted, approved, rejected) the outbox row, so a 200 means all three are on disk.
Approving also stores the Idempotency-Key the SEND will use, in that same transaction,
before any attempt: the `Sender` (a background thread) creates the vendor payment
afterwards, and a restart resumes it with the stored key. A rejected draft is terminal
(DECISIONS.md D2): submitting it again is 409 ``conflict``.

Four-eyes: the token that submitted a draft may not approve or reject it (403
``approval_forbidden``); the role is checked first.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

from app.httpkit import ApiError, Reply, Request, invalid, json_reply, not_found
from app.ledgerd.auth import Caller, Tokens
from app.ledgerd.ledger import Ledger, Writer
from app.ledgerd.queries import CURRENCIES
from app.times import now_utc

STATES = ("draft", "submitted", "approved", "rejected", "sent")
COUNTRY = re.compile(r"[A-Z]{2}")
DRAFT_COLUMNS = (
    "id, state, amount_minor, currency, counterparty_name, country, note, created_at,"
    " updated_at, submitted_by, idempotency_key, payment_id"
)


def draft_dict(row: dict) -> dict:
    return {
        "id": row["id"],
        "state": row["state"],
        "amount_minor": row["amount_minor"],
        "currency": row["currency"],
        "counterparty": {"name": row["counterparty_name"], "country": row["country"]},
        "note": row["note"],
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
        "payment_id": row["payment_id"],
    }


def validate(body: dict) -> dict:
    """The draft fields, or a 400 naming every bad one."""
    errors: list[dict] = []
    amount = body.get("amount_minor")
    if amount is None:
        errors.append({"path": "amount_minor", "code": "required"})
    elif not isinstance(amount, int) or isinstance(amount, bool):
        errors.append({"path": "amount_minor", "code": "not_an_integer"})
    elif amount <= 0:
        errors.append({"path": "amount_minor", "code": "not_positive"})
    currency = body.get("currency")
    if currency is None:
        errors.append({"path": "currency", "code": "required"})
    elif currency not in CURRENCIES:
        errors.append({"path": "currency", "code": "unsupported"})
    counterparty = body.get("counterparty")
    if not isinstance(counterparty, dict):
        errors.append({"path": "counterparty", "code": "required"})
        counterparty = {}
    else:
        errors += _counterparty_errors(counterparty)
    note = body.get("note", "")
    if not isinstance(note, str):
        errors.append({"path": "note", "code": "bad_format"})
    elif len(note) > 280:
        errors.append({"path": "note", "code": "too_long"})
    if errors:
        raise invalid(errors, "The draft is invalid.")
    return {
        "amount_minor": amount,
        "currency": currency,
        "counterparty_name": counterparty["name"],
        "country": counterparty["country"],
        "note": note,
    }


def _counterparty_errors(counterparty: dict) -> list[dict]:
    errors = []
    name, country = counterparty.get("name"), counterparty.get("country")
    if not isinstance(name, str) or not name:
        errors.append({"path": "counterparty.name", "code": "required"})
    elif len(name) > 80:
        errors.append({"path": "counterparty.name", "code": "too_long"})
    if country is None or country == "":
        errors.append({"path": "counterparty.country", "code": "required"})
    elif not isinstance(country, str) or not COUNTRY.fullmatch(country):
        errors.append({"path": "counterparty.country", "code": "bad_format"})
    return errors


class Drafts:
    """The drafts endpoints; ``wake_sender`` is called once an approval committed."""

    def __init__(self, ledger: Ledger, tokens: Tokens, wake_sender: Callable[[], None]) -> None:
        self.ledger, self.tokens, self.wake_sender = ledger, tokens, wake_sender

    def create(self, request: Request) -> Reply:
        caller = self.tokens.caller(request, "maker", "checker")
        fields = validate(request.json())
        draft_id = f"drf_{uuid.uuid4().hex[:16]}"
        now = now_utc()
        with self.ledger.transaction() as writer:
            writer.conn.execute(
                "INSERT INTO drafts (id, state, amount_minor, currency, counterparty_name,"
                " country, note, created_at, updated_at, created_by) VALUES"
                " (:id, 'draft', :amount_minor, :currency, :counterparty_name, :country,"
                " :note, :now, :now, :role)",
                {**fields, "id": draft_id, "now": now, "role": caller.role},
            )
            writer.event("draft.created", "approval", draft_id=draft_id)
            return json_reply(draft_dict(_load(writer, draft_id)), 201)

    def list(self, request: Request) -> dict:
        self.tokens.caller(request, "maker", "checker", "admin")
        state = request.choice("state", STATES)
        with self.ledger.db.read() as conn:
            where, args = ("WHERE state = ?", (state,)) if state else ("", ())
            rows = conn.execute(
                f"SELECT {DRAFT_COLUMNS} FROM drafts {where} ORDER BY created_at DESC, id", args
            ).fetchall()
        return {"data": [draft_dict(dict(row)) for row in rows], "total": len(rows)}

    def get(self, request: Request) -> dict:
        self.tokens.caller(request, "maker", "checker", "admin")
        with self.ledger.db.read() as conn:
            row = conn.execute(
                f"SELECT {DRAFT_COLUMNS} FROM drafts WHERE id = ?", (request.params[0],)
            ).fetchone()
        if row is None:
            raise not_found("No such draft.")
        return draft_dict(dict(row))

    def submit(self, request: Request) -> dict:
        caller = self.tokens.caller(request, "maker", "checker")
        return self._move(request.params[0], caller, "submitted", four_eyes=False)

    def approve(self, request: Request) -> dict:
        caller = self.tokens.caller(request, "checker")
        answer = self._move(request.params[0], caller, "approved", four_eyes=True)
        self.wake_sender()
        return answer

    def reject(self, request: Request) -> dict:
        caller = self.tokens.caller(request, "checker")
        return self._move(request.params[0], caller, "rejected", four_eyes=True)

    def _move(self, draft_id: str, caller: Caller, target: str, *, four_eyes: bool) -> dict:
        """One legal transition, its event and outbox row, in one transaction."""
        source_state = "draft" if target == "submitted" else "submitted"
        with self.ledger.transaction() as writer:
            draft = _load(writer, draft_id)
            if draft["state"] != source_state:
                raise ApiError(409, "conflict", f"A {draft['state']} draft cannot become {target}.")
            if four_eyes and draft["submitted_by"] == caller.fingerprint:
                raise ApiError(403, "approval_forbidden", "The submitter cannot approve or reject.")
            changes = {"state": target, "updated_at": now_utc(), "id": draft_id}
            extra = ""
            if target == "submitted":
                extra, changes["by"] = ", submitted_by = :by", caller.fingerprint
            elif target == "approved":
                extra, changes["key"] = ", idempotency_key = :key", uuid.uuid4().hex
            writer.conn.execute(
                f"UPDATE drafts SET state = :state, updated_at = :updated_at{extra} WHERE id = :id",
                changes,
            )
            writer.event(f"draft.{target}", "approval", draft_id=draft_id)
            return draft_dict(_load(writer, draft_id))


def _load(writer: Writer, draft_id: str) -> dict:
    row = writer.conn.execute(
        f"SELECT {DRAFT_COLUMNS} FROM drafts WHERE id = ?", (draft_id,)
    ).fetchone()
    if row is None:
        raise not_found("No such draft.")
    return dict(row)
