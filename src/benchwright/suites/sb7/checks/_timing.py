"""The contention rule (`benchwright.scoring.contention`) on sb-7's harness-side timing
rows: each is judged against the host's state over the window that measured it, so a busy
host turns a shortfall into PROBE UNAVAILABLE naming the host measurement, never into a
lower score. p_sync_wall has no window of its own: the first sync runs in part one's
``boot`` phase, which observes no host state (its row stands as measured)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from benchwright.model import CheckResult
from benchwright.probes.host import HostState
from benchwright.scoring.contention import judge_timed
from benchwright.suites.sb7.checks.tier_p import WINDOW
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.perf_obs import IDLE_PERF, UNDER_STREAM


def _battery(obs: Observations, row: CheckResult) -> HostState | None:
    """The window of the endpoint that decided the row (its worst): a contended window
    elsewhere cannot have lowered the minimum below an honestly measured one."""
    return obs[IDLE_PERF].host.get(row.evidence.get(WINDOW)) if obs.has(IDLE_PERF) else None


def _under_stream(obs: Observations, row: CheckResult) -> HostState | None:
    return obs[UNDER_STREAM].host if obs.has(UNDER_STREAM) else None


HOSTS: Mapping[str, Callable[[Observations, CheckResult], HostState | None]] = {
    "p_api_latency": _battery,
    "p_under_stream": _under_stream,
    "e_under_load_latency": _under_stream,
}
"""Timing row -> the host across the measurement that decided it."""


def judge_timing(rows: Iterable[CheckResult], obs: Observations) -> list[CheckResult]:
    """Every row, the timing rows judged against their window's host state."""
    return [judge_timed(r, HOSTS[r.check_id](obs, r)) if r.check_id in HOSTS else r for r in rows]
