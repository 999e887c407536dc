"""Running a suite's selected phases against one app: the order and the block rule.

Static phases (no app) run first. Then the vendor, if the suite has one, is served where
the app was told it is, a port is leased and the app is started, and the app phases run
in order; app and vendor are stopped however that ends. A phase that raises is a harness
fault (recorded in ``failed``: INFRA rows); a gate (`Phase.gates`) that raised, or a boot
after which the app never became healthy, keeps the later app phases from running
(recorded in ``failed`` or ``app_down``) except those that read only the vendor
(`Phase.after_down`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

from benchwright.sandbox import Confinement
from benchwright.services.app import boot_headline
from benchwright.services.ports import lease_port
from benchwright.suites.kit.phases import Phase, PhaseListener, PhaseRecord
from benchwright.suites.kit.record import PhaseLog
from benchwright.suites.kit.vendor import VendorMock, vendor_served

BOOT = "boot"
"""The boot phase's name: its observation's ``boot`` is the app's `BootObservation`."""


class BootBudget(Protocol):
    """A suite's settings, as far as the kit reads them."""

    @property
    def boot_budget_s(self) -> float: ...


class Running(Protocol):
    """What the kit starts for a suite and stops however the grading ends: one
    `AppUnderTest`, or the `kit.services.ServiceGroup` of an app that is several."""

    def stop(self) -> None: ...


class AppContext(Protocol):
    """What a suite's phases get: the kit starts the app into ``app``."""

    app: Running

    @property
    def mock(self) -> VendorMock | None:
        """None: the suite's app talks to no vendor (nothing is served)."""

    @property
    def settings(self) -> BootBudget: ...

    @property
    def vendor_url(self) -> str: ...

    def new_app(
        self, db: Path, port: int, log_path: Path, budget_s: float, confinement: Confinement
    ) -> Running: ...


Log = TypeVar("Log", bound=PhaseLog)


@dataclass(frozen=True)
class BootFailure:
    """An app that never became healthy: said once, at the top of the scorecard; the rows
    it failed refer to it (``blocked_by: server_runs``) instead of repeating its output."""

    headline: str
    """``app exited 1 at boot: <last line of its output>``."""
    output: str
    """The tail of the app's output (its traceback), printed once."""


def boot_failure(obs: PhaseLog) -> BootFailure | None:
    """The boot's failure, when the boot phase ran and the app never became healthy."""
    boot = obs[BOOT].boot if obs.has(BOOT) else None
    headline = boot_headline(boot) if boot is not None else None
    if boot is None or headline is None:
        return None
    return BootFailure(headline, boot.output_tail.decode("utf-8", errors="replace").strip())


def run_phases(
    selected: Sequence[Phase],
    ctx: AppContext,
    obs: Log,
    *,
    db: Path,
    log: Path,
    confinement: Confinement,
    notify: PhaseListener,
) -> tuple[Log, list[PhaseRecord]]:
    """Run ``selected`` in order (the app on database ``db``, its output in ``log``);
    the observations with theirs added, and one record per phase."""
    records: list[PhaseRecord] = []
    for phase in (p for p in selected if not p.needs_app):
        obs = _one(phase, ctx, obs, records, None, notify)
    app_phases = [p for p in selected if p.needs_app]
    if not app_phases:
        return obs, records
    with vendor_served(ctx.mock, ctx.vendor_url, confinement), lease_port() as lease:
        ctx.app = ctx.new_app(db, lease.port, log, ctx.settings.boot_budget_s, confinement)
        try:
            blocked = None
            for phase in app_phases:
                obs = _one(phase, ctx, obs, records, blocked, notify)
                if phase.gates:
                    blocked = blocked or _blocked(phase.name, obs)
        finally:
            ctx.app.stop()
    return obs, records


def _one(
    phase: Phase,
    ctx: AppContext,
    obs: Log,
    records: list[PhaseRecord],
    blocked: tuple[bool, str] | None,
    notify: PhaseListener,
) -> Log:
    """Run one phase; when the app is down (or could not be started) record why instead."""
    started = time.monotonic()
    if blocked is not None and not phase.after_down:
        harness, why = blocked
        records.append(PhaseRecord(phase.name, 0.0, "harness fault" if harness else "app down"))
        notify(phase.name, records[-1])
        return obs.with_failure(phase.name, why) if harness else obs.with_app_down(phase.name, why)
    notify(phase.name, None)
    parts: Mapping[str, float] = {}
    try:
        observed = phase(ctx, obs)
        obs = obs.with_phase(phase.name, observed)
        failure = boot_failure(obs) if phase.name == BOOT else None
        outcome = failure.headline if failure else "ok"
        parts = getattr(observed, "scenario_seconds", None) or {}
    except Exception as exc:  # a phase that raises is the harness's fault, never the app's
        why = f"{type(exc).__name__}: {exc}"
        obs, outcome = obs.with_failure(phase.name, why), f"failed: {why}"
    seconds = round(time.monotonic() - started, 3)
    records.append(PhaseRecord(phase.name, seconds, outcome, dict(parts)))
    notify(phase.name, records[-1])
    return obs


def _blocked(name: str, obs: PhaseLog) -> tuple[bool, str] | None:
    """(harness?, why) when later app phases cannot run: the harness could not start the
    app (INFRA), or the app never became healthy at boot (the app's FAIL)."""
    if name in obs.failed:
        return True, f"the harness could not run phase {name}: {obs.failed[name]}"
    if name == BOOT and obs[BOOT].boot.healthy_after_s is None:
        return False, "the app never became healthy at boot (see the boot failure above)"
    return None
