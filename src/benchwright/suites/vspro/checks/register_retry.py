"""``x_register_retry``: weight zero (ours, issue #13; the public sb-6 never probes it).

Its evidence is the browser phase's second instance, whose first webhook registration the
vendor refused as it refuses a failed handshake (`browser._register`).
"""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, result, unavailable
from benchwright.suites.vspro.observations import Observations, RegisterRetryObs

CHECK = "x_register_retry"
DUTY = (
    "spec §3.4: the app must keep trying to register until it succeeds (register again "
    "until the vendor accepts)"
)
REFUSAL = "400 verification_failed, as when the vendor's handshake finds no server yet"


@app_check(CHECK, needs=("browser",))
def x_register_retry(obs: Observations, _s) -> CheckResult:
    """A registration refused as a failed handshake is followed by one the vendor accepts
    (1), or by none (0); UNAVAILABLE when the second instance never booted or never
    registered at all."""
    browser = obs["browser"]
    seen: RegisterRetryObs | None = browser.register_retry
    if seen is None and browser.unavailable is not None:
        return unavailable(CHECK, f"browser unavailable: {browser.unavailable}")
    if seen is None:
        return unavailable(CHECK, "probe unavailable: the second instance never started (its "
                           "lane stopped before it)")  # fmt: skip
    if seen.boot_failure is not None:
        return unavailable(CHECK, f"probe unavailable: {seen.boot_failure}")
    refused = seen.refused
    if refused is None:
        return unavailable(CHECK, f"probe unavailable: the second instance (port {seen.port}) "
                           f"never registered its webhook in the {seen.watched_s:.1f} s it was "
                           "watched, so nothing was refused")  # fmt: skip
    accepted = seen.accepted
    if accepted is not None:
        n = seen.attempts.index(accepted) + 1
        return result(CHECK, 1.0, f"1: its first registration was refused ({REFUSAL}); "
                      f"attempt {n} was accepted, {accepted.after_s - refused.after_s:.1f} s "
                      "after the refusal")  # fmt: skip
    if browser.unavailable is not None:
        why = f"the browser was lost ({browser.unavailable}), cutting the instance's life short"
        return unavailable(CHECK, f"probe unavailable: {why}")
    later = len(seen.retries)
    after = (
        "it never registered again" if not later else f"its {later} later attempt(s) were refused"
    )
    watched = seen.watched_s - refused.after_s
    return result(CHECK, 0.0, f"0: its first registration was refused ({REFUSAL}) and {after} "
                  f"in the {watched:.1f} s that followed; {DUTY}")  # fmt: skip
