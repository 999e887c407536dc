"""The vspro measurement phases, in the seed's order (facts D2).

A phase is ``(ctx, observations) -> observation``; the grader appends each
result to the record under the phase's name. ``static`` reads files only; the
others need the running app (they do not run when it never became healthy).
``browser`` is the seed's probe and empty-instance steps (17-18): headless Chromium
scenarios on the graded app and on a second, fresh instance (see ``vspro.browser``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from benchwright.errors import SpecError
from benchwright.suites.vspro.browser import browser
from benchwright.suites.vspro.phases.app import boot, page
from benchwright.suites.vspro.phases.lifecycle import (
    hostile,
    mutation,
    restart,
    trace,
    webhook,
)
from benchwright.suites.vspro.phases.load import concurrency, idle_perf, traps, under_load
from benchwright.suites.vspro.phases.reads import json_sample, reads, validation
from benchwright.suites.vspro.phases.static import static
from benchwright.suites.vspro.phases.sync import sync1, sync2, sync_fill, sync_full
from benchwright.suites.vspro.phases.writes import batch, conflict


@dataclass(frozen=True)
class Phase:
    name: str
    run: Callable[..., Any]
    needs_app: bool = True

    @property
    def summary(self) -> str:
        return (self.run.__doc__ or "").strip().splitlines()[0]


PHASES = (
    Phase("static", static, needs_app=False),
    Phase("boot", boot),
    Phase("page", page),
    Phase("sync1", sync1),
    Phase("sync_full", sync_full),
    Phase("sync_fill", sync_fill),
    Phase("sync2", sync2),
    Phase("reads", reads),
    Phase("validation", validation),
    Phase("batch", batch),
    Phase("conflict", conflict),
    Phase("under_load", under_load),
    Phase("traps", traps),
    Phase("idle_perf", idle_perf),
    Phase("concurrency", concurrency),
    Phase("json_sample", json_sample),
    Phase("mutation", mutation),
    Phase("hostile", hostile),
    Phase("browser", browser),
    Phase("restart", restart),
    Phase("webhook", webhook),
    Phase("trace", trace),
)
PHASE_NAMES = tuple(p.name for p in PHASES)
ALWAYS_WITH_APP = ("boot", "trace")
"""Added to any selection that touches the app: nothing runs unbooted, and the trace is
what several checks read."""


def select_phases(names: Iterable[str] | None) -> tuple[Phase, ...]:
    """The phases to run, in the canonical order; ``boot`` and ``trace`` come with any
    app phase. Raises `SpecError` for an unknown name, listing the known ones."""
    if names is None:
        return PHASES
    wanted = {n.strip() for n in names if n.strip()}
    unknown = sorted(wanted - set(PHASE_NAMES))
    if unknown:
        raise SpecError.single("--phases", f"unknown phase(s) {', '.join(unknown)} "
                               f"(known: {', '.join(PHASE_NAMES)})")  # fmt: skip
    if any(p.needs_app for p in PHASES if p.name in wanted):
        wanted |= set(ALWAYS_WITH_APP)
    return tuple(p for p in PHASES if p.name in wanted)


__all__ = ["ALWAYS_WITH_APP", "PHASES", "PHASE_NAMES", "Phase", "select_phases"]
