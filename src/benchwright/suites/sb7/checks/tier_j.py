"""Tier J rows that read the page's load and its states (§12): first use, the error and
empty states, the two diagnostics (rows with data and the claimed total; console
cleanliness across load and sync), and the excellence gate's ``console_clean`` evidence
across the five nominal scenarios. The journeys are `tier_j_flows`."""

from __future__ import annotations

from typing import Any

from benchwright.model import CheckResult
from benchwright.scoring import Rung, ladder_score
from benchwright.scoring.contention import SCORE_AT_TOP
from benchwright.suites.kit.browser.console import CONSOLE_CLEAN, console_clean_row
from benchwright.suites.kit.browser.rows import errors_of, quote, shots, view
from benchwright.suites.kit.browser.state_rows import empty_row, error_row, read_at_once
from benchwright.suites.kit.checks import app_check, g, result
from benchwright.suites.sb7.browser import BROWSER, EMPTY, ERROR, LOAD
from benchwright.suites.sb7.checks._browser import (
    CONSOLE_SCENARIOS,
    NOMINAL,
    console_errors,
    expected,
    presync,
    total_matches,
)
from benchwright.suites.sb7.checks.tier_d import decided, sections
from benchwright.suites.sb7.observations import TREE, Observations

FIRST_DATA = (Rung(2000, 1.0), Rung(3000, 0.75), Rung(4500, 0.5), Rung(8000, 0.25))
"""§12's first-data ladder (ms): frozen, not calibration-owned in sb-7."""
NOISY = 0.6
"""j_first_use's console component with any console error: noise bounds the leg."""


@app_check("j_loads_data", needs=(BROWSER,))
def j_loads_data(obs: Observations, _s) -> CheckResult:
    """Diagnostic: a visibly rendered row (0.5) + a claimed total equal to the vendor's
    collection at probe time (0.5)."""
    load, refused = view(obs, "j_loads_data", LOAD)
    if refused:
        return refused
    rows = 0.5 if load.rows > 0 else 0.0
    total = 0.5 if total_matches(load) else 0.0
    return result("j_loads_data", rows + total, f"{g(rows + total)}: {load.rows} visible rows "
                  f"({g(rows)}/0.5); claimed total {load.claimed_total} vs {expected(load)} "
                  f"({g(total)}/0.5)", screenshots=shots(load))  # fmt: skip


@app_check("j_console_clean", needs=(BROWSER,))
def j_console_clean(obs: Observations, _s) -> CheckResult:
    """Diagnostic: console and page errors across load + sync; 0 -> 1, 1 -> 0.5, 2+ -> 0."""
    errors, refused = console_errors(obs, "j_console_clean", CONSOLE_SCENARIOS)
    if refused:
        return refused
    score = 1.0 if not errors else 0.5 if len(errors) == 1 else 0.0
    first = f" (first: {quote(errors[0])})" if errors else ""
    return result("j_console_clean", score, f"{g(score)}: {len(errors)} console/page errors "
                  f"across {' + '.join(CONSOLE_SCENARIOS)} (0 -> 1, 1 -> 0.5, 2+ -> 0){first}",
                  errors=errors)  # fmt: skip


@app_check(CONSOLE_CLEAN, needs=(BROWSER,))
def console_clean(obs: Observations, _s) -> CheckResult:
    """Excellence evidence: zero console and page errors across load, sync, flow, viz and
    empty, 1.0, else 0.0; a scenario that left no view leaves it unproven (0); no browser
    UNAVAILABLE."""
    return console_clean_row(obs, NOMINAL)


@app_check("j_first_use", needs=(BROWSER,))
def j_first_use(obs: Observations, _s) -> CheckResult:
    """Gate: a visible data row. Then min of first data (<=2000/3000/4500/8000 ms), the
    claimed total == the collection at probe time, and a clean console (0.6 when not)."""
    load, refused = view(obs, "j_first_use", LOAD)
    if refused:
        return refused
    timed, _ = view(obs, "j_first_use", LOAD, timed=True)
    first_ms = timed.first_row_ms
    ev = {"screenshots": shots(load), "first_row_ms": first_ms}
    if load.rows == 0 or first_ms is None:
        return result("j_first_use", 0.0, "0: gate closed: no visibly rendered data row", **ev)
    rung = ladder_score(round(first_ms, 1), FIRST_DATA)
    recon = 1.0 if total_matches(load) else 0.0
    errors = errors_of(load)
    clean = NOISY if errors else 1.0
    score = min(rung.score, recon, clean)
    parts = [f"first data {rung.detail.split(': ', 1)[1]} -> {g(rung.score)}",
             f"claimed total {load.claimed_total} vs {expected(load)} -> {g(recon)}",
             f"{len(errors)} console errors -> {g(clean)}"
             + (f" (first: {quote(errors[0])})" if errors else "")]  # fmt: skip
    ev[SCORE_AT_TOP] = min(recon, clean)  # the other parts decide it at or below
    return result("j_first_use", score, f"{g(score)}: gate open, min of " + "; ".join(parts),
                  timing_score=rung.score, **ev)  # fmt: skip


@app_check("j_error_state", needs=(BROWSER,))
def j_error_state(obs: Observations, _s) -> CheckResult:
    """API blocked in the browser: actionable visible error 1.0 (0.6 if an exercised retry
    did not recover); a generic error 0.3; nothing 0."""
    seen, refused = view(obs, "j_error_state", ERROR)
    if refused:
        return refused
    return read_at_once(error_row("j_error_state", seen), seen.no_page)


@app_check("j_empty_state", needs=(BROWSER,))
def j_empty_state(obs: Observations, _s) -> CheckResult:
    """A second instance on a brand-new database whose first sync cannot finish: no rows
    plus empty-state text, or a pre-sync state as DECISIONS.md's D3 says, 1.0; content
    without either 0.3; a blank page 0; any rendered row 0 (phantom data)."""
    empty, refused = view(obs, "j_empty_state", EMPTY)
    if refused:
        return refused
    return read_at_once(_empty_rung(empty, _d3(obs)), empty.no_page)


def _d3(obs: Observations) -> str | None:
    """What DECISIONS.md's D3 says (``blocks``/``empty``), when it says something."""
    tree = obs.phases.get(TREE)
    said = sections(tree.decisions or "").get("D3", "") if tree is not None else ""
    return decided("D3", said) if said else None


def _empty_rung(empty: Any, d3: str | None) -> CheckResult:
    """The kit's ladder, a pre-sync state as D3 documents it earning as the text does."""
    shown = presync(empty)
    what = quote(empty.loading_text or "an empty table")
    said = f"the pre-sync state is D3's ({shown}: {what})" if shown and shown == d3 else None
    return empty_row("j_empty_state", empty, said, presync=shown, d3=d3)
