"""The frozen contract's SCHEMAS table: per endpoint and status, the required fields and kinds.

It says what ``suites/ace/contract/contract.md`` and ``openapi.yaml`` say, as data F6
can grade an exchange against: a status the contract does not list for the endpoint
is a finding, and so is a required field that is missing or of the wrong kind.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal

Kind = Literal["decimal", "timestamp", "string", "map"]

DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?")
TIMESTAMP = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z")

ERROR: Mapping[str, Kind] = {"error": "string"}
ACCOUNT: Mapping[str, Kind] = {
    "accountId": "string",
    "currency": "string",
    "availableBalance": "decimal",
    "createdAt": "timestamp",
}
ORDER: Mapping[str, Kind] = {
    "orderId": "string",
    "accountId": "string",
    "symbol": "string",
    "side": "string",
    "quantity": "decimal",
    "limitPrice": "decimal",
    "status": "string",
    "executedAt": "timestamp",
}
HOLDINGS: Mapping[str, Kind] = {
    "accountId": "string",
    "asOfApplied": "timestamp",
    "holdings": "map",
}

SCHEMAS: Mapping[tuple[str, str], Mapping[int, Mapping[str, Kind]]] = {
    ("GET", "/health"): {200: {"status": "string"}},
    ("POST", "/accounts"): {201: ACCOUNT, 400: ERROR},
    ("GET", "/accounts/{accountId}"): {200: ACCOUNT, 404: ERROR},
    ("POST", "/accounts/{accountId}/deposits"): {200: ACCOUNT, 400: ERROR, 404: ERROR},
    ("GET", "/accounts/{accountId}/holdings"): {200: HOLDINGS, 400: ERROR, 404: ERROR},
    ("POST", "/orders"): {201: ORDER, 200: ORDER, 400: ERROR, 404: ERROR, 422: ERROR},
    ("GET", "/orders/{orderId}"): {200: ORDER, 404: ERROR},
    ("POST", "/orders/{orderId}/cancel"): {200: ORDER, 404: ERROR, 409: ERROR},
}


def is_kind(value: Any, kind: Kind) -> bool:
    """Whether ``value`` is a ``kind``: a decimal is a JSON *string* holding a decimal (a
    JSON number never is); a map is an object whose values are decimal strings."""
    if kind == "map":
        return isinstance(value, dict) and all(is_kind(v, "decimal") for v in value.values())
    if not isinstance(value, str):
        return False
    if kind == "decimal":
        return DECIMAL.fullmatch(value) is not None
    if kind == "timestamp":
        return TIMESTAMP.fullmatch(value) is not None
    return True


def problems(method: str, template: str, status: int, body: Any) -> list[str]:
    """What is wrong with one answer by the frozen contract (empty: nothing)."""
    call = f"{method} {template}"
    statuses = SCHEMAS.get((method, template))
    if statuses is None:
        return [f"{call} is not in the frozen contract"]
    if status not in statuses:
        listed = ", ".join(str(s) for s in statuses)
        return [f"{call} answered {status}; the contract lists {listed}"]
    if not isinstance(body, dict):
        return [f"{call} -> {status}: the body is not a JSON object"]
    found = []
    for name, kind in statuses[status].items():
        if name not in body:
            found.append(f"{call} -> {status}: {name} missing")
        elif not is_kind(body[name], kind):
            found.append(f"{call} -> {status}: {name} is {body[name]!r}, not a {kind}")
    return found
