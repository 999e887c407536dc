"""Input validation for the local API, reported as ``field_errors`` ``{path, code}``.

Field codes: ``required``, ``not_an_integer``, ``not_positive``, ``unsupported``,
``too_long``, ``bad_format``. Every problem is reported, not only the first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from vspro import CURRENCIES, STATUSES
from vspro.store import SORTS
from vspro.times import parse_instant

DEFAULT_LIMIT, MAX_LIMIT = 50, 200
BATCH_MAX = 20
NAME_MAX, NOTE_MAX = 80, 280
COUNTRY = re.compile(r"[A-Z]{2}")


class Invalid(ValueError):
    """400 bad_request with these field errors."""

    def __init__(self, message: str, field_errors: list[dict]) -> None:
        super().__init__(message)
        self.message, self.field_errors = message, field_errors


def problem(path: str, code: str) -> dict:
    return {"path": path, "code": code}


@dataclass(frozen=True)
class ListQuery:
    limit: int = DEFAULT_LIMIT
    offset: int = 0
    status: str | None = None
    currency: str | None = None
    sort: str = "created_at"


def _count(raw: str | None, name: str, default: int, least: int, errors: list) -> int:
    if raw is None or raw == "":
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        errors.append(problem(name, "not_an_integer"))
        return default
    if value < least:
        errors.append(problem(name, "not_positive"))
    return value


def _choice(raw: str | None, name: str, allowed, errors: list) -> str | None:
    if raw is None or raw == "":
        return None
    if raw not in allowed:
        errors.append(problem(name, "unsupported"))
    return raw


def list_query(params: dict[str, str]) -> ListQuery:
    """``GET /api/payments`` parameters; a limit above 200 is capped (and echoed) at 200."""
    errors: list[dict] = []
    limit = _count(params.get("limit"), "limit", DEFAULT_LIMIT, 1, errors)
    offset = _count(params.get("offset"), "offset", 0, 0, errors)
    status = _choice(params.get("status"), "status", STATUSES, errors)
    currency = _choice(params.get("currency"), "currency", CURRENCIES, errors)
    sort = _choice(params.get("sort"), "sort", SORTS, errors) or "created_at"
    if errors:
        raise Invalid("invalid query parameters", errors)
    return ListQuery(min(limit, MAX_LIMIT), offset, status, currency, sort)


def note(body: dict) -> str:
    """The ``{note}`` of a note edit: a string of 1 to 280 characters."""
    value = body.get("note")
    if value is None or value == "":
        raise Invalid("a note is required", [problem("note", "required")])
    if not isinstance(value, str):
        raise Invalid("a note is a string", [problem("note", "bad_format")])
    if len(value) > NOTE_MAX:
        raise Invalid(f"a note has at most {NOTE_MAX} characters", [problem("note", "too_long")])
    return value


def _text(value: object, path: str, errors: list, most: int | None = None) -> bool:
    if value is None or value == "":
        errors.append(problem(path, "required"))
    elif not isinstance(value, str):
        errors.append(problem(path, "bad_format"))
    elif most is not None and len(value) > most:
        errors.append(problem(path, "too_long"))
    else:
        return True
    return False


def batch_item(item: object, at: str) -> list[dict]:
    """Shape errors of one create item (the vendor's create body plus ``idempotency_key``)."""
    if not isinstance(item, dict):
        return [problem(at, "required")]
    errors: list[dict] = []
    amount = item.get("amount")
    if not isinstance(amount, dict):
        errors.append(problem(f"{at}.amount", "required"))
    else:
        value = amount.get("value_minor")
        if value is None:
            errors.append(problem(f"{at}.amount.value_minor", "required"))
        elif isinstance(value, bool) or not isinstance(value, int):
            errors.append(problem(f"{at}.amount.value_minor", "not_an_integer"))
        elif value <= 0:
            errors.append(problem(f"{at}.amount.value_minor", "not_positive"))
        currency = amount.get("currency")
        if _text(currency, f"{at}.amount.currency", errors) and currency not in CURRENCIES:
            errors.append(problem(f"{at}.amount.currency", "unsupported"))
    counterparty = item.get("counterparty")
    if not isinstance(counterparty, dict):
        errors.append(problem(f"{at}.counterparty", "required"))
    else:
        _text(counterparty.get("name"), f"{at}.counterparty.name", errors, NAME_MAX)
        country = counterparty.get("country")
        if _text(country, f"{at}.counterparty.country", errors) and not COUNTRY.fullmatch(country):
            errors.append(problem(f"{at}.counterparty.country", "bad_format"))
    occurred = item.get("occurred_at")
    if _text(occurred, f"{at}.occurred_at", errors):
        try:
            parse_instant(occurred)
        except ValueError:
            errors.append(problem(f"{at}.occurred_at", "bad_format"))
    _text(item.get("idempotency_key"), f"{at}.idempotency_key", errors, 255)
    return errors


def batch(body: dict) -> list[dict]:
    """The items of ``POST /api/payments/batch``, checked before anything reaches the vendor."""
    items = body.get("items")
    if not isinstance(items, list) or not items:
        raise Invalid("items must be a list of 1 to 20 payments", [problem("items", "required")])
    if len(items) > BATCH_MAX:
        raise Invalid(f"at most {BATCH_MAX} items per batch", [problem("items", "too_long")])
    errors = [e for i, item in enumerate(items) for e in batch_item(item, f"items[{i}]")]
    if errors:
        raise Invalid("some items are invalid; nothing was sent", errors)
    keys = ("amount", "counterparty", "occurred_at", "idempotency_key")
    return [{key: item[key] for key in keys} for item in items]
