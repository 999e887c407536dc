"""The ``console_clean`` evidence row of a suite's excellence gate, whatever the suite: a
binary verdict over the console and page errors of the nominal scenarios the scorer
names. Binary because the gate condition is "zero errors", and strict about coverage
because a clean console is only proven by scenarios that ran: an absent or failed one
leaves the condition unproven, and it fails (the gate's rule), while no browser at all
is the probe's fault and UNAVAILABLE."""

from __future__ import annotations

from benchwright.model import CheckResult, Status
from benchwright.suites.kit.browser.rows import errors_of, missing, quote
from benchwright.suites.kit.checks import result, unavailable
from benchwright.suites.kit.record import PhaseLog

CONSOLE_CLEAN = "console_clean"
"""The row id the scorers' ``{special: console_clean}`` condition reads."""


def console_clean_row(obs: PhaseLog, nominal: tuple[str, ...]) -> CheckResult:
    """1.0 when every scenario of ``nominal`` ran with zero console and page errors; 0.0
    with the first error, or naming the scenarios that left no view; NOT_ATTEMPTED when a
    sub-selection of the phase left one out."""
    found = obs["browser"]
    if found.unavailable is not None:
        return unavailable(CONSOLE_CLEAN, f"browser unavailable: {found.unavailable}")
    left_out = [n for n in nominal if n in found.skipped]
    if left_out:
        why = f"the {', '.join(left_out)} scenario(s) were not selected (--phases browser:...)"
        return CheckResult(CONSOLE_CLEAN, Status.NOT_ATTEMPTED, 0.0, why)
    unproven = [n for n in nominal if n not in found.scenarios]
    if unproven:
        why = "; ".join(f"{n}: {missing(found, n)}" for n in unproven)
        return result(CONSOLE_CLEAN, 0.0, f"0: unproven, fails honestly ({why})")
    errors = {n: errors_of(found.scenarios[n]) for n in nominal}
    total = sum(len(e) for e in errors.values())
    across = ", ".join(nominal)
    if total:
        first = next(f"{n}: {quote(e[0])}" for n, e in errors.items() if e)
        return result(CONSOLE_CLEAN, 0.0, f"0: {total} console errors across {across} "
                      f"(first {first})", errors=errors)  # fmt: skip
    return result(CONSOLE_CLEAN, 1.0, f"1: 0 console errors across {across}")
