"""What ``POST /v1/payments`` stores: the v1 create body, unvalidated as published.

The public v1 vendor checks only the ``Idempotency-Key`` (docs/facts/meridian-v1.md §6):
any body is stored as sent, ``currency`` defaulting to ``EUR``, stamped now in UTC.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime

from benchwright.services.meridian.rows import utc_z


def problem(payload: dict) -> str | None:
    """Never a problem: v1 validates nothing but the key (which `api_writes` checks)."""
    return None


def new_row(payload: dict) -> dict:
    """The stored shape of a create (the id is added by the store)."""
    return {
        "amount_minor": payload.get("amount_minor"),
        "currency": payload.get("currency", "EUR"),
        "created_at": utc_z(datetime.now(UTC)),
        "status": "pending",
    }


def content_hash(payload: dict) -> str:
    """Identifies "the same payment" across keys: the amount and its currency."""
    content = [payload.get("amount_minor"), payload.get("currency", "EUR")]
    return hashlib.sha256(json.dumps(content, default=str).encode()).hexdigest()
