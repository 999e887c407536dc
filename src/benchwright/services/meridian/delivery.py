"""Run the webhook script against the registered URL and report each delivery."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from benchwright.errors import HarnessError
from benchwright.services.meridian import script
from benchwright.services.meridian._outbound import post_json
from benchwright.services.meridian.config import FORGED_SECRET
from benchwright.services.meridian.webhooks import SIGNATURE_HEADER, event_body, sign

if TYPE_CHECKING:
    from benchwright.services.meridian.control import MeridianMock


class NoWebhookRegistered(HarnessError):
    """The delivery script needs a registered webhook; nothing has registered one."""


def run_script(mock: MeridianMock) -> dict:
    """Mutate the vendor rows as scripted, POST the deliveries, return results and expectations."""
    store = mock.store
    with store.lock:
        reg = store.webhook
        if reg is None:
            raise NoWebhookRegistered("no webhook is registered with the Meridian mock")
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
        answer = post_json(reg.url, body, mock.timing.delivery_timeout, {SIGNATURE_HEADER: header})
        status, problem, ms = answer.status, answer.error, answer.ms
        result = {"event_id": event.event_id, "kind": event.kind, "status": status}
        result |= {"payment_id": event.payment_id, "duty": event.duty}
        results.append(result | {"error": problem, "ms": ms})
        line = mock.trace.begin("POST(out)", reg.url, {}, {})
        line.update(status=status, webhook_delivery=event.event_id, kind=event.kind)
        mock.trace.write(line | {"delivery_status": status, "delivery_error": problem, "ms": ms})
    with store.lock:
        store.generation += 1
    return {
        "delivered": len(events),
        "results": results,
        "expected_counters": script.expected_counters(events),
        "expected_rows": expected_rows,
    }
