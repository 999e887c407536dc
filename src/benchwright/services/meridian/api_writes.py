"""``POST /vN/payments``, ``POST /v2/payments/batch`` and ``PATCH /v2/payments/<id>``.

What a create validates and stores is the mock's version's (`versions.ApiVersion`);
the key, the replay and the create log are the same in every version.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import Response

from benchwright.services.meridian._http import error, json_object, reply
from benchwright.services.meridian.api_list import ID_RE
from benchwright.services.meridian.config import BATCH_MAX_ITEMS
from benchwright.services.meridian.store import public
from benchwright.services.meridian.validation import MESSAGES

if TYPE_CHECKING:
    from benchwright.services.meridian.control import MeridianMock

IF_MATCH_RE = re.compile(r'(?:W/)?"?([^"]*)"?')


def _create(mock: MeridianMock, payload: dict, key: str, source: str) -> tuple[str, str]:
    """One create: ``("created"|"duplicate", id)`` or ``("error", code)``; logged for the ledger."""
    api, store = mock.api, mock.store
    code = "idempotency_key_required" if not key else api.problem(payload)
    with store.lock:
        if code is not None:
            outcome = ("error", code)
        elif key in store.idempotency:
            outcome = ("duplicate", store.idempotency[key])
        else:
            row = store.new_payment(api.new_row(payload))
            store.idempotency[key] = row["id"]
            outcome = ("created", row["id"])
        mock.creates.append({"key": key, "content": api.content(payload), "source": source,
                             "outcome": outcome[0] if code is None else code})  # fmt: skip
    return outcome


async def create_payment(mock: MeridianMock, request: Request, line: dict) -> Response:
    key = request.headers.get("idempotency-key", "")
    kind, value = _create(mock, await json_object(request), key, "single")
    if kind == "error":
        line["reason"] = value
        return error(400, value)
    line["payment_id"] = value
    if kind == "duplicate":
        return error(409, "duplicate", payment_id=value)
    with mock.store.lock:
        return reply(public(mock.store.created[value]), 201)


async def create_batch(mock: MeridianMock, request: Request, line: dict) -> Response:
    items = (await json_object(request)).get("items")
    if not isinstance(items, list) or not items:
        return error(400, "no_items")
    if len(items) > BATCH_MAX_ITEMS:
        return error(400, "too_many_items")
    results = []
    for index, item in enumerate(items):
        item = item if isinstance(item, dict) else {}
        key = item.get("idempotency_key")
        kind, value = _create(mock, item, key if isinstance(key, str) else "", "batch")
        if kind == "error":
            results.append({"index": index, "status": "error",
                            "error": {"code": value, "message": MESSAGES[value]}})  # fmt: skip
        else:
            result = {"index": index, "status": "created", "id": value}
            results.append(result | ({"duplicate": True} if kind == "duplicate" else {}))
    failed = sum(r["status"] == "error" for r in results)
    line.update(batch_items=len(items), succeeded=len(items) - failed, failed=failed)
    return reply({"results": results, "succeeded": len(items) - failed, "failed": failed})


async def patch_payment(mock: MeridianMock, request: Request, line: dict) -> Response:
    payment_id = request.path_params["payment_id"]
    payload, store = await json_object(request), mock.store
    line.update(payment_id=payment_id, injected_412=False, applied_fields=[])
    with store.lock:
        row = store.find(payment_id) if ID_RE.fullmatch(payment_id) else None
        if row is None:
            return error(404, "not_found")
        line.update(current_version=row["version"], mode=store.conflict_mode)
        raw = request.headers.get("if-match")
        if raw is None:
            return error(428, "precondition_required")
        wanted = IF_MATCH_RE.fullmatch(raw.strip())
        if wanted is None or not wanted.group(1).isdigit():
            return error(400, "bad_if_match")
        if int(wanted.group(1)) != row["version"]:
            return error(412, "version_conflict")
        if store.take_injection():
            row["version"] += 1
            store.generation += 1
            line.update(injected_412=True, new_version=row["version"])
            return error(412, "version_conflict")
        fields = [f for f in ("note", "status") if isinstance(payload.get(f), str)]
        row.update({f: payload[f] for f in fields})
        row["version"] += 1
        store.generation += 1
        line.update(applied_fields=fields, new_version=row["version"])
        return reply(public(row))
