"""What the vspro phases saw: one frozen observation per phase, kept in one record.

Phases append to the record (`Observations.with_phase`); checks read it and never
do I/O. An app that misbehaved is *in* the observations (a refused request is a
`JsonRead` with status None); a harness fault is recorded in ``failed`` and an
app that never became healthy in ``app_down``, so checks can tell them apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from benchwright.probes.http import JsonRead, parse_wire_json
from benchwright.services.app import BootObservation
from benchwright.services.meridian import Expectations
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
class Observations:
    """The whole grading's evidence: fixture truth plus one entry per phase that ran."""

    seed: int
    expect: Expectations
    fixture_ids: frozenset[str]
    phases: Mapping[str, Any] = field(default_factory=dict)
    failed: Mapping[str, str] = field(default_factory=dict)
    """Phase -> the harness fault that stopped it."""
    app_down: Mapping[str, str] = field(default_factory=dict)
    """Phase -> why it did not run against the app (it never became healthy)."""

    def __post_init__(self) -> None:
        for name in ("phases", "failed", "app_down"):
            object.__setattr__(self, name, MappingProxyType(dict(getattr(self, name))))

    def __getitem__(self, phase: str) -> Any:
        return self.phases[phase]

    def has(self, phase: str) -> bool:
        return phase in self.phases

    def with_phase(self, name: str, observation: Any) -> Observations:
        return replace(self, phases={**self.phases, name: observation})

    def with_failure(self, name: str, why: str) -> Observations:
        return replace(self, failed={**self.failed, name: why})

    def with_app_down(self, name: str, why: str) -> Observations:
        return replace(self, app_down={**self.app_down, name: why})


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
