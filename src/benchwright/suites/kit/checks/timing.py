"""The contention rule applied to a suite's timing rows: each is judged against the host
state of the window it was measured in (`benchwright.scoring.contention`), which the
suite names per row."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from benchwright.model import CheckResult
from benchwright.probes.host import HostState
from benchwright.scoring.contention import judge_timed
from benchwright.suites.kit.record import PhaseLog

HostOf = Callable[[PhaseLog, str, str], HostState | None]
"""``(observations, phase, window) -> the host across that measurement`` (None: the
phase did not run)."""


def judge_timing(
    rows: Iterable[CheckResult],
    obs: PhaseLog,
    timed: Mapping[str, tuple[str, str]],
    host_of: HostOf,
) -> list[CheckResult]:
    """Every row, those in ``timed`` (row -> (phase, window)) judged against the host
    state of their window."""
    return [
        judge_timed(row, host_of(obs, *timed[row.check_id])) if row.check_id in timed else row
        for row in rows
    ]
