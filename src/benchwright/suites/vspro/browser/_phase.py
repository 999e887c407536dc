"""The ``browser`` phase: one Chromium for every scenario, in the seed's order (facts D2
17-18): load, note, error and the 3D pair on the graded app; then a second instance on a
fresh database and its own port for ``empty``, half-seeded for ``sync``."""

from __future__ import annotations

import importlib
import importlib.util
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchwright.probes.browser import BrowserSession, BrowserUnavailable
from benchwright.services.app import AppUnderTest, BootPolicy
from benchwright.services.meridian import API_KEY
from benchwright.services.ports import lease_port
from benchwright.suites.vspro.browser._publish import publishable
from benchwright.suites.vspro.browser._views import BrowserObservation
from benchwright.suites.vspro.context import COMMAND, GradeContext
from benchwright.suites.vspro.observations import Observations

EMPTY_DB = "empty-probe.db"
EMPTY_BOOT_S = 15.0
SHOTS = "browser"
"""Screenshots go to ``<work>/browser/<scenario>/``; the grader keeps them as evidence."""
VIZ_MODULE = "benchwright.suites.vspro.browser.viz"
Scenario = Callable[[BrowserSession, GradeContext, Path], Any]


def browser(ctx: GradeContext, obs: Observations) -> BrowserObservation:
    """Headless Chromium: load, note, error, viz, viz-fallback; empty and sync on a second
    instance (fresh db, own port). No browser here: every browser check is UNAVAILABLE."""
    started = time.monotonic()
    shots = ctx.work / SHOTS
    scenarios: dict[str, Any] = {}
    errors: dict[str, str] = {}
    try:
        with BrowserSession(artifacts=shots) as session:
            for name, run in _graded_app_scenarios():
                _run(name, run, session, ctx, shots, scenarios, errors)
            _second_instance(session, ctx, shots, scenarios, errors)
        unavailable = None
    except BrowserUnavailable as exc:
        unavailable = exc.reason
    taken = tuple(sorted(shots.rglob("*.png"))) if shots.is_dir() else ()
    return BrowserObservation(
        unavailable=unavailable,
        scenarios=scenarios,
        scenario_errors=errors,
        screenshots=taken,
        published=publishable(taken),
        wall_s=round(time.monotonic() - started, 3),
    )


def _graded_app_scenarios() -> list[tuple[str, Scenario]]:
    from benchwright.suites.vspro.browser._load import observe_load
    from benchwright.suites.vspro.browser._note import observe_note
    from benchwright.suites.vspro.browser._states import observe_error

    found: list[tuple[str, Scenario]] = [
        ("load", observe_load), ("note", observe_note), ("error", observe_error),
    ]  # fmt: skip
    if importlib.util.find_spec(VIZ_MODULE) is not None:  # the 3D scenarios, when installed
        viz = importlib.import_module(VIZ_MODULE)
        found += [("viz", viz.observe_viz), ("viz_fallback", viz.observe_viz_fallback)]
    return found


def _run(name, run, session, ctx, shots, scenarios, errors) -> None:
    """One scenario; a dead browser propagates, anything else is recorded against it."""
    try:
        scenarios[name] = run(session, ctx, shots / name)
    except BrowserUnavailable:
        raise
    except Exception as exc:  # the probe's fault for this scenario: its checks UNAVAILABLE
        errors[name] = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]


def _second_instance(session, ctx, shots, scenarios, errors) -> None:
    """Boot a second app on a fresh db: probe ``empty``; then sync it against a half-capped
    vendor, lift the cap and probe ``sync`` (the click must fetch the other half)."""
    from benchwright.suites.vspro.browser._states import observe_empty
    from benchwright.suites.vspro.browser._sync import observe_sync

    ctx.mock.mark_phase("browser", reset=False)
    with lease_port() as lease:
        app = AppUnderTest(
            COMMAND,
            tree=ctx.tree,
            db=ctx.work / EMPTY_DB,
            port=lease.port,
            env={"MERIDIAN_BASE_URL": ctx.mock.base_url, "MERIDIAN_API_KEY": API_KEY},
            policy=BootPolicy(budget_s=EMPTY_BOOT_S),
            log_path=ctx.work / "empty-app.log",
        )
        try:
            boot = app.boot()
            if boot.healthy_after_s is None:
                why = f"the empty instance never became healthy ({boot.detail})"
                errors.update(empty=why, sync=why)
                return
            second = replace(ctx, app=app)
            _run("empty", observe_empty, session, second, shots, scenarios, errors)
            try:  # an app whose sync fails here is graded by the click all the same
                ctx.mock.set_visible_cap(ctx.mock.fixture.expect.total // 2)
                second.sync()
            finally:
                ctx.mock.clear_visible_cap()
            _run("sync", observe_sync, session, second, shots, scenarios, errors)
        finally:
            app.stop()
