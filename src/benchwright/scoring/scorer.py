"""A resolved scorer: the validated config, its pinned thresholds and an optional rung.

`compose` reads everything it needs from here, so it never touches a file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from benchwright.scoring.config import ScorerConfig
from benchwright.scoring.invariants import wanted_checks
from benchwright.scoring.rungs import Rung
from benchwright.scoring.thresholds import PinnedThresholds

DEFAULT_M = 0.6


@dataclass(frozen=True)
class Scorer:
    """Everything a composition needs, already validated."""

    config: ScorerConfig
    source: str = ""
    """The config file, for messages and provenance."""
    thresholds: PinnedThresholds | None = None
    rung: str | None = None
    rung_checks: tuple[str, ...] | None = field(default=None, repr=False)
    """When a rung is chosen: the only checks wanted."""

    @property
    def name(self) -> str:
        return self.config.scorer

    @property
    def uncalibrated(self) -> bool:
        """True when a thresholds file is in use and does not claim a frozen calibration."""
        return self.thresholds is not None and not self.thresholds.values.calibrated

    @property
    def version(self) -> str:
        """The config's version, with ``-rc`` while its thresholds are uncalibrated."""
        return self.config.version + ("-rc" if self.uncalibrated else "")

    @cached_property
    def wanted(self) -> tuple[str, ...]:
        every = wanted_checks(self.config)
        if self.rung_checks is None:
            return tuple(every)
        chosen = set(self.rung_checks)
        return tuple(c for c in every if c in chosen)

    @cached_property
    def _wanted_set(self) -> frozenset[str]:
        return frozenset(self.wanted)

    def members(self, tier: str) -> tuple[str, ...]:
        """The tier's wanted checks (a rung may leave a tier empty)."""
        return tuple(c for c in self.config.tiers[tier].checks if c in self._wanted_set)

    @cached_property
    def tier_of(self) -> dict[str, str]:
        """Owning (non-shared) tier of each check."""
        return {
            check: name
            for name, tier in self.config.tiers.items()
            if not tier.shared
            for check in tier.checks
        }

    def weight(self, check: str) -> float:
        entry = self.config.checks.get(check)
        return entry.weight if entry else 1.0

    def gamma(self, tier: str) -> float:
        gamma = self.config.tiers[tier].gamma
        if isinstance(gamma, float):
            return gamma
        values = self.thresholds.values if self.thresholds else None
        if values is None:
            return 1.0
        return values.gamma_hard if gamma == "hard" else values.gamma_core

    @property
    def m(self) -> float:
        if self.thresholds and self.thresholds.values.m is not None:
            return self.thresholds.values.m
        return self.config.criticals.m if self.config.criticals else DEFAULT_M

    @property
    def k_p(self) -> float:
        return self.thresholds.values.k_P if self.thresholds else 1.0

    @property
    def host_bound(self) -> Mapping[str, float]:
        """Rows whose top rung the calibration host could not reach (`ThresholdsFile`)."""
        return dict(self.thresholds.values.host_bound) if self.thresholds else {}

    def rungs(self, name: str) -> tuple[Rung, ...]:
        """A latency ladder from the thresholds file, for `ladder_score(value, rungs, k_p)`.

        Raises:
            KeyError: no such ladder; the message lists the known ones.
        """
        ladder = _named("ladder", self.thresholds.values.ladders if self.thresholds else {}, name)
        return tuple(Rung(r.at_most, r.score) for r in ladder)

    def floors(self, name: str) -> tuple[int, ...]:
        """Count floors (higher is better, top first) from the thresholds file.

        Raises:
            KeyError: no such floors; the message lists the known ones.
        """
        return tuple(_named("floors", self.thresholds.values.floors if self.thresholds else {},
                            name))  # fmt: skip


def _named(kind: str, table: Mapping[str, Any], name: str) -> Any:
    """``table[name]``, or a KeyError that lists the known names."""
    if name not in table:
        raise KeyError(f"no {kind} '{name}' (known: {', '.join(sorted(table)) or 'none'})")
    return table[name]
