"""Run the webhook script (or one extra update) against the registered URL and report
each delivery."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from benchwright.errors import HarnessError
from benchwright.services.meridian import script
from benchwright.services.meridian._outbound import post_json
from benchwright.services.meridian.config import FORGED_SECRET
from benchwright.services.meridian.webhooks import (
    SIGNATURE_HEADER,
    Registration,
    event_body,
    sign,
)

if TYPE_CHECKING:
    from benchwright.services.meridian.control import MeridianMock


class NoWebhookRegistered(HarnessError):
    """The delivery script needs a registered webhook; nothing has registered one."""


def _registration(mock: MeridianMock) -> Registration:
    reg = mock.store.webhook
    if reg is None:
        raise NoWebhookRegistered("no webhook is registered with the Meridian mock")
    return reg


def _send(mock: MeridianMock, url: str, body: bytes, header: str, event_id: str, kind: str):
    """POST one signed body, trace it as ``POST(out)``; (status or 0, error, ms)."""
    answer = post_json(url, body, mock.timing.delivery_timeout, {SIGNATURE_HEADER: header})
    status, problem, ms = answer.status, answer.error, answer.ms
    line = mock.trace.begin("POST(out)", url, {}, {})
    line.update(status=status, webhook_delivery=event_id, kind=kind)
    mock.trace.write(line | {"delivery_status": status, "delivery_error": problem, "ms": ms})
    return status, problem, ms


def deliver_update(mock: MeridianMock, payment_id: str, changes: dict, event_id: str) -> dict:
    """Change one vendor row (its version bumped) and POST its genuine ``payment.updated``.

    For probes beside the script (the hostile counterparty name): the vendor's truth moves
    with the event, so a later sync agrees with what the receiver applied.
    """
    with mock.store.lock:
        reg = _registration(mock)
        row = mock.store.rows[payment_id]
        row.update(changes, version=row["version"] + 1)
        data = {k: v for k, v in row.items() if not k.startswith("_")}
        mock.store.generation += 1
    body = event_body(event_id, data)
    status, problem, ms = _send(
        mock, reg.url, body, sign(reg.secret, int(time.time()), body), event_id, "update"
    )
    return {"event_id": event_id, "payment_id": payment_id, "status": status, "error": problem,
            "ms": ms, "data": data}  # fmt: skip


def run_script(mock: MeridianMock) -> dict:
    """Mutate the vendor rows as scripted, POST the deliveries, return results and expectations."""
    store = mock.store
    with store.lock:
        reg = _registration(mock)
        events = script.plan(store.rows)
        expected_rows = {
            pid: {"version": store.rows[pid]["version"], "note": store.rows[pid]["note"]}
            for pid in script.touched(events)
        }
    sent: dict[str, tuple[bytes, str]] = {}
    results = []
    for event in events:
        if event.kind == script.DUPLICATE:
            body, header = sent[event.event_id]
        else:
            body = event.raw or event_body(event.event_id, event.data)
            secret = FORGED_SECRET if event.kind == script.FORGED else reg.secret
            header = sign(secret, int(time.time()), body)
            sent[event.event_id] = (body, header)
        status, problem, ms = _send(mock, reg.url, body, header, event.event_id, event.kind)
        result = {"event_id": event.event_id, "kind": event.kind, "status": status}
        result |= {"payment_id": event.payment_id, "duty": event.duty}
        results.append(result | {"error": problem, "ms": ms})
    with store.lock:
        store.generation += 1
    return {
        "delivered": len(events),
        "results": results,
        "expected_counters": script.expected_counters(events),
        "expected_rows": expected_rows,
    }
