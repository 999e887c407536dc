"""Tier D (finesse): content types, client timeouts, store keys, vendor page size."""

from __future__ import annotations

import re

from benchwright.model import CheckResult
from benchwright.suites.vspro.checks._common import frac, g, result
from benchwright.suites.vspro.checks._registry import vspro_check
from benchwright.suites.vspro.checks._trace import list_requests
from benchwright.suites.vspro.observations import Observations

KEYED = re.compile(r"PRIMARY\s+KEY|UNIQUE|CREATE\s+(?:UNIQUE\s+)?INDEX", re.I)
TIMEOUT = re.compile(r"\btimeout\s*=")
MAX_LIMIT = 100


@vspro_check("api_content_type", needs=("json_sample",))
def api_content_type(obs: Observations, _s) -> CheckResult:
    """Each of the six sampled responses (404 and 400 included) has a json content type."""
    reads = obs["json_sample"].reads
    typed = [r for r in reads if "json" in (r.content_type or "").lower()]
    score = frac(len(typed), len(reads))
    bad = [f"{r.response.path} ({r.content_type})" for r in reads if r not in typed]
    tail = f"; not json: {', '.join(bad)}" if bad else ""
    return result("api_content_type", score, f"{g(score)}: {len(typed)}/{len(reads)} json{tail}")


@vspro_check("client_timeouts", needs=("traps", "static"))
def client_timeouts(obs: Observations, _s) -> CheckResult:
    """The stall trap at 1.0 (timed out and retried inside the hold): 1.0; else a
    ``timeout=`` in meridian.py: 0.4; else 0."""
    stall = obs["traps"].results.stall
    if stall >= 1.0:
        return result("client_timeouts", 1.0, "1: the stalled page was timed out and retried "
                      "inside the hold")  # fmt: skip
    source = obs["static"].meridian_source or ""
    if TIMEOUT.search(source):
        return result("client_timeouts", 0.4, f"0.4: stall ledger {stall:g} (not survived "
                      "within bound); residual: timeout= in meridian.py")  # fmt: skip
    return result("client_timeouts", 0.0, f"0: stall ledger {stall:g} and no timeout= in "
                  "meridian.py")  # fmt: skip


@vspro_check("store_indexed", needs=("static",))
def store_indexed(obs: Observations, _s) -> CheckResult:
    """store.py declares PRIMARY KEY, UNIQUE or CREATE [UNIQUE] INDEX (binary)."""
    source = obs["static"].store_source
    if source is None:
        return result("store_indexed", 0.0, "0: no vspro/store.py")
    found = KEYED.search(source)
    if found:
        return result("store_indexed", 1.0, f"1: store.py has {found.group(0)!r}")
    return result("store_indexed", 0.0, "0: no PRIMARY KEY, UNIQUE or INDEX in store.py")


@vspro_check("uses_max_limit", needs=("trace",))
def uses_max_limit(obs: Observations, _s) -> CheckResult:
    """The largest integer ``limit`` the client sent the vendor, over 100 (capped at 1)."""
    limits = []
    for line in list_requests(obs["trace"].lines):
        raw = str(line["query"].get("limit", ""))
        if raw.isdigit():
            limits.append(int(raw))
    if not limits:
        return result("uses_max_limit", 0.0, "0: no vendor list request sent a limit")
    top = max(limits)
    score = min(top / MAX_LIMIT, 1.0)
    return result("uses_max_limit", score, f"{g(score)}: largest limit {top} (want {MAX_LIMIT})")
