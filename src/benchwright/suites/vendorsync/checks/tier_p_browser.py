"""``p_page_interactive`` (facts entry 59): the first data row after loading the page,
on a ladder of 2,000 / 3,000 / 4,500 / 8,000 ms. It is a timing row: the grader judges
it with `kit.checks.judge_timing` against the host across the ``load`` scenario
(`TIMED`, `host_of`); a contended ``load`` is taken again and this row reads the repeat."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from benchwright.model import CheckResult
from benchwright.probes.host import HostState
from benchwright.scoring import Rung, ladder_score
from benchwright.suites.kit import checks
from benchwright.suites.kit.browser.rows import shots
from benchwright.suites.kit.checks import app_check, g, ladder_ms, result
from benchwright.suites.kit.record import PhaseLog
from benchwright.suites.vendorsync.checks.tier_j import seen

LADDER: tuple[Rung, ...] = ladder_ms((2000, 1.0), (3000, 0.75), (4500, 0.5), (8000, 0.25))
TIMED: Mapping[str, tuple[str, str]] = {"p_page_interactive": ("browser", "load")}
"""Timing row -> (phase, window): the measurement whose host state judges it."""


@app_check("p_page_interactive", needs=("browser",))
def p_page_interactive(obs: PhaseLog, s: Any) -> CheckResult:
    """First visible data row <= 2000 ms 1.0 / 3000 0.75 / 4500 0.5 / 8000 0.25 (the top
    rung divided by the settings' ``k_p``); none within the probe's wait, 0."""
    load, refused = seen(obs, "p_page_interactive", "load", timed=True)
    if refused:
        return refused
    ms = load.first_row_ms
    if ms is None:
        return result("p_page_interactive", 0.0, "0: no data row rendered after loading the page")
    ladders = getattr(s, "ladders", None) or {}
    rung = ladder_score(round(ms, 1), ladders.get("p_page_interactive", LADDER),
                        getattr(s, "k_p", 1.0))  # fmt: skip
    detail = f"{g(rung.score)}: first data row {rung.detail.split(': ', 1)[1]}"
    return result("p_page_interactive", rung.score, detail, first_row_ms=ms,
                  timing_score=rung.score, screenshots=shots(load, "load-1280"))  # fmt: skip


def host_of(obs: PhaseLog, phase: str, key: str) -> HostState | None:
    """The host across browser scenario ``key``, or None when the phase did not run."""
    found = obs.phases.get(phase)
    return None if found is None else found.scenario_host.get(key)


def judge_timing(rows: Iterable[CheckResult], obs: PhaseLog) -> list[CheckResult]:
    """``rows`` with ``p_page_interactive`` judged against the host of its window."""
    return checks.judge_timing(rows, obs, TIMED, host_of)
