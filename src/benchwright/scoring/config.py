"""The scorer config schema: every way of turning check rows into a number, as data.

One YAML file per scorer (``scorers/sb6.yaml``). Models forbid unknown keys so
that a typo is an error naming the field, never a silently ignored setting.
Cross-field rules (weights summing to 1.0, names that must exist) live in
`benchwright.scoring.invariants`, which reports them with field paths too.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from benchwright.model import StrictInput

GAMMA_CAP = 4.0
"""score**gamma flattens everything above ~0.8 past this; the seeds hard-cap it."""

Policy = Literal["fixed-denominator", "measured-mean"]
Transform = Literal["linear", "cliff", "data_loss", "presence"]
DefectClass = Literal["wrong-money", "data-loss", "dead-flow", "console-error", "minor", "cosmetic"]
DEFECT_ORDER: tuple[DefectClass, ...] = (
    "wrong-money",
    "data-loss",
    "dead-flow",
    "console-error",
    "minor",
    "cosmetic",
)
"""Worst first: a scorer must price single defects strictly in this order."""


class _Strict(StrictInput):
    model_config = ConfigDict(frozen=True)


class CheckEntry(_Strict):
    """Per-check facts a scorer needs beyond tier membership."""

    weight: float = Field(1.0, ge=0)
    """Weight inside the tier mean (ACE: 1, 2, 3, 4 or 5 points)."""
    category: str | None = None
    """Reporting category under the fixed-denominator policy (ACE: structure, build...)."""
    description: str = ""


class TierConfig(_Strict):
    """A group of checks averaged into one mean."""

    checks: list[str] = Field(min_length=1)
    weight: float | None = Field(None, ge=0, le=1)
    """Weight inside its component; the excellence tier carries none (see excellence.weight)."""
    gamma: Literal["core", "hard"] | float = "core"
    """Exponent applied to every score: a thresholds name or a number in (0, 4]."""
    shared: bool = False
    """Members are drawn from other tiers (sb-5.2's hard blocks), not owned here."""

    @model_validator(mode="after")
    def _gamma_in_range(self) -> TierConfig:
        if isinstance(self.gamma, float) and not 0 < self.gamma <= GAMMA_CAP:
            raise ValueError(f"gamma must be in (0, {GAMMA_CAP}] (hard cap), got {self.gamma}")
        return self


class ComponentConfig(_Strict):
    """Tiers whose weighted means make one component of the total."""

    weight: float = Field(ge=0, le=1)
    tiers: list[str] = Field(min_length=1)


class ConditionConfig(_Strict):
    """One named excellence condition: a check compared to a value, or special evidence."""

    check: str | None = None
    op: Literal["==", ">="] = "=="
    value: float = Field(1.0, gt=0, le=1)
    special: str | None = None
    """A condition proven by its own evidence row (``console_clean``: 1.0 or 0.0)."""
    scenarios: list[str] = Field(default_factory=list)
    """For a special condition: the scenarios its evidence must cover (printed)."""

    @model_validator(mode="after")
    def _one_subject(self) -> ConditionConfig:
        if (self.check is None) == (self.special is None):
            raise ValueError("give exactly one of 'check' or 'special'")
        if self.op == "==" and self.value != 1.0:
            # "== 0.5" would un-meet when the score rises: a gate must be monotone.
            raise ValueError("'==' is for perfection (value 1.0); use '>=' for a lower bar")
        return self

    @property
    def name(self) -> str:
        return self.special or f"{self.check} {self.op} {self.value:g}"

    @property
    def row_id(self) -> str:
        return self.check or self.special or ""


class ExcellenceConfig(_Strict):
    """The excellence slice: weight x gate_fraction x mean of the excellence tier."""

    weight: float = Field(ge=0, le=1)
    tier: str
    gate: Literal["count_perfect", "mean_share"]
    """sb-6 counts conditions fully met; sb-7 averages each condition's unlocked share."""
    conditions: list[ConditionConfig] = Field(min_length=1)


class CriticalEntry(_Strict):
    """A check whose shortfall multiplies the whole score down."""

    check: str
    consequence: str
    """crash, data-loss, wrong-money or dead-flow: what a failure of this check means."""
    transform: Transform = "linear"
    """How the check score becomes severity: as is, a cliff to 0, a data-loss cap,
    or presence (0 stays 0, anything else is 1)."""
    below: float = Field(1.0, gt=0, le=1)
    """For ``cliff``: scores below this have severity 0."""
    cap: float = Field(0.5, ge=0, lt=1)
    """For ``data_loss``: any shortfall caps severity here."""
    leg: bool = False
    """The severity input is the row's ``severity_leg`` (a fraction its check measured)
    instead of its score: the fraction that prices the consequence (b_buckets_dst: the
    DST-window cells, while the score prices every cell through the tier; r_no_row_loss:
    the rows kept, while the row is a binary cliff). A row without one feeds its score: an
    absent surface scores 0 with no fraction to show, and its severity input is 0."""


class CriticalsConfig(_Strict):
    m: float = Field(0.6, ge=0, le=1)
    """Floor of one factor; a thresholds file's ``m`` overrides it (calibration-owned)."""
    dedupe_by_root: bool = False
    """sb-7: a critical root that already multiplied suppresses its dependents' factors."""
    checks: list[CriticalEntry] = Field(min_length=1)


class ConstraintConfig(_Strict):
    """An asserted invariant over weights, e.g. T + HARD >= 0.34."""

    sum: list[str] = Field(min_length=1)
    min: float | None = None
    max: float | None = None
    equals: float | None = None


class ThresholdsRef(_Strict):
    file: str
    """Relative to the scorer config."""
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    """The pin: a calibrated file must hash to exactly this."""


class ScorerConfig(_Strict):
    """A whole scorer: policy, tiers, components, excellence, criticals, roots."""

    scorer: str = Field(min_length=1)
    version: str = Field(min_length=1)
    policy: Policy
    description: str = ""
    publish_digits: int = Field(4, ge=1, le=12)
    excellent_at: float = Field(0.90, gt=0, le=1)
    checks: dict[str, CheckEntry] = Field(default_factory=dict)
    tiers: dict[str, TierConfig] = Field(min_length=1)
    components: dict[str, ComponentConfig] = Field(min_length=1)
    diagnostics: list[str] = Field(default_factory=list)
    """Computed and printed, excluded from every mean."""
    excellence: ExcellenceConfig | None = None
    criticals: CriticalsConfig | None = None
    roots: dict[str, list[str]] = Field(default_factory=dict)
    """Root check -> dependent checks: verdict attribution, never a score change."""
    constraints: list[ConstraintConfig] = Field(default_factory=list)
    calibration_owned: list[str] = Field(default_factory=list)
    """Checks whose cut points come from the reference: exempt from the freeze sweep."""
    thresholds: ThresholdsRef | None = None
    ladder: str | None = None
    """A ladder file (relative) restricting the wanted checks to one rung."""
    functional_categories: list[str] = Field(default_factory=list)
    selftest: dict[DefectClass, dict[str, float]] = Field(default_factory=dict)
    """Defect class -> {check: score} applied to a perfect run."""
