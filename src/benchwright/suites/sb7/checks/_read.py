"""Readers several sb-7 tiers share: the seeded kills, the vendor creates of one approved
draft, and the masked rows after the lying 304."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from benchwright.services.meridian_v3 import CreateAttempt
from benchwright.suites.kit.checks import is_int
from benchwright.suites.sb7.checks._common import phase
from benchwright.suites.sb7.observations import (
    PARTITION,
    RESYNC,
    WORKFLOW,
    KillRecord,
    Observations,
    SpotRead,
)


def ledger_kills(obs: Observations) -> list[KillRecord]:
    """Every seeded SIGKILL of ledgerd the schedule recorded (B3, B6, A1, A2)."""
    res, part, flow = phase(obs, RESYNC), phase(obs, PARTITION), phase(obs, WORKFLOW)
    kills = [getattr(res, "b3_kill", None), getattr(part, "b6_kill", None),
             getattr(part, "a1_kill", None), getattr(flow, "a2_kill", None)]  # fmt: skip
    return [k for k in kills if k is not None]


def sends_for(creates: Sequence[CreateAttempt], payload: Mapping[str, Any]) -> list[CreateAttempt]:
    """The creates of the approved draft: its amount in its currency (what the vendor's
    ``created_per_amount`` counts a doubled payment by)."""
    want = (payload.get("amount_minor"), payload.get("currency"))
    return [c for c in creates if (c.amount_minor, c.currency) == want]


def stale_masked(masked: Sequence[tuple[str, int]], after: Sequence[SpotRead]) -> list[str]:
    """The payments committed silently behind the lying 304 whose row the app serves at
    an older version afterwards (stale served as fresh)."""
    rows = {s.payment_id: s.row for s in after if isinstance(s.row, dict)}
    stale = []
    for payment_id, version in masked:
        served = (rows.get(payment_id) or {}).get("version")
        if not (is_int(served) and served >= version):
            stale.append(payment_id)
    return stale
