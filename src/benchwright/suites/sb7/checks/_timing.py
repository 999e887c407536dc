"""The contention rule (`benchwright.scoring.contention`) on sb-7's timing rows: each is
judged against the host's state over the window that measured it, so a busy
host turns a shortfall into PROBE UNAVAILABLE naming the host measurement, never into a
lower score (the browser's timing rows too, by the scenario that measured them;
p_sync_wall by the ``boot`` phase's window over ledgerd's start and first sync)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from benchwright.model import CheckResult
from benchwright.probes.host import HostState
from benchwright.scoring.contention import judge_timed
from benchwright.suites.sb7.checks.tier_p import WINDOW
from benchwright.suites.sb7.observations import BOOT, Observations
from benchwright.suites.sb7.perf_obs import IDLE_PERF, UNDER_STREAM

BROWSER = "browser"
"""The browser phase's record (a kit `BrowserRecord`)."""


def _battery(obs: Observations, row: CheckResult) -> HostState | None:
    """The window of the endpoint that decided the row (its worst): a contended window
    elsewhere cannot have lowered the minimum below an honestly measured one."""
    return obs[IDLE_PERF].host.get(row.evidence.get(WINDOW)) if obs.has(IDLE_PERF) else None


def _boot(obs: Observations, row: CheckResult) -> HostState | None:
    return obs[BOOT].host if obs.has(BOOT) else None


def _under_stream(obs: Observations, row: CheckResult) -> HostState | None:
    return obs[UNDER_STREAM].host if obs.has(UNDER_STREAM) else None


HostOf = Callable[[Observations, CheckResult], HostState | None]


def _scenario(name: str) -> HostOf:
    """The host across browser scenario ``name`` (the kit's `BrowserRecord.scenario_host`;
    a retimed scenario's is its least contended attempt)."""

    def host(obs: Observations, row: CheckResult) -> HostState | None:
        found = obs.phases.get(BROWSER)
        return getattr(found, "scenario_host", {}).get(name)

    return host


HOSTS: Mapping[str, HostOf] = {
    "p_api_latency": _battery,
    "p_sync_wall": _boot,
    "p_under_stream": _under_stream,
    "e_under_load_latency": _under_stream,
    "j_first_use": _scenario("load"),
    "j_sync_journey": _scenario("sync"),
    "p_drag_frames": _scenario("viz"),
    "t_coast_identity": _scenario("viz"),
    "e_frames_under_drag": _scenario("viz"),
    "p_stream_apply": _scenario("viz"),
    "e_stream_apply_latency": _scenario("viz"),
    "e_optimistic_paint": _scenario("flow"),
}
"""Timing row -> the host across the measurement that decided it. The browser rows'
scenarios are named as the scorer's ``console_clean`` condition names them (load, sync,
flow, viz, empty); a row is judged only where its check marks the part a timing figure
decided (evidence ``timing_score``), so its other failures stand as measured."""


def judge_timing(rows: Iterable[CheckResult], obs: Observations) -> list[CheckResult]:
    """Every row, the timing rows judged against their window's host state."""
    return [judge_timed(r, HOSTS[r.check_id](obs, r)) if r.check_id in HOSTS else r for r in rows]
