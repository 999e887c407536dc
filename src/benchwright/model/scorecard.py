"""The scorecard: how check results became one number, kept row by row for audit.

Plain frozen data. `benchwright.scoring.compose` builds it; reports render it.
Every figure a verdict prints is here, so a reader can redo the arithmetic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType

from benchwright.model.status import Status

SCORECARD_SCHEMA_VERSION = "1"
"""Bumped whenever a field of the scorecard JSON changes meaning or disappears."""


@dataclass(frozen=True, slots=True)
class ScoredRow:
    """One wanted check as the scorer's policy counted it."""

    check_id: str
    status: Status
    score: float
    """As reported by the check (0.0 for a missing row)."""
    counted: float | None
    """What the policy counts; None when the row left its mean (measured-mean harness fault)."""
    tier: str | None
    role: str
    """``weighted`` (in a tier mean), ``diagnostic`` (printed only) or ``evidence``
    (a special excellence condition's proof)."""
    weight: float = 1.0
    detail: str = ""
    missing: bool = False
    """True when no row arrived: counted as FAIL, never skipped."""
    severity_leg: float | None = None
    """The fraction a critical's severity reads instead of the score, when the check
    measured one (its ``severity_leg`` evidence, in [0, 1]): kept on the card so the card
    composes to its own score again."""


@dataclass(frozen=True, slots=True)
class TierMean:
    """A tier's mean of gamma-transformed, weight-carrying counted scores."""

    name: str
    weight: float
    gamma: float
    mean: float | None
    """None when nothing in the tier was measured (it then contributes 0)."""
    measured: int
    excluded: tuple[str, ...] = ()
    """Rows that left the mean (harness faults under measured-mean)."""


@dataclass(frozen=True, slots=True)
class ComponentValue:
    """A weighted group of tiers (sb-5.2's core = A/B/C/D; sb-6's inner = nine tiers)."""

    name: str
    weight: float
    value: float


@dataclass(frozen=True, slots=True)
class ConditionResult:
    """One named excellence condition and the share of the gate it unlocked."""

    name: str
    share: float
    met: bool
    detail: str
    excluded: bool = False
    """Left out of the gate: its row is a timing measurement a contended host left
    unproven, which licenses nothing in either direction (the gate is over the rest)."""


@dataclass(frozen=True, slots=True)
class ExcellenceResult:
    """The excellence slice: weight x gate_fraction x e_mean."""

    tier: str
    """The excellence tier whose mean is e_mean (it sits outside every component)."""
    weight: float
    gate_mode: str
    gate_fraction: float
    e_mean: float
    slice: float
    conditions: tuple[ConditionResult, ...] = ()


@dataclass(frozen=True, slots=True)
class CriticalFactor:
    """One critical check's multiplier ``m + (1 - m) * severity``."""

    check_id: str
    defect_class: str
    score: float | None
    """The counted score; None when the row was unmeasured (no multiplier)."""
    severity: float
    factor: float
    suppressed_by: str | None = None
    """The critical root whose multiplier already priced this defect."""

    @property
    def applied(self) -> bool:
        """True when this factor actually multiplied the score down."""
        return self.factor < 1.0 and self.suppressed_by is None


@dataclass(frozen=True, slots=True)
class Attribution:
    """A root defect and the dependents that fell short with it (verdict text only)."""

    root: str
    root_score: float
    dependents: tuple[str, ...]

    def line(self) -> str:
        n = len(self.dependents) + 1
        return (
            f"ROOT {self.root} ({self.root_score:.4f}) explains "
            f"{', '.join(self.dependents)} - ONE defect, not {n}"
        )


@dataclass(frozen=True, slots=True)
class CategoryTally:
    """Fixed-denominator bookkeeping for one category (ACE: structure, build, ...)."""

    name: str
    passed: int
    failed: int
    unscored: int
    weight: float
    points: float


@dataclass(frozen=True, slots=True)
class PointsSummary:
    """Points against the fixed denominator (the fixed-denominator policy only)."""

    points: float
    denominator: float
    """Weight of the rows that could be scored."""
    full_denominator: float
    """Weight of every wanted check (ACE's rung denominator)."""
    functional_points: float = 0.0
    functional_denominator: float = 0.0
    functional_full_denominator: float = 0.0
    categories: tuple[CategoryTally, ...] = ()


@dataclass(frozen=True, slots=True)
class Flags:
    excellent: bool
    """Score at or above the scorer's bar and no unmeasured row."""
    partial: bool
    """Some wanted row was SKIPPED, INFRA or UNAVAILABLE: the number covers less than asked."""
    uncalibrated: bool
    """The thresholds file is not a frozen calibration fit (version carries ``-rc``)."""


@dataclass(frozen=True, slots=True)
class Scorecard:
    """Everything `compose` decided, in the order a verdict prints it."""

    scorer: str
    scorer_version: str
    policy: str
    rows: tuple[ScoredRow, ...]
    tiers: tuple[TierMean, ...]
    components: tuple[ComponentValue, ...]
    excellence: ExcellenceResult | None
    composed: float
    """The score before critical multipliers."""
    factors: tuple[CriticalFactor, ...]
    attribution: tuple[Attribution, ...]
    score: float
    flags: Flags
    unavailable: tuple[str, ...] = ()
    """Rows a harness fault kept from being measured, listed loudly."""
    banner: str | None = None
    points: PointsSummary | None = None
    provenance: Mapping[str, str] = field(default_factory=dict)
    schema_version: str = SCORECARD_SCHEMA_VERSION

    def __post_init__(self) -> None:
        object.__setattr__(self, "provenance", MappingProxyType(dict(self.provenance)))

    def __reduce__(self) -> tuple[type[Scorecard], tuple[object, ...]]:
        """Pickle through the constructor (a pool worker hands its card to the driver): a
        mapping proxy cannot be pickled, the dict under it can."""
        values = [getattr(self, f.name) for f in fields(self)]
        return type(self), tuple(dict(v) if v is self.provenance else v for v in values)

    def row(self, check_id: str) -> ScoredRow:
        for row in self.rows:
            if row.check_id == check_id:
                return row
        raise KeyError(check_id)

    def tier(self, name: str) -> TierMean:
        for tier in self.tiers:
            if tier.name == name:
                return tier
        raise KeyError(name)
