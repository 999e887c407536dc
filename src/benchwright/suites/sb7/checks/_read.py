"""Readers several sb-7 tiers share: the seeded kills, the vendor creates of one approved
draft, and the masked rows after the lying 304."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from benchwright.suites.kit.checks import is_int
from benchwright.suites.sb7.checks._common import phase
from benchwright.suites.sb7.observations import (
    PARTITION,
    RESYNC,
    WORKFLOW,
    CreateRecord,
    KillRecord,
    MaskedMutation,
    Observations,
    SpotRead,
)


def ledger_kills(obs: Observations) -> list[KillRecord]:
    """Every seeded SIGKILL of ledgerd the schedule recorded (B3, B6, A1, A2)."""
    res, part, flow = phase(obs, RESYNC), phase(obs, PARTITION), phase(obs, WORKFLOW)
    kills = [getattr(res, "b3_kill", None), getattr(part, "b6_kill", None),
             getattr(part, "a1_kill", None), getattr(flow, "a2_kill", None)]  # fmt: skip
    return [k for k in kills if k is not None]


def sends_for(creates: Sequence[CreateRecord], payload: Mapping[str, Any]) -> list[CreateRecord]:
    """The creates of the approved draft: its amount in its currency (what the vendor
    counts a doubled payment by; a create that failed still carries them)."""
    want = (payload.get("amount_minor"), payload.get("currency"))
    return [c for c in creates if (c.amount_minor, c.currency) == want]


def stale_masked(masked: Sequence[MaskedMutation], after: Sequence[SpotRead]) -> list[str]:
    """The masked mutations the app's rows do not reflect after B5 (its version below the
    masked one, or another status)."""
    rows = {s.payment_id: s.row for s in after if isinstance(s.row, dict)}
    stale = []
    for m in masked:
        row = rows.get(m.payment_id) or {}
        version = row.get("version")
        if not (is_int(version) and version >= m.version and row.get("status") == m.status):
            stale.append(m.payment_id)
    return stale
