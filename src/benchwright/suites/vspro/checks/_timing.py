"""Which host window each vspro timing row was measured in, and the contention rule
(`kit.checks.judge_timing`) applied to every one of them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from benchwright.model import CheckResult
from benchwright.probes.host import HostState
from benchwright.suites.kit import checks
from benchwright.suites.kit.record import PhaseLog
from benchwright.suites.vspro.observations import Observations

TIMED: Mapping[str, tuple[str, str]] = {
    "p_list_latency": ("idle_perf", "payments"),
    "p_buckets_latency": ("idle_perf", "buckets"),
    "p_summary_latency": ("idle_perf", "summary"),
    "p_sync_wall": ("idle_perf", "sync"),
    "e_under_load_latency": ("under_load", "load"),
    "p_page_interactive": ("browser", "load"),
    "j_first_use": ("browser", "load"),
    "e_optimistic_paint": ("browser", "note"),
    "p_first_frame": ("browser", "viz"),
    "e_frames_under_drag": ("browser", "viz"),
    "t_tooltip": ("browser", "viz"),
}
"""Timing row -> (phase, window): the measurement whose host state judges it."""


def host_of(obs: PhaseLog, phase: str, key: str) -> HostState | None:
    """The host across one measurement, or None when that phase did not run."""
    seen = obs.phases.get(phase)
    if seen is None:
        return None
    if phase == "under_load":
        return seen.host
    found = seen.scenario_host if phase == "browser" else seen.host
    return found.get(key)


def judge_timing(rows: Iterable[CheckResult], obs: Observations) -> list[CheckResult]:
    """Every row, the timing rows judged against the host state of their window."""
    return checks.judge_timing(rows, obs, TIMED, host_of)
