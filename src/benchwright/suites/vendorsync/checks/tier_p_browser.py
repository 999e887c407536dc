"""``p_page_interactive`` (facts entry 59): the first data row after loading the page,
on the settings' ladder (2,000 / 3,000 / 4,500 / 8,000 ms by default). It is a timing
row: the grader judges it with `kit.checks.judge_timing` against the host across the
``load`` scenario (`_timing.TIMED`); a contended ``load`` is taken again, alone, and
this row reads the repeat."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.scoring import ladder_score
from benchwright.suites.kit.browser.rows import shots
from benchwright.suites.kit.checks import app_check, g, result
from benchwright.suites.kit.record import PhaseLog
from benchwright.suites.vendorsync.checks._common import CheckSettings
from benchwright.suites.vendorsync.checks.tier_j import seen


@app_check("p_page_interactive", needs=("browser",))
def p_page_interactive(obs: PhaseLog, s: CheckSettings) -> CheckResult:
    """First visible data row <= 2000 ms (/k_P) 1.0 / 3000 0.75 / 4500 0.5 / 8000 0.25;
    none within the probe's wait, 0."""
    load, refused = seen(obs, "p_page_interactive", "load", timed=True)
    if refused:
        return refused
    ms = load.first_row_ms
    if ms is None:
        return result("p_page_interactive", 0.0, "0: no data row rendered after loading the page")
    rung = ladder_score(round(ms, 1), s.ladders["p_page_interactive"], s.k_p)
    detail = f"{g(rung.score)}: first data row {rung.detail.split(': ', 1)[1]}"
    return result("p_page_interactive", rung.score, detail, first_row_ms=ms,
                  timing_score=rung.score, screenshots=shots(load, "load-1280"))  # fmt: skip
