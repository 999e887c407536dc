"""The webhook delivery script as data, and its effect on the vendor's rows.

Seven genuine applies (two of them with bodies no serialiser re-creates), one
mutation never announced, a stale snapshot sent late, a byte-identical duplicate,
a repeated event id carrying a *newer* version, an out-of-order pair and a forged
event. Each step names the spec duty (suites/vspro/spec.md §8) a receiver shows by
handling it, so a check can say which duty a wrong ledger broke. `plan` mutates the
rows it is given (the vendor's truth) and returns the events to send, so the same
code drives the live delivery and the derivation of the expected end state.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

APPLY, MUTATE, STALE, DUPLICATE, FORGED = "apply", "mutate", "stale", "duplicate", "forged"
REPEAT, HOLD, LATE, RAW = "repeat-newer", "hold", "late", "apply-raw"
OUTCOMES = {APPLY: "applied", RAW: "applied", STALE: "ignored", DUPLICATE: "ignored",
            REPEAT: "ignored", LATE: "ignored", FORGED: "rejected"}  # fmt: skip
"""What a correct receiver counts for each delivered kind (MUTATE and HOLD send nothing)."""

DUTIES = {
    APPLY: "§8.4 a verified newer event replaces the row",
    RAW: "§8.3 verify the signature over the raw body bytes (this body is not what a "
    "JSON serialiser writes: keys reordered, uneven spacing, escaped and raw non-ASCII)",
    STALE: "§8.4 stale: a version not newer than the one held is ignored",
    DUPLICATE: "§8.4 duplicate: an event id seen before is ignored",
    REPEAT: "§8.4 duplicate: an event id seen before is ignored even when it carries a "
    "newer data.version",
    LATE: "§8.4 stale: an older version delivered after a newer one (out of order) is ignored",
    FORGED: "§8.3 a wrong signature is answered 401 and changes nothing",
}


HOSTILE_FLAG = "__bwx"
HOSTILE_NAME = f"<img src onerror={HOSTILE_FLAG}=1>"
"""A counterparty name that is markup: rendered with ``innerHTML`` its empty ``src`` fails
at once (no request, so no console error) and the handler sets ``window.__bwx``; rendered
as text it is just shown. Short words, so it cannot widen a phone-width table."""
HOSTILE_PAYMENT, HOSTILE_EVENT = "pay_0005", "evt_9001"
"""A first-page row no other probe writes, and an event id the script never uses."""


@dataclass(frozen=True)
class Step:
    kind: str
    payment_id: str = ""
    note: str = ""
    of_event: str = ""
    """DUPLICATE/REPEAT: the event id sent again; LATE: the held event now delivered."""
    wire: str = ""
    """RAW: which hand-written body (`raw_body`)."""


STEPS = (
    Step(APPLY, "pay_0010", "wh-a-1"),
    Step(MUTATE, "pay_0020", "wh-b-1"),
    Step(APPLY, "pay_0020", "wh-b-2"),
    Step(STALE, "pay_0020"),
    Step(DUPLICATE, of_event="evt_0001"),
    Step(FORGED, "pay_0030", "wh-c-x"),
    Step(APPLY, "pay_0010", "wh-a-2"),
    Step(APPLY, "pay_0040", "wh-d-1"),
    Step(REPEAT, "pay_0040", "wh-d-x", of_event="evt_0006"),
    Step(HOLD, "pay_0050", "wh-e-1"),
    Step(APPLY, "pay_0050", "wh-e-2"),
    Step(LATE, of_event="evt_0007"),
    Step(RAW, "pay_0060", "wh-f-1", wire="reordered"),
    Step(RAW, "pay_0070", "wh-g-1 \u00fcber Z\u00fcrich, \u00e9t\u00e9", wire="escaped"),
)


@dataclass(frozen=True)
class Event:
    """One delivery: ``data`` is the payment snapshot the event carries."""

    event_id: str
    kind: str
    payment_id: str
    data: dict
    raw: bytes | None = None
    """The exact body to send when it is not the default serialisation (RAW steps)."""

    @property
    def duty(self) -> str:
        return DUTIES[self.kind]


def _public(row: dict) -> dict:
    return {k: v for k, v in row.items() if not k.startswith("_")}


def plan(rows: dict[str, dict]) -> list[Event]:
    """Apply the script to ``rows`` (id -> row) and return the deliveries, in order."""
    events: list[Event] = []
    held: dict[str, Event] = {}
    snapshots: dict[str, dict] = {}
    number = 0
    for step in STEPS:
        if step.kind == DUPLICATE:
            original = next(e for e in events if e.event_id == step.of_event)
            events.append(Event(original.event_id, DUPLICATE, original.payment_id, original.data))
            continue
        if step.kind == LATE:
            events.append(held.pop(step.of_event))
            continue
        row = rows[step.payment_id]
        if step.kind == REPEAT:
            # the vendor's row does not move: only the resent event claims a newer version
            data = {**_public(row), "version": row["version"] + 1, "note": step.note}
            events.append(Event(step.of_event, REPEAT, step.payment_id, data))
            continue
        if step.kind in (APPLY, MUTATE, HOLD, RAW):
            row["version"] += 1
            row["note"] = step.note
            snapshots[step.payment_id] = _public(row)
            if step.kind == MUTATE:
                continue
            data = snapshots[step.payment_id]
        elif step.kind == STALE:
            data = snapshots[step.payment_id]
        else:
            data = {**_public(row), "version": row["version"] + 1, "note": step.note}
        number += 1
        event_id = f"evt_{number:04d}"
        if step.kind == HOLD:
            held[event_id] = Event(event_id, LATE, step.payment_id, data)
            continue
        raw = raw_body(step.wire, event_id, data) if step.kind == RAW else None
        events.append(Event(event_id, step.kind, step.payment_id, data, raw))
    return events


def raw_body(wire: str, event_id: str, data: dict) -> bytes:
    """A genuine event body whose bytes differ from any re-serialisation of its JSON.

    ``reordered``: ``type`` first, the payment's keys reversed, no space after ``:``,
    an uneven space before one key. ``escaped``: pretty-printed on lines, with the
    note's first non-ASCII letter written as a ``\\uXXXX`` escape and the others as raw
    UTF-8 (Python's default escapes them all, JavaScript's writes them all raw).
    """
    created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    if wire == "reordered":
        payment = ",".join(
            f"{json.dumps(k)}:{json.dumps(v)}" for k, v in reversed(list(data.items()))
        )
        text = (
            f'{{"type":"payment.updated","id":{json.dumps(event_id)},  '
            f'"created_at":"{created}","data":{{{payment}}}}}'
        )
        return text.encode()
    if wire == "escaped":
        document = {"id": event_id, "type": "payment.updated", "created_at": created, "data": data}
        text = json.dumps(document, ensure_ascii=False, indent=1)
        first = next(c for c in data["note"] if ord(c) > 127)
        return text.replace(first, f"\\u{ord(first):04x}", 1).encode()
    raise ValueError(f"unknown raw body {wire!r} (known: reordered, escaped)")


def expected_counters(events: list[Event]) -> dict[str, int]:
    """The receiver's ledger after a correct handling of ``events``."""
    outcomes = [OUTCOMES[e.kind] for e in events]
    return {
        "received": len(events),
        "applied": outcomes.count("applied"),
        "ignored": outcomes.count("ignored"),
        "rejected": outcomes.count("rejected"),
    }


def touched(events: list[Event]) -> list[str]:
    """Every payment the script names, forged ones included."""
    return sorted({e.payment_id for e in events})
