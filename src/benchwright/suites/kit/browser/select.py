"""Which lanes a sub-selection of the browser phase runs (``--phases browser:load+viz``).

A control that costs one scenario's rows (a date shown raw, a money column with the wrong
exponent) need not drive the 3D field and the journeys to prove it: its audit grades the
phase through the lanes that carry the scenarios it names. A lane is kept whole when it
carries any named scenario (its steps may depend on one another: a journey after the sync
it needs); the scenarios of the lanes left out are recorded as ``skipped``, so their rows
are NOT_ATTEMPTED, as the rows of an unselected phase are, never an app's zero.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchwright.errors import SpecError
from benchwright.probes.browser import Lane


@dataclass(frozen=True)
class NamedStep:
    """A lane step and the scenarios it records, so that a sub-selection can find it."""

    run: Any
    """The step itself: ``(lane, ctx, shots, log) -> None``."""
    scenarios: tuple[str, ...]

    def __call__(self, lane: Lane, ctx: Any, shots: Path, seen: Any) -> None:
        self.run(lane, ctx, shots, seen)


def named(step: Any, *scenarios: str) -> NamedStep:
    """``step``, known to record ``scenarios`` (a suite's own step that runs one inside,
    e.g. a second instance's ``empty``)."""
    return NamedStep(step, scenarios)


def scenarios_of(lane: Sequence[Any]) -> tuple[str, ...]:
    """The scenarios a lane's steps record, in order."""
    return tuple(n for step in lane for n in getattr(step, "scenarios", ()))


def keep_lanes(plan: list[tuple[Any, ...]], only: Iterable[str]) -> tuple[list, tuple[str, ...]]:
    """(the lanes of ``plan`` carrying any of ``only``, the scenarios left out); ``only``
    empty: the whole plan.

    Raises:
        SpecError: (naming ``--phases``) a scenario no lane records, listing the known ones.
    """
    wanted = set(only)
    if not wanted:
        return plan, ()
    known = [n for lane in plan for n in scenarios_of(lane)]
    unknown = sorted(wanted - set(known))
    if unknown:
        raise SpecError.single("--phases", f"unknown browser scenario(s) {', '.join(unknown)} "
                               f"(known: {', '.join(known)})")  # fmt: skip
    kept = [lane for lane in plan if wanted.intersection(scenarios_of(lane))]
    planned = {n for lane in kept for n in scenarios_of(lane)}
    return kept, tuple(n for n in known if n not in planned)
