"""Task ladders: named rungs, each scoring a fixed subset of a scorer's checks.

ACE's ``tasks/ladder.json`` fixes, per rung, a budget, a check subset and so a
denominator. The denominator is stored *and* recomputed from the check weights;
a disagreement is an error, and an unknown rung name is an error listing the
known ones: there is no silent fallback to the full denominator.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Literal

from pydantic import ConfigDict, Field

from benchwright.model import StrictInput


class RungConfig(StrictInput):
    model_config = ConfigDict(frozen=True)

    name: str = Field(min_length=1)
    budget_min: int = Field(gt=0)
    """Default wall-clock budget in minutes: a default an operator may override."""
    denominator: float = Field(gt=0)
    """Weight sum of the rung's checks; verified against the registry at load."""
    checks: list[str] | Literal["all"]
    summary: str = ""


class LadderFile(StrictInput):
    model_config = ConfigDict(frozen=True)

    ladder: str = Field(min_length=1)
    rungs: list[RungConfig] = Field(min_length=1)


def ladder_problems(ladder: LadderFile, weights: Mapping[str, float]) -> list[tuple[str, str]]:
    """Unknown check ids, duplicate rung names and denominators that disagree with weights."""
    problems: list[tuple[str, str]] = []
    seen: set[str] = set()
    for i, rung in enumerate(ladder.rungs):
        if rung.name in seen:
            problems.append((f"rungs[{i}].name", f"duplicate rung '{rung.name}'"))
        seen.add(rung.name)
        checks = list(weights) if rung.checks == "all" else rung.checks
        unknown = [c for c in checks if c not in weights]
        for c in unknown:
            problems.append((f"rungs[{i}].checks", f"unknown check '{c}'"))
        total = sum(weights[c] for c in checks if c in weights)
        if not unknown and not math.isclose(total, rung.denominator):
            problems.append(
                (
                    f"rungs[{i}].denominator",
                    f"{rung.name} declares {rung.denominator:g} but its checks weigh {total:g}",
                )
            )
    return problems


def rung_checks(ladder: LadderFile, name: str, all_checks: list[str]) -> tuple[str, ...]:
    """The check ids rung ``name`` scores.

    Raises:
        KeyError: unknown rung; the message lists every known rung.
    """
    for rung in ladder.rungs:
        if rung.name == name:
            return tuple(all_checks) if rung.checks == "all" else tuple(rung.checks)
    known = ", ".join(r.name for r in ladder.rungs)
    raise KeyError(f"unknown rung '{name}' (known: {known})")
