"""Which host window each vendorsync timing row was measured in, and the contention
rule (`kit.checks.judge_timing`) applied to each."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from benchwright.model import CheckResult
from benchwright.probes.host import HostState
from benchwright.suites.kit import checks
from benchwright.suites.kit.record import PhaseLog

TIMED: Mapping[str, tuple[str, str]] = {
    "p_list_latency": ("perf", "host"),
    "p_sync_wall": ("sync1", "host"),
}
"""Timing row -> (phase, the observation's field holding the host across it)."""


def host_of(obs: PhaseLog, phase: str, key: str) -> HostState | None:
    """The host across one measurement, or None when that phase did not run."""
    seen = obs.phases.get(phase)
    return getattr(seen, key, None) if seen is not None else None


def judge_timing(rows: Iterable[CheckResult], obs: PhaseLog) -> list[CheckResult]:
    """Every row, the timing rows judged against the host state of their window."""
    return checks.judge_timing(rows, obs, TIMED, host_of)
