"""The vspro measurement phases, in the seed's order (facts D2).

A phase is ``(ctx, observations) -> observation`` (`kit.Phase`); the kit appends each
result to the record under the phase's name. ``static`` reads files only; the
others need the running app (they do not run when it never became healthy).
``browser`` is the seed's probe and empty-instance steps (17-18): headless Chromium
scenarios on the graded app and on a second, fresh instance (see ``vspro.browser``).
"""

from __future__ import annotations

from benchwright.suites.kit import Phase, kinds
from benchwright.suites.kit.phases import PhasePlan, plain
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

PLAN = PhasePlan(
    (
        Phase("static", static, needs_app=False),
        Phase("boot", kinds.boot, gates=True),
        *plain(
            page,
            sync1,
            sync_full,
            sync_fill,
            sync2,
            reads,
            validation,
            batch,
            conflict,
            under_load,
            traps,
            idle_perf,
            concurrency,
            json_sample,
            mutation,
            hostile,
            browser,
        ),
        Phase("restart", restart, gates=True),
        Phase("webhook", webhook),
        Phase("trace", kinds.trace, after_down=True),
    )
)
"""``boot`` and ``trace`` join any selection that touches the app: nothing runs unbooted,
and the trace is what several checks read."""
PHASES = PLAN.phases
PHASE_NAMES = PLAN.names
select_phases = PLAN.select

__all__ = ["PHASES", "PHASE_NAMES", "PLAN", "Phase", "select_phases"]
