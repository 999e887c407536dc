"""The sb-7 phases, in the order the seeded schedule runs them.

A phase is ``(ctx, observations) -> observation`` (`kit.Phase`), stored under its name
(the record's constants, `sb7.observations`). ``tree`` reads files only; ``smoke`` boots
``python -m app`` once on a database directory of its own, before the graded services;
``boot`` starts the two services and gates the rest (a ledgerd that never became
healthy leaves nothing to probe); ``stream`` hands over the read stream the boot
started; ``under_stream`` races readers against a vendor burst before quiescence (so
``final`` covers it) and ``idle_perf`` times the read API once the run is quiet;
``browser`` (the console in Chromium, `sb7.browser`) comes after the final snapshots and
the idle battery, so that nothing the browser does reaches part one's rows or the idle
timings; ``vendor`` reads what the vendor saw (the browser's journeys included) and runs
even when the app went down.
"""

from __future__ import annotations

from benchwright.suites.kit import Phase
from benchwright.suites.kit.phases import PhasePlan, plain
from benchwright.suites.sb7.browser import browser, scenario_names
from benchwright.suites.sb7.phases.boot import boot
from benchwright.suites.sb7.phases.final import final
from benchwright.suites.sb7.phases.idle_perf import idle_perf
from benchwright.suites.sb7.phases.matrix import matrix
from benchwright.suites.sb7.phases.partition import partition
from benchwright.suites.sb7.phases.reads import reads
from benchwright.suites.sb7.phases.resync import resync
from benchwright.suites.sb7.phases.smoke import smoke
from benchwright.suites.sb7.phases.static import tree
from benchwright.suites.sb7.phases.stream import stream
from benchwright.suites.sb7.phases.sync1 import sync1
from benchwright.suites.sb7.phases.under_stream import under_stream
from benchwright.suites.sb7.phases.vendor import vendor
from benchwright.suites.sb7.phases.workflow import workflow

PLAN = PhasePlan(
    (
        Phase("tree", tree, needs_app=False),
        Phase("smoke", smoke),
        Phase("boot", boot, gates=True),
        *plain(
            sync1,
            reads,
            matrix,
            resync,
            partition,
            workflow,
            under_stream,
            final,
            stream,
            idle_perf,
        ),
        Phase("browser", browser, parts=scenario_names),
        Phase("vendor", vendor, after_down=True),
    ),
    always_with_app=("boot", "vendor"),
)
"""``boot`` and ``vendor`` join any selection that touches the app: nothing runs unbooted,
and the vendor's ledgers are what the C, X and R rows compare with."""
PHASES = PLAN.phases
PHASE_NAMES = PLAN.names
select_phases = PLAN.select

__all__ = ["PHASES", "PHASE_NAMES", "PLAN", "select_phases"]
