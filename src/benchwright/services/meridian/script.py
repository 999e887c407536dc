"""The 8-step webhook delivery script as data, and its effect on the vendor's rows.

Four genuine applies, one mutation never announced, one stale snapshot sent late,
one byte-identical duplicate and one forged event. `plan` mutates the rows it is
given (the vendor's truth) and returns the events to send, so the same code
drives the live delivery and the derivation of the expected end state.
"""

from __future__ import annotations

from dataclasses import dataclass

APPLY, MUTATE, STALE, DUPLICATE, FORGED = "apply", "mutate", "stale", "duplicate", "forged"


@dataclass(frozen=True)
class Step:
    kind: str
    payment_id: str = ""
    note: str = ""
    of_event: str = ""


STEPS = (
    Step(APPLY, "pay_0010", "wh-a-1"),
    Step(MUTATE, "pay_0020", "wh-b-1"),
    Step(APPLY, "pay_0020", "wh-b-2"),
    Step(STALE, "pay_0020"),
    Step(DUPLICATE, of_event="evt_0001"),
    Step(FORGED, "pay_0030", "wh-c-x"),
    Step(APPLY, "pay_0010", "wh-a-2"),
    Step(APPLY, "pay_0040", "wh-d-1"),
)


@dataclass(frozen=True)
class Event:
    """One delivery: ``data`` is the payment snapshot the event carries."""

    event_id: str
    kind: str
    payment_id: str
    data: dict


def _public(row: dict) -> dict:
    return {k: v for k, v in row.items() if not k.startswith("_")}


def plan(rows: dict[str, dict]) -> list[Event]:
    """Apply the script to ``rows`` (id -> row) and return the deliveries, in order."""
    events: list[Event] = []
    snapshots: dict[str, dict] = {}
    number = 0
    for step in STEPS:
        if step.kind == DUPLICATE:
            original = next(e for e in events if e.event_id == step.of_event)
            events.append(Event(original.event_id, DUPLICATE, original.payment_id, original.data))
            continue
        row = rows[step.payment_id]
        if step.kind in (APPLY, MUTATE):
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
        events.append(Event(f"evt_{number:04d}", step.kind, step.payment_id, data))
    return events


def expected_counters(events: list[Event]) -> dict[str, int]:
    """The receiver's ledger after a correct handling of ``events``."""
    kinds = [e.kind for e in events]
    return {
        "received": len(events),
        "applied": kinds.count(APPLY),
        "ignored": kinds.count(STALE) + kinds.count(DUPLICATE),
        "rejected": kinds.count(FORGED),
    }


def touched(events: list[Event]) -> list[str]:
    """Every payment the script names, forged ones included."""
    return sorted({e.payment_id for e in events})
