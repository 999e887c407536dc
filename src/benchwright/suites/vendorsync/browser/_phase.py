"""The vendorsync ``browser`` phase (facts entries 47-59, spec §7) on one Chromium, in two
lanes:

- ``load`` then ``error``, on the graded app: both only read. The phase runs after the
  vendor's update pass has been synced, so the page shows both ``settled`` and
  ``refunded`` (entry 53);
- a second instance of the app on a brand-new database (`kit.browser.fresh_instance`):
  ``empty``, then ``sync``, which clicks ``#sync-now`` on that empty page, so the click
  must change what is shown (entry 49). Its sync reaches the vendor under the trace
  mark ``browser``, never resetting the vendor's traps.

The lanes, host windows, the re-timing of a contended ``load`` (what
``p_page_interactive`` reads) and the stop at a ``/`` that is no page are the kit's.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from benchwright.probes.browser import Lane
from benchwright.services.meridian import MeridianMock
from benchwright.suites.kit.browser import (
    InstanceHost,
    ScenarioLog,
    Step,
    fresh_instance,
    run_browser,
    scenario,
)
from benchwright.suites.vendorsync.browser._load import observe_load
from benchwright.suites.vendorsync.browser._states import observe_empty, observe_error
from benchwright.suites.vendorsync.browser._sync import observe_sync
from benchwright.suites.vendorsync.browser._views import BrowserObservation

MARK = "browser"
"""The vendor trace's mark for the second instance's requests."""


class BrowserContext(InstanceHost, Protocol):
    """What the phase needs of the grade context: the graded app's address, the vendor
    mock, and a second app (`InstanceHost`). ``replace(ctx, app=...)`` must give the same
    context around another app (a dataclass)."""

    mock: MeridianMock

    @property
    def base_url(self) -> str: ...


def browser(ctx: BrowserContext, obs: Any) -> BrowserObservation:
    """Headless Chromium: load and error on the graded app; empty, then the sync journey,
    on a second instance on a fresh db. No browser here, or a browser that dies: every
    browser row is UNAVAILABLE."""
    plan: list[tuple[Step, ...]] = [
        (scenario("load", observe_load), scenario("error", observe_error)),
        (_second_instance,),
    ]
    return run_browser(BrowserObservation, ctx, plan, {"load": observe_load}, ScenarioLog())


def _second_instance(lane: Lane, ctx: BrowserContext, shots: Path, seen: ScenarioLog) -> None:
    """Boot the second app; ``empty``, then ``sync`` on it; stop it."""
    ctx.mock.mark_phase(MARK, reset=False)
    with fresh_instance(ctx, lane) as app:
        boot = app.boot()
        if boot.healthy_after_s is None:
            seen.fail(("empty", "sync"), f"the empty instance never became healthy ({boot.detail})")
            return
        second = replace(ctx, app=app)  # type: ignore[type-var]
        seen.run("empty", observe_empty, lane, second, shots)
        seen.run("sync", observe_sync, lane, second, shots)
