"""What a grading's phases saw: one observation per phase, kept in one frozen record.

Phases append to the record (`PhaseLog.with_phase`); checks read it and never do I/O. An
app that misbehaved is *in* the observations; a harness fault is recorded in ``failed``
and an app that never became healthy in ``app_down``, so checks can tell them apart. A
suite's record subclasses it with the truth its checks judge against (its fixture's).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Self


@dataclass(frozen=True, kw_only=True)
class PhaseLog:
    phases: Mapping[str, Any] = field(default_factory=dict)
    """Phase -> what it observed."""
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

    def with_phase(self, name: str, observation: Any) -> Self:
        return replace(self, phases={**self.phases, name: observation})

    def with_failure(self, name: str, why: str) -> Self:
        return replace(self, failed={**self.failed, name: why})

    def with_app_down(self, name: str, why: str) -> Self:
        return replace(self, app_down={**self.app_down, name: why})
