"""The vspro measurement phases, in the seed's order (facts D2).

A phase is ``(ctx, observations) -> observation`` (`kit.Phase`); the kit appends each
result to the record under the phase's name. ``static`` reads files only; the
others need the running app (they do not run when it never became healthy).
``browser`` is the seed's probe and empty-instance steps (17-18): headless Chromium
scenarios on the graded app and on a second, fresh instance (see ``vspro.browser``).
"""

from __future__ import annotations

from collections.abc import Iterable

from benchwright.suites import kit
from benchwright.suites.kit import Phase, kinds
from benchwright.suites.vspro.browser import browser
from benchwright.suites.vspro.phases.app import page
from benchwright.suites.vspro.phases.lifecycle import (
    hostile,
    mutation,
    restart,
    webhook,
)
from benchwright.suites.vspro.phases.load import concurrency, idle_perf, traps, under_load
from benchwright.suites.vspro.phases.reads import json_sample, reads, validation
from benchwright.suites.vspro.phases.static import static
from benchwright.suites.vspro.phases.sync import sync1, sync2, sync_fill, sync_full
from benchwright.suites.vspro.phases.writes import batch, conflict

PHASES = (
    Phase("static", static, needs_app=False),
    Phase("boot", kinds.boot, gates=True),
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
    Phase("restart", restart, gates=True),
    Phase("webhook", webhook),
    Phase("trace", kinds.trace, after_down=True),
)
PHASE_NAMES = tuple(p.name for p in PHASES)
ALWAYS_WITH_APP = ("boot", "trace")
"""Added to any selection that touches the app: nothing runs unbooted, and the trace is
what several checks read."""


def select_phases(names: Iterable[str] | None) -> tuple[Phase, ...]:
    """The phases to run, in the canonical order; ``boot`` and ``trace`` come with any
    app phase. Raises `SpecError` for an unknown name, listing the known ones."""
    return kit.select_phases(PHASES, ALWAYS_WITH_APP, names)


__all__ = ["ALWAYS_WITH_APP", "PHASES", "PHASE_NAMES", "Phase", "select_phases"]
