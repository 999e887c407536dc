"""Every error answer the API probes provoked, for the checks that grade errors on the wire.

§6 and §7 ask for a JSON error envelope on *every* error, so the probes provoke many (400,
404, 405, 409, 502, 503 ...). The public sb-6 instrument grades the envelope on its own
validation matrix only (`PUBLIC_MATRIX` and the invalid batch: methodology §09,
``b_error_envelope``), so `split_errors` keeps those for the scored row and hands every other
error answer to the weight-zero row that reports the spec's wider duty.
"""

from __future__ import annotations

from benchwright.probes.http import HttpObservation
from benchwright.suites.vspro.observations import Observations

PUBLIC_MATRIX = {"limit=-1": 400, "limit=abc": 400, "offset=-5": 400, "sort=bogus": 400,
                 "status=bogus": 400, "nope": 404}  # fmt: skip
"""The public instrument's bad GETs and the status each must answer (§09: ``c_api_depth``,
``input_validation``, ``b_error_envelope``); with `INVALID_BATCH`, its whole matrix."""
INVALID_BATCH = "batch[invalid]"

Named = list[tuple[str, HttpObservation]]


def error_responses(obs: Observations) -> Named:
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
        found.append((INVALID_BATCH, obs["batch"].invalid.response))
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


def split_errors(obs: Observations) -> tuple[Named, Named]:
    """(the public matrix's error answers, every other error answer) of `error_responses`."""
    errors = error_responses(obs)
    public = [(n, a) for n, a in errors if n in PUBLIC_MATRIX or n == INVALID_BATCH]
    return public, [(n, a) for n, a in errors if n not in PUBLIC_MATRIX and n != INVALID_BATCH]


def error_code(item: dict) -> str | None:
    """The ``error.code`` of an envelope (or a bare ``error``/``code`` string), else None."""
    error = item.get("error")
    if isinstance(error, dict):
        return error.get("code")
    return error if isinstance(error, str) else item.get("code")


def statuses(errors: Named) -> str:
    """The distinct error statuses among ``errors``, e.g. ``400, 404, 405, 409``."""
    return ", ".join(
        str(s) for s in sorted({a.status for _, a in errors if (a.status or 0) >= 400})
    )
