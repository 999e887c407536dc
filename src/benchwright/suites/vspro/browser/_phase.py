"""The ``browser`` phase: the seed's scenarios (facts D2 17-18) on one Chromium, in
concurrent lanes.

Scenarios that share state go in the same lane:

- ``viz`` alone: it only reads, and it is the longest scenario by far (about 7 s);
- ``load`` then ``note``: note edits a row's note and arms the vendor's conflict mode, and
  load must read the pristine data first;
- ``error`` and ``viz_fallback`` (both only read), then a second app instance (fresh db,
  own port): ``empty``, a sync against a half-capped vendor, and ``sync``. The cap matters
  only to that instance's sync. It runs confined as the first (same tree, its own db in
  the same database directory); the app is forked by the services' spawner thread, so
  the lane's thread ending cannot kill it (bubblewrap's ``--die-with-parent``).

The lanes, the host windows, the re-timing of a contended ``load`` or ``viz`` and the
stop at a ``/`` that is no page are the kit's (`kit.browser.lanes`). ``note`` is not
repeated: it writes a note and arms the vendor's conflict mode, which later rows judge;
its timing rows turn UNAVAILABLE when its window stayed contended.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from benchwright.probes.browser import Lane
from benchwright.services.app import AppUnderTest
from benchwright.suites.kit.browser import Observe, ScenarioLog, Step, run_browser, scenario
from benchwright.suites.kit.browser.instance import fresh_instance
from benchwright.suites.vspro.browser._register import RegisterWatch
from benchwright.suites.vspro.browser._views import BrowserObservation
from benchwright.suites.vspro.context import GradeContext
from benchwright.suites.vspro.observations import Observations, RegisterRetryObs

VIZ_MODULE = "benchwright.suites.vspro.browser.viz"


@dataclass
class _Seen(ScenarioLog):
    """The kit's log of the lanes, and the second instance's registrations."""

    register_retry: RegisterRetryObs | None = None
    """Written by the second instance's lane (under the lock) once the instance stopped."""

    def extras(self) -> dict[str, Any]:
        return {"register_retry": self.register_retry}


def browser(ctx: GradeContext, obs: Observations) -> BrowserObservation:
    """Headless Chromium in three lanes: viz; load and note; error and viz-fallback, then
    empty and sync on a second instance (fresh db, own port). No browser here, or a browser
    that dies: every browser check is UNAVAILABLE."""
    return run_browser(BrowserObservation, ctx, _plan(), _repeatable(), _Seen())


def _plan() -> list[tuple[Step, ...]]:
    """The lanes, longest first; each is the steps one thread runs in order."""
    from benchwright.suites.kit.browser.states import observe_error
    from benchwright.suites.vspro.browser._load import observe_load
    from benchwright.suites.vspro.browser._note import observe_note

    data = (scenario("load", observe_load), scenario("note", observe_note))
    error = scenario("error", observe_error)
    if importlib.util.find_spec(VIZ_MODULE) is None:  # the 3D pair comes with browser/viz.py
        return [data, (error, _second_instance)]
    viz = importlib.import_module(VIZ_MODULE)
    fallback = scenario("viz_fallback", viz.observe_viz_fallback)
    return [(scenario("viz", viz.observe_viz),), data, (error, fallback, _second_instance)]


def _repeatable() -> dict[str, Observe]:
    """The read-only scenarios whose timing a contended host may have spoiled."""
    from benchwright.suites.vspro.browser._load import observe_load

    found: dict[str, Observe] = {"load": observe_load}
    if importlib.util.find_spec(VIZ_MODULE) is not None:
        found["viz"] = importlib.import_module(VIZ_MODULE).observe_viz
    return found


def _second_instance(lane: Lane, ctx: GradeContext, shots: Path, seen: _Seen) -> None:
    """Boot a second app on a fresh db, its first webhook registration refused as a failed
    handshake (`_register`): probe ``empty``; then sync it against a half-capped vendor,
    lift the cap and probe ``sync`` (the click must fetch the other half); then read
    whether it registered again."""
    ctx.mock.mark_phase("browser", reset=False)
    with fresh_instance(ctx, lane) as app:
        watch = RegisterWatch.arm(ctx.mock, app.port)
        try:
            _on_second_instance(app, lane, ctx, shots, seen, watch)
        finally:
            app.stop()
            with seen.lock:
                seen.register_retry = watch.observation()


def _on_second_instance(
    app: AppUnderTest, lane: Lane, ctx: GradeContext, shots: Path, seen: _Seen, watch: RegisterWatch
) -> None:
    """The second instance's life: boot, ``empty``, the half-capped sync, ``sync``, then
    the bounded wait for its re-registration."""
    from benchwright.suites.kit.browser.states import observe_empty
    from benchwright.suites.vspro.browser._sync import observe_sync

    boot = app.boot()
    if boot.healthy_after_s is None:
        watch.boot_failure = f"the empty instance never became healthy ({boot.detail})"
        seen.fail(("empty", "sync"), watch.boot_failure)
        return
    watch.boot_failure = None
    second = replace(ctx, app=app)
    seen.run("empty", observe_empty, lane, second, shots)
    try:  # an app whose sync fails here is graded by the click all the same
        ctx.mock.set_visible_cap(ctx.mock.fixture.expect.total // 2)
        second.sync()
    finally:
        ctx.mock.clear_visible_cap()
    seen.run("sync", observe_sync, lane, second, shots)
    watch.settle()
