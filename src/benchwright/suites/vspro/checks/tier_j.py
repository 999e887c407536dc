"""Tier J (journeys) from the browser scenarios, the error-state row and ``console_clean``."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.scoring import ladder_score
from benchwright.scoring.contention import SCORE_AT_TOP
from benchwright.suites.kit.browser.console import console_clean_row
from benchwright.suites.kit.browser.rows import errors_of, quote, shots, view
from benchwright.suites.kit.browser.state_rows import empty_row, error_row, read_at_once
from benchwright.suites.kit.checks import app_check, g, result
from benchwright.suites.vspro.checks._common import CheckSettings
from benchwright.suites.vspro.observations import Observations

IN_FLIGHT_MS = 1200
NOMINAL = ("load", "sync", "empty", "viz")


@app_check("j_first_use", needs=("browser",))
def j_first_use(obs: Observations, s: CheckSettings) -> CheckResult:
    """Gate: a visible data row. Then min of first data (<=2000/3000/4500/8000 ms), the
    claimed total == the fixture's, and zero console errors in the load scenario."""
    load, refused = view(obs, "j_first_use", "load")
    if refused:
        return refused
    timed, _ = view(obs, "j_first_use", "load", timed=True)
    first_ms = load.first_row_ms if timed is load else timed.first_row_ms
    ev = {"screenshots": shots(load), "first_row_ms": first_ms}
    if load.rows == 0 or first_ms is None:
        return result("j_first_use", 0.0, "0: gate closed: no visibly rendered data row", **ev)
    rung = ladder_score(round(first_ms, 1), s.ladders["j_first_use"])
    ev["timing_score"] = rung.score
    first = f"first data {rung.detail.split(': ', 1)[1]}"
    recon = 1.0 if load.claimed_total == obs.expect.total else 0.0
    errors = errors_of(load)
    clean = 0.0 if errors else 1.0
    score = min(rung.score, recon, clean)
    ev[SCORE_AT_TOP] = min(recon, clean)  # the other parts decide it at or below
    parts = [f"{first} -> {g(rung.score)}",
             f"claimed total {load.claimed_total} vs {obs.expect.total} -> {g(recon)}",
             f"{len(errors)} console errors -> {g(clean)}"
             + (f" (first: {quote(errors[0])})" if errors else "")]  # fmt: skip
    return result("j_first_use", score, f"{g(score)}: gate open, min of " + "; ".join(parts), **ev)


@app_check("j_loads_data", needs=("browser",))
def j_loads_data(obs: Observations, s: CheckSettings) -> CheckResult:
    """Diagnostic: a visibly rendered row (0.5) + a DOM-claimed total == the fixture's (0.5)."""
    load, refused = view(obs, "j_loads_data", "load")
    if refused:
        return refused
    rows = 0.5 if load.rows > 0 else 0.0
    total = 0.5 if load.claimed_total == obs.expect.total else 0.0
    detail = (f"{g(rows + total)}: {load.rows} visible rows ({g(rows)}/0.5); claimed total "
              f"{load.claimed_total} vs {obs.expect.total} ({g(total)}/0.5)")  # fmt: skip
    return result("j_loads_data", rows + total, detail, screenshots=shots(load))


@app_check("j_console_clean", needs=("browser",))
def j_console_clean(obs: Observations, s: CheckSettings) -> CheckResult:
    """Diagnostic: console and page errors across load + sync; 0 -> 1, 1 -> 0.5, 2+ -> 0."""
    errors: list[str] = []
    for name in ("load", "sync"):
        seen, refused = view(obs, "j_console_clean", name)
        if refused:
            return refused
        errors += errors_of(seen)
    score = 1.0 if not errors else 0.5 if len(errors) == 1 else 0.0
    first = f" (first: {quote(errors[0])})" if errors else ""
    return result(
        "j_console_clean",
        score,
        f"{g(score)}: {len(errors)} console/page errors "
        f"across load + sync (rungs 0 -> 1, 1 -> 0.5, 2+ -> 0){first}",
        errors=errors,
    )


@app_check("j_sync_journey", needs=("browser",))
def j_sync_journey(obs: Observations, s: CheckSettings) -> CheckResult:
    """Quarters: #sync-now found and clicked; in flight within 1200 ms; completed with causal
    corroboration; the view refreshed against the half-seeded instance."""
    sync, refused = view(obs, "j_sync_journey", "sync")
    if refused:
        return refused
    ev = {"screenshots": shots(sync), "half_seeded": sync.half_seeded}
    if not (sync.button_found and sync.clicked):
        why = "sync button never found" if not sync.button_found else "sync button not clickable"
        return result("j_sync_journey", 0.0, f"0: {why}", **ev)
    before, after = sync.before, sync.after
    changed = [name for name in ("rows", "readout_total", "last_sync", "table_hash")
               if before is not None and after is not None
               and getattr(before, name) != getattr(after, name)]  # fmt: skip
    in_flight = sync.in_flight_ms is not None and sync.in_flight_ms <= IN_FLIGHT_MS
    causal = sync.api_sync_seen or sync.in_flight_ms is not None or bool(changed)
    done = sync.completed and sync.error_text is None and causal
    parts = {"found": True, "in flight": in_flight, "completed": done, "refreshed": bool(changed)}
    score = sum(parts.values()) / 4
    missing = [k for k, v in parts.items() if not v]
    notes = [f"in flight at {sync.in_flight_ms:.0f} ms" if sync.in_flight_ms is not None
             else "never disabled/busy",
             "completed" if done else ("error: " + quote(sync.error_text) if sync.error_text
                                       else "not completed" if not sync.completed
                                       else "completion uncorroborated"),
             f"changed: {', '.join(changed) or 'nothing'}",
             f"/api/sync {'seen' if sync.api_sync_seen else 'not seen'}"]  # fmt: skip
    head = "all four parts" if not missing else f"missing {', '.join(missing)}"
    return result("j_sync_journey", score, f"{g(score)}: {head} ({'; '.join(notes)})", **ev)


def _error_ladder(check_id: str, obs: Observations) -> CheckResult:
    seen, refused = view(obs, check_id, "error")
    if refused:
        return refused
    return read_at_once(error_row(check_id, seen), seen.no_page)


@app_check("j_error_state", needs=("browser",))
def j_error_state(obs: Observations, s: CheckSettings) -> CheckResult:
    """API blocked: actionable visible error 1.0 (0.6 if an exercised retry did not
    recover); a generic error 0.3; nothing 0."""
    return _error_ladder("j_error_state", obs)


@app_check("ui_error_actionable", needs=("browser",))
def ui_error_actionable(obs: Observations, s: CheckSettings) -> CheckResult:
    """Backend unreachable: an error text with try again/retry/check/running/refresh 1.0
    (0.6 with a dead exercised retry); generic 0.3; none 0."""
    return _error_ladder("ui_error_actionable", obs)


@app_check("j_empty_state", needs=("browser",))
def j_empty_state(obs: Observations, s: CheckSettings) -> CheckResult:
    """Fresh db: zero rows plus empty-state text 1.0; content without it 0.3; blank 0;
    any rendered row 0 (phantom data)."""
    empty, refused = view(obs, "j_empty_state", "empty")
    if refused:
        return refused
    return read_at_once(empty_row("j_empty_state", empty), empty.no_page)


@app_check("console_clean", needs=("browser",))
def console_clean(obs: Observations, s: CheckSettings) -> CheckResult:
    """Excellence condition: exactly 0 console/page errors across load, sync, empty, viz;
    a scenario that is absent or errored leaves it unproven, and it fails."""
    return console_clean_row(obs, NOMINAL)
