"""Cross-field rules of a scorer config, each reported with the field path it concerns.

Pydantic checks shapes; this module checks meaning: every name refers to
something that exists, weights that must sum to 1.0 do, and the config's own
asserted constraints (``T + HARD >= 0.34``) hold. All problems are collected so
an author fixes a config in one pass.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from benchwright.scoring.config import ScorerConfig

TOLERANCE = 1e-9
Problems = list[tuple[str, str]]


def wanted_checks(cfg: ScorerConfig) -> list[str]:
    """Every check id the scorer wants a row for, in config order, without repeats."""
    ids: list[str] = []
    for tier in cfg.tiers.values():
        ids += tier.checks
    ids += cfg.diagnostics
    if cfg.excellence:
        ids += [c.special for c in cfg.excellence.conditions if c.special]
    return list(dict.fromkeys(ids))


def _known(names: Iterable[str]) -> str:
    return ", ".join(sorted(names))


def _membership(cfg: ScorerConfig) -> Problems:
    problems: Problems = []
    owner: dict[str, str] = {}
    for name, tier in cfg.tiers.items():
        for i, check in enumerate(tier.checks):
            where = f"tiers.{name}.checks[{i}]"
            if tier.shared:
                continue
            if check in owner:
                problems.append((where, f"'{check}' is already in tier {owner[check]}"))
            owner[check] = name
    for name, tier in cfg.tiers.items():
        for i, check in enumerate(tier.checks):
            if tier.shared and check not in owner:
                where = f"tiers.{name}.checks[{i}]"
                problems.append((where, f"shared tier member '{check}' is in no owning tier"))
    for i, check in enumerate(cfg.diagnostics):
        if check in owner:
            problems.append((f"diagnostics[{i}]", f"'{check}' is weight-zero but in a tier"))
    return problems


def _components(cfg: ScorerConfig) -> Problems:
    problems: Problems = []
    placed: dict[str, str] = {}
    slice_tier = cfg.excellence.tier if cfg.excellence else None
    for cname, comp in cfg.components.items():
        total = 0.0
        for i, tname in enumerate(comp.tiers):
            where = f"components.{cname}.tiers[{i}]"
            tier = cfg.tiers.get(tname)
            if tier is None:
                problems.append((where, f"unknown tier '{tname}' (known: {_known(cfg.tiers)})"))
            elif tname in placed:
                problems.append((where, f"tier '{tname}' is already in component {placed[tname]}"))
            elif tier.weight is None:
                problems.append((f"tiers.{tname}.weight", f"required (in component {cname})"))
            else:
                placed[tname] = cname
                total += tier.weight
        if not math.isclose(total, 1.0, abs_tol=TOLERANCE) and not problems:
            problems.append((f"components.{cname}", f"tier weights sum to {total:g}, not 1.0"))
    for tname, tier in cfg.tiers.items():
        if tname == slice_tier:
            if tier.weight is not None:
                problems.append(
                    (
                        f"tiers.{tname}.weight",
                        "the excellence tier takes excellence.weight; remove this one",
                    )
                )
        elif tname not in placed and not tier.shared and not problems:
            problems.append((f"tiers.{tname}", "in no component: its checks would never count"))
    top = sum(c.weight for c in cfg.components.values())
    top += cfg.excellence.weight if cfg.excellence else 0.0
    if not math.isclose(top, 1.0, abs_tol=TOLERANCE):
        problems.append(
            ("components", f"component weights plus excellence.weight sum to {top:g}, not 1.0")
        )
    return problems


def _references(cfg: ScorerConfig, wanted: set[str]) -> Problems:
    problems: Problems = []

    def need(where: str, check: str) -> None:
        if check not in wanted:
            problems.append((where, f"'{check}' is not a check of this scorer"))

    if cfg.excellence:
        if cfg.excellence.tier not in cfg.tiers:
            problems.append(("excellence.tier", f"unknown tier '{cfg.excellence.tier}'"))
        for i, cond in enumerate(cfg.excellence.conditions):
            if cond.check:
                need(f"excellence.conditions[{i}].check", cond.check)
    if cfg.criticals:
        for i, entry in enumerate(cfg.criticals.checks):
            need(f"criticals.checks[{i}].check", entry.check)
    for root, dependents in cfg.roots.items():
        need(f"roots.{root}", root)
        for i, dep in enumerate(dependents):
            need(f"roots.{root}[{i}]", dep)
    for i, check in enumerate(cfg.calibration_owned):
        need(f"calibration_owned[{i}]", check)
    for check in cfg.checks:
        need(f"checks.{check}", check)
    for defect, overrides in cfg.selftest.items():
        for check, score in overrides.items():
            need(f"selftest.{defect}.{check}", check)
            if not 0.0 <= score <= 1.0:
                problems.append((f"selftest.{defect}.{check}", f"must be in [0, 1], got {score}"))
    return problems


def _constraints(cfg: ScorerConfig) -> Problems:
    weights: dict[str, float] = {n: t.weight for n, t in cfg.tiers.items() if t.weight is not None}
    weights.update({n: c.weight for n, c in cfg.components.items()})
    if cfg.excellence:
        weights[cfg.excellence.tier] = weights["excellence"] = cfg.excellence.weight
    problems: Problems = []
    for i, rule in enumerate(cfg.constraints):
        unknown = [n for n in rule.sum if n not in weights]
        if unknown:
            problems.append((f"constraints[{i}].sum", f"unknown weight(s) {', '.join(unknown)}"))
            continue
        total = sum(weights[n] for n in rule.sum)
        label = " + ".join(rule.sum)
        if rule.min is not None and total < rule.min - TOLERANCE:
            problems.append((f"constraints[{i}]", f"{label} = {total:g}, must be >= {rule.min}"))
        if rule.max is not None and total > rule.max + TOLERANCE:
            problems.append((f"constraints[{i}]", f"{label} = {total:g}, must be <= {rule.max}"))
        if rule.equals is not None and not math.isclose(total, rule.equals, abs_tol=TOLERANCE):
            problems.append((f"constraints[{i}]", f"{label} = {total:g}, must equal {rule.equals}"))
    return problems


def config_problems(cfg: ScorerConfig) -> Problems:
    """Every cross-field problem of ``cfg`` as (field path, message) pairs."""
    wanted = set(wanted_checks(cfg))
    return _membership(cfg) + _components(cfg) + _references(cfg, wanted) + _constraints(cfg)
