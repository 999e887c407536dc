"""Every error answer the API probes provoked, for the checks that grade errors on the wire.

§6 and §7 ask for a JSON error envelope on *every* error, so the checks that grade
errors sample every one the phases saw (400, 404, 405, 409 ...), not one route: an app
whose 404s are JSON but whose 405 or 409 is an HTML page is caught wherever it is met.
"""

from __future__ import annotations

from benchwright.probes.http import HttpObservation
from benchwright.suites.vspro.observations import Observations


def error_responses(obs: Observations) -> list[tuple[str, HttpObservation]]:
    """(name, answer) for each request the API phases sent that got a status >= 400, each
    request (method and path) and status once: the validation matrix, the syncs on a
    failing and on an unreachable vendor (one request, two answers), the invalid batch, the
    note that met a persistent conflict, and the JSON sample. Phases that did not run add
    none."""
    found: list[tuple[str, HttpObservation | None]] = []
    if obs.has("validation"):
        v = obs["validation"]
        found += [(cell.name, answer) for cell, answer in v.matrix.results]
        for name, sync in (("sync on a failing vendor", v.vendor_fault),
                           ("sync with the vendor unreachable", v.vendor_outage)):  # fmt: skip
            if sync is not None:
                found.append((name, sync.response))
    if obs.has("batch"):
        found.append(("batch[invalid]", obs["batch"].invalid.response))
    if obs.has("conflict") and obs["conflict"].second is not None:
        found.append(("note after a persistent conflict", obs["conflict"].second.response))
    if obs.has("json_sample"):
        found += [(read.response.path, read.response) for read in obs["json_sample"].reads]
    seen: set[tuple[str, str, int]] = set()
    errors = []
    for name, answer in found:
        if answer is None or answer.status is None or answer.status < 400:
            continue
        if (key := (answer.method, answer.path, answer.status)) not in seen:
            seen.add(key)
            errors.append((name, answer))
    return errors


def statuses(errors: list[tuple[str, HttpObservation]]) -> str:
    """The distinct error statuses among ``errors``, e.g. ``400, 404, 405, 409``."""
    return ", ".join(
        str(s) for s in sorted({a.status for _, a in errors if (a.status or 0) >= 400})
    )
