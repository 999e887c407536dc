"""Drift against a baseline: past the threshold *and* past the noise.

AgentBench calls drift whenever ``|current - baseline| > drift_threshold``, so with
5 tasks a single task flipping (20 points) is drift at any threshold under 0.2.
Here a change is drift only when it is past the threshold and Newcombe's interval
for the difference (`stats.difference_interval`) excludes zero at the config's
``confidence``. A baseline that gives a bare rate (AgentBench's shape) is read as
measured on as many trials as the current rate (its cells ran on the same tasks);
one written by ``matrix --json`` carries its own counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchwright.matrix.config import Baseline, BaselineValue, Counted
from benchwright.matrix.run import MatrixResult
from benchwright.matrix.stats import Rate, difference_interval


@dataclass(frozen=True)
class Comparison:
    """One baseline entry against the current rate."""

    scope: str
    """``overall``, ``model``, ``prompt`` or ``cell``."""
    key: str
    stated: float
    """The baseline's pass rate as written (AgentBench compares against this)."""
    baseline: Rate
    """The baseline as counts, for the interval (see the module docstring)."""
    current: Rate
    threshold: float

    @property
    def delta(self) -> float:
        return self.current.value - self.stated

    @property
    def past_threshold(self) -> bool:
        return abs(self.delta) > self.threshold

    @property
    def interval(self) -> tuple[float, float]:
        return difference_interval(self.current, self.baseline)

    @property
    def significant(self) -> bool:
        low, high = self.interval
        return low > 0 or high < 0

    @property
    def drift(self) -> bool:
        return self.past_threshold and self.significant

    @property
    def verdict(self) -> str:
        """Why this is, or is not, drift, in words."""
        if self.drift:
            return "drift"
        if self.past_threshold:
            return "within noise"
        return "within threshold"


@dataclass(frozen=True)
class DriftReport:
    threshold: float
    comparisons: list[Comparison]
    missing: list[str]
    """Baseline entries the current matrix has no rate for (a renamed model, a dropped cell)."""

    @property
    def drift_detected(self) -> bool:
        return any(c.drift for c in self.comparisons)


def compare(result: MatrixResult, baseline: Baseline, threshold: float) -> DriftReport:
    """Every baseline entry compared with the same scope's current rate."""
    current = {
        "model": result.by("model"),
        "prompt": result.by("prompt"),
        "cell": {cell.key: cell.rate for cell in result.cells},
    }
    wanted: list[tuple[str, str, BaselineValue]] = []
    if baseline.overall_pass_rate is not None:
        wanted.append(("overall", "pass_rate", baseline.overall_pass_rate))
    for scope, entries in (("model", baseline.by_model), ("prompt", baseline.by_prompt),
                           ("cell", baseline.cells)):  # fmt: skip
        wanted.extend((scope, key, value) for key, value in entries.items())
    comparisons, missing = [], []
    for scope, key, value in wanted:
        now = result.overall if scope == "overall" else current[scope].get(key)
        if now is None:
            missing.append(f"{scope} {key}")
            continue
        counts = _as_rate(value, now)
        stated = counts.value if isinstance(value, Counted) else value
        comparisons.append(Comparison(scope, key, stated, counts, now, threshold))
    return DriftReport(threshold, comparisons, missing)


def _as_rate(value: BaselineValue, current: Rate) -> Rate:
    if isinstance(value, Counted):
        return Rate(value.passed, value.total, current.z)
    return Rate(round(value * current.total), current.total, current.z)


def baseline_of(result: MatrixResult) -> dict[str, object]:
    """This result as a baseline file (counts, so a later comparison knows its sample size)."""

    def counted(rate: Rate) -> dict[str, int]:
        return {"passed": rate.passed, "total": rate.total}

    return {
        "overall_pass_rate": counted(result.overall),
        "by_model": {k: counted(r) for k, r in result.by("model").items()},
        "by_prompt": {k: counted(r) for k, r in result.by("prompt").items()},
        "cells": {cell.key: counted(cell.rate) for cell in result.cells},
    }
