"""What the vspro phases saw: the kit's record (`kit.record.PhaseLog`) with the
Meridian fixture's truth, and the observation types of vspro's phases.

An app that misbehaved is *in* the observations (a refused request is a `JsonRead` with
status None).
"""

from __future__ import annotations

from dataclasses import dataclass

from benchwright.services.meridian import Expectations
from benchwright.suites.kit.kinds import BootObs, RestartObs, TraceObs
from benchwright.suites.kit.record import PhaseLog
from benchwright.suites.kit.wire import body, health_json, rows_of
from benchwright.suites.vspro.phase_obs import (
    BatchObs,
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
    StaticObs,
    SyncObs,
    TrapsObs,
    ValidationObs,
    WebhookObs,
)


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
