"""Phase kinds every executed-app suite lists: the boot, the crash-restart and the
vendor trace, with the observations they leave (a suite's phases module names them in
its order: ``Phase("boot", kinds.boot, gates=True)``)."""

from __future__ import annotations

from dataclasses import dataclass

from benchwright.services.app import BootObservation, BootPolicy
from benchwright.suites.kit.context import BaseContext
from benchwright.suites.kit.record import PhaseLog
from benchwright.suites.kit.wire import health_json, integer


@dataclass(frozen=True)
class BootObs:
    boot: BootObservation


@dataclass(frozen=True)
class RestartObs:
    rows_before: int | None
    boot: BootObservation
    rows_after: int | None


@dataclass(frozen=True)
class TraceObs:
    lines: tuple[dict, ...]


def boot(ctx: BaseContext, obs: PhaseLog) -> BootObs:
    """Delete the db, spawn the boot line, poll /api/health (0.4 s, up to the budget)."""
    return BootObs(ctx.app.boot(BootPolicy(budget_s=ctx.settings.boot_budget_s)))


def restart(ctx: BaseContext, obs: PhaseLog) -> RestartObs:
    """Count, SIGKILL the process group, respawn on the same db and port (restart budget)."""
    before = ctx.health_count()
    booted = ctx.app.restart(BootPolicy(budget_s=ctx.settings.restart_budget_s))
    after = None
    if booted.healthy_after_s is not None:
        after = integer(health_json(booted), "payments")
    return RestartObs(before, booted, after)


def trace(ctx: BaseContext, obs: PhaseLog) -> TraceObs:
    """Every line of the vendor's request trace, ordered by ``seq``."""
    return TraceObs(tuple(ctx.mock.trace.lines()))
