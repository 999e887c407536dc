"""Create-payload validation, in the documented order, and the content hash of a create."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime

from benchwright.services.meridian.config import AMOUNT_LIMIT_MINOR, CURRENCIES

COUNTRY_RE = re.compile(r"[A-Z]{2}")
MESSAGES = {
    "invalid_amount": "amount.value_minor must be a positive integer",
    "unsupported_currency": "currency not supported",
    "amount_over_limit": f"per-payment limit is {AMOUNT_LIMIT_MINOR} minor units",
    "invalid_counterparty": "counterparty name/country invalid",
    "bad_format": "occurred_at must be RFC 3339",
    "idempotency_key_required": "each item needs a non-empty idempotency_key",
}
"""A batch item's error message per code: the public vendor's exact strings (its batch
answers carry them on the wire; single creates answer the bare code)."""


def _dict(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def problem(payload: dict) -> str | None:
    """The first error code for a create payload, or None when it is valid."""
    amount, party = _dict(payload.get("amount")), _dict(payload.get("counterparty"))
    value = amount.get("value_minor")
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        return "invalid_amount"
    if amount.get("currency") not in CURRENCIES:
        return "unsupported_currency"
    if value > AMOUNT_LIMIT_MINOR:
        return "amount_over_limit"
    name, country = party.get("name"), party.get("country")
    if not isinstance(name, str) or not name.strip():
        return "invalid_counterparty"
    if not isinstance(country, str) or not COUNTRY_RE.fullmatch(country):
        return "invalid_counterparty"
    occurred = payload.get("occurred_at")
    try:
        datetime.fromisoformat(str(occurred).replace("Z", "+00:00"))
    except ValueError:
        return "bad_format"
    return None if isinstance(occurred, str) else "bad_format"


def content_hash(payload: dict) -> str:
    """Identifies "the same payment" across keys: amount, currency, counterparty, time."""
    amount = _dict(payload.get("amount"))
    content = [
        amount.get("value_minor"),
        amount.get("currency"),
        payload.get("counterparty"),
        payload.get("occurred_at"),
    ]
    return hashlib.sha256(json.dumps(content, sort_keys=True, default=str).encode()).hexdigest()


def new_row(payload: dict) -> dict:
    """The stored shape of a valid create (the id is added by the store)."""
    amount, party = payload["amount"], payload["counterparty"]
    return {
        "amount_minor": amount["value_minor"],
        "currency": amount["currency"],
        "created_at": payload["occurred_at"],
        "settled_at": None,
        "status": "pending",
        "version": 1,
        "note": "",
        "counterparty": {"name": party["name"], "country": party["country"]},
    }
