"""The sb-7 ``browser`` phase: the console in a real Chromium, on the kit's lanes.

It runs after ``final`` and before ``vendor``: the X and R rows' final snapshots are taken
before the browser touches anything, and the vendor's ledgers are read after everything
the browser's journeys made the vendor do.

The lanes (`kit.browser.lanes`), each a thread on one Chromium: ``load`` first, then
every other lane at once (each one's first step waits for ``load`` to end, so that the
first-data time is the app's own, not the app's beside the grader's other tabs):

- ``load`` alone: the page at 1280x800 read once data shows, then reloaded at 375 px;
- ``error`` (every API request refused in the browser), then ``empty`` on a second
  instance of both services on a brand-new database directory (`kit.fresh_instance`);
- one lane per discovered scenario module (below).

**The discovery hook.** The journeys (sb7flows) and the 3D field's probe (sb7vizprobe)
bring their scenarios as modules of their own, so that no two of them edit one file. A
module named in `LANE_MODULES` that is installed and exposes ``SCENARIOS: tuple[Step,
...]`` (non-empty) is one more lane, its steps run in order (`kit.browser.scenario`
makes a step of a scenario). It may also expose ``REPEATABLE: Mapping[str, Observe]``:
its read-only timing scenarios, taken again alone when their host window was contended
(`kit.browser.retime`). Each scenario's view (a frozen dataclass carrying the kit's
``scenario: ScenarioObservation``, so that console rows can read it) lands in
``record.scenarios[<name>]``.

A step that disturbs what other lanes read (killing notifierd makes the page's feed poll
fail, which Chromium logs as a console error) waits first for those scenarios to finish:
`settled` is that step.
"""

from __future__ import annotations

import importlib
import importlib.util
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from benchwright.probes.browser import Lane
from benchwright.suites.kit.browser import (
    Observe,
    ScenarioLog,
    Step,
    keep_lanes,
    run_browser,
    scenarios_of,
)
from benchwright.suites.sb7.browser.record import Sb7BrowserRecord
from benchwright.suites.sb7.context import GradeContext
from benchwright.suites.sb7.observations import Observations

LANE_MODULES = (
    "benchwright.suites.sb7.browser.flows",
    "benchwright.suites.sb7.viz.lane",
)
"""The scenario modules a grading looks for, in lane order (longest first is best)."""
SETTLED_S = 120.0
"""How long `settled` waits for the scenarios it names; past it the step goes on (the
scenario that never ended is its own lane's problem, bounded by the kit)."""


@dataclass
class _Seen(ScenarioLog):
    """The kit's log of the lanes, and which modules contributed one."""

    modules: tuple[str, ...] = ()
    done: threading.Condition = field(default_factory=threading.Condition)

    def run(self, name: str, observe: Observe, lane: Lane, ctx: Any, shots: Path) -> None:
        """The kit's run, then a word to the steps waiting for ``name`` (`settled`)."""
        try:
            super().run(name, observe, lane, ctx, shots)
        finally:
            with self.done:
                self.done.notify_all()

    def finished(self, names: tuple[str, ...]) -> bool:
        """Whether each of ``names`` has ended (one a sub-selection left out never starts)."""
        with self.lock:
            return all(n in self.seconds or n in self.skipped for n in names)

    def extras(self) -> dict[str, Any]:
        return {"lane_modules": self.modules}


def browser(ctx: GradeContext, obs: Observations, only: tuple[str, ...] = ()) -> Sb7BrowserRecord:
    """Headless Chromium: ``load``; ``error`` then ``empty`` on a second instance; one lane
    per discovered scenario module (``only``: the lanes carrying those scenarios, the
    others' rows NOT_ATTEMPTED). No browser here, or one that dies: every browser row is
    UNAVAILABLE."""
    modules = discovered()
    plan, skipped = keep_lanes(_plan(modules), only)
    seen = _Seen(modules=tuple(m.__name__ for m in modules), skipped=skipped)
    return run_browser(Sb7BrowserRecord, ctx, plan, _repeatable(modules), seen)


def scenario_names() -> tuple[str, ...]:
    """Every scenario the phase runs, in lane order: the parts ``--phases browser:...``
    may select."""
    return tuple(n for lane in _plan(discovered()) for n in scenarios_of(lane))


def discovered() -> list[ModuleType]:
    """The installed modules of `LANE_MODULES` that expose a non-empty ``SCENARIOS``."""
    found = []
    for name in LANE_MODULES:
        try:
            spec = importlib.util.find_spec(name)
        except ModuleNotFoundError:  # its parent package is not there either
            spec = None
        if spec is None:
            continue
        module = importlib.import_module(name)
        if getattr(module, "SCENARIOS", ()):
            found.append(module)
    return found


def _plan(modules: list[ModuleType]) -> list[tuple[Step, ...]]:
    """The lanes: the discovered modules' first (the 3D field's and the journeys' are the
    long ones), then this package's own, ``load``'s first. Every other lane starts once
    ``load`` has ended: its first-data time is the app's alone, not the app's beside the
    grader's other tabs (measured on the golden: 240-280 ms alone, 765-940 ms beside the
    field's 12,288 columns, a second instance booting and three more pages; 2167 ms once
    in CI, costing the golden j_first_use's top rung)."""
    from benchwright.suites.sb7.browser.lanes import LOAD, own_lanes

    load, *others = own_lanes()
    after_load = (settled(LOAD),)
    return [after_load + lane for lane in [tuple(m.SCENARIOS) for m in modules] + others] + [load]


def _repeatable(modules: list[ModuleType]) -> dict[str, Observe]:
    """The read-only scenarios whose timing a contended host may have spoiled: ``load``
    and whatever the modules name."""
    from benchwright.suites.sb7.browser.lanes import own_repeatable

    found = own_repeatable()
    for module in modules:
        found.update(getattr(module, "REPEATABLE", {}))
    return found


def settled(*names: str) -> Step:
    """A step that waits (at most `SETTLED_S`) until the scenarios ``names`` have ended in
    any way (a view, an error, no page), whichever lane runs them; one a sub-selection
    left out is not waited for. Name only scenarios the plan has: one it never had is
    waited for the whole bound."""

    def step(lane: Lane, ctx: Any, shots: Path, seen: _Seen) -> None:
        deadline = time.monotonic() + SETTLED_S
        with seen.done:
            while not seen.finished(names) and time.monotonic() < deadline:
                lane.ensure_alive(f"waiting for {', '.join(names)}")
                seen.done.wait(timeout=1.0)

    return step
