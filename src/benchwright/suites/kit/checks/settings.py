"""The calibration-owned numbers a suite's timing rows grade against: a latency ladder per
row (the suite's defaults, each overridden by the scorer's thresholds file where it names
one) and ``k_P``, which tightens every top rung."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from benchwright.scoring import Rung
from benchwright.suites.kit.checks.results import scorer_ladders


@dataclass(frozen=True)
class LadderSettings:
    """A suite's check settings subclass this and name its ``DEFAULTS``."""

    DEFAULTS: ClassVar[Mapping[str, tuple[Rung, ...]]] = {}
    """Row -> its methodology rungs (ms), top first."""

    ladders: Mapping[str, tuple[Rung, ...]] = field(default_factory=dict)
    """Row -> its rungs; empty means the suite's `DEFAULTS`."""
    k_p: float = 1.0

    def __post_init__(self) -> None:
        if not self.ladders:
            object.__setattr__(self, "ladders", dict(self.DEFAULTS))

    @classmethod
    def from_scorer(cls, scorer: Any) -> Self:
        """The defaults overridden by ``scorer``'s thresholds, and its ``k_P``."""
        return cls(ladders=scorer_ladders(scorer, cls.DEFAULTS), k_p=scorer.k_p)
