"""What the vspro phases saw: the kit's record (`kit.record.PhaseLog`) with the
Meridian fixture's truth, and the observation types of vspro's phases.

An app that misbehaved is *in* the observations (a refused request is a `JsonRead` with
status None).
"""

from __future__ import annotations

from dataclasses import dataclass

from benchwright.probes.http import JsonRead, parse_wire_json
from benchwright.services.app import BootObservation
from benchwright.services.meridian import Expectations
from benchwright.suites.kit.record import PhaseLog
from benchwright.suites.vspro.phase_obs import (
    BatchObs,
    BootObs,
    ConcurrencyObs,
    ConflictObs,
    HostileObs,
    JsonSampleObs,
    LoadObs,
    MutationObs,
    PageObs,
    PerfObs,
    ReadsObs,
    RegisterAttempt,
    RegisterRetryObs,
    RestartObs,
    StaticObs,
    SyncObs,
    TraceObs,
    TrapsObs,
    ValidationObs,
    WebhookObs,
)


def body(read: JsonRead | None) -> dict | None:
    """The JSON object a read carried, or None (no answer, not JSON, not an object)."""
    if read is None or not read.json.parseable or not isinstance(read.json.value, dict):
        return None
    return read.json.value


def rows_of(read: JsonRead | None) -> list | None:
    """``data`` of a list response when it is a list, else None."""
    found = (body(read) or {}).get("data")
    return found if isinstance(found, list) else None


def health_json(boot: BootObservation) -> dict | None:
    """The health answer a boot saw, as a JSON object (None: none, or not an object)."""
    parsed = parse_wire_json(boot.health_body) if boot.health_body else None
    if parsed is None or not parsed.parseable or not isinstance(parsed.value, dict):
        return None
    return parsed.value


@dataclass(frozen=True)
class Observations(PhaseLog):
    """The whole grading's evidence: fixture truth plus one entry per phase that ran."""

    seed: int
    expect: Expectations
    fixture_ids: frozenset[str]


__all__ = [
    "BatchObs",
    "BootObs",
    "ConcurrencyObs",
    "ConflictObs",
    "HostileObs",
    "JsonSampleObs",
    "LoadObs",
    "MutationObs",
    "Observations",
    "PageObs",
    "PerfObs",
    "ReadsObs",
    "RegisterAttempt",
    "RegisterRetryObs",
    "RestartObs",
    "StaticObs",
    "SyncObs",
    "TraceObs",
    "TrapsObs",
    "ValidationObs",
    "WebhookObs",
    "body",
    "health_json",
    "rows_of",
]
