"""Tier D (finesse): content types, client timeouts, store keys, vendor page size."""

from __future__ import annotations

import ast
import re

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, frac, g, result
from benchwright.suites.vspro.checks._trace import list_requests
from benchwright.suites.vspro.observations import Observations

KEYED = re.compile(r"PRIMARY\s+KEY|UNIQUE|CREATE\s+(?:UNIQUE\s+)?INDEX", re.I)
MAX_LIMIT = 100


@app_check("api_content_type", needs=("json_sample",))
def api_content_type(obs: Observations, _s) -> CheckResult:
    """Each of the six sampled responses (404 and 400 included) has a json content type."""
    reads = obs["json_sample"].reads
    typed = [r for r in reads if "json" in (r.content_type or "").lower()]
    score = frac(len(typed), len(reads))
    bad = [f"{r.response.path} ({r.content_type})" for r in reads if r not in typed]
    tail = f"; not json: {', '.join(bad)}" if bad else ""
    return result("api_content_type", score, f"{g(score)}: {len(typed)}/{len(reads)} json{tail}")


@app_check("client_timeouts", needs=("traps", "static"))
def client_timeouts(obs: Observations, _s) -> CheckResult:
    """Behaviour first: the stall trap at 1.0 (the client cut the held request and asked
    again inside the hold): 1.0. Else a call passing ``timeout=`` in meridian.py: 0.4
    residual (an attribute like ``self.timeout = 10`` that no call passes is no evidence
    of a bound); else 0. The source is corroboration, never the verdict."""
    stall = obs["traps"].results.stall
    calls = timeout_calls(obs["static"].meridian_source or "")
    seen = (f"timeout= passed in {len(calls)} call(s) in meridian.py (line "
            f"{', '.join(map(str, calls[:5]))})" if calls else "no call in meridian.py "
            "passes timeout=")  # fmt: skip
    if stall >= 1.0:
        cut = "1: the stalled page was cut by the client and retried inside the hold"
        return result("client_timeouts", 1.0, f"{cut} (stall ledger 1); corroboration: {seen}")
    if calls:
        return result("client_timeouts", 0.4, f"0.4: stall ledger {stall:g} (not cut within "
                      f"bound); residual: {seen}")  # fmt: skip
    return result("client_timeouts", 0.0, f"0: stall ledger {stall:g} (not cut within bound) "
                  f"and {seen}")  # fmt: skip


def timeout_calls(source: str) -> list[int]:
    """Lines of the calls that pass a ``timeout=`` keyword (``urlopen(req, timeout=t)``).

    An assignment such as ``self.timeout = 10`` is not one: a bound that no call passes
    bounds nothing. Source that does not parse has no such call."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    return sorted(node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
                  and any(k.arg == "timeout" for k in node.keywords))  # fmt: skip


@app_check("store_indexed", needs=("static",))
def store_indexed(obs: Observations, _s) -> CheckResult:
    """store.py declares PRIMARY KEY, UNIQUE or CREATE [UNIQUE] INDEX (binary)."""
    source = obs["static"].store_source
    if source is None:
        return result("store_indexed", 0.0, "0: no vspro/store.py")
    found = KEYED.search(source)
    if found:
        return result("store_indexed", 1.0, f"1: store.py has {found.group(0)!r}")
    return result("store_indexed", 0.0, "0: no PRIMARY KEY, UNIQUE or INDEX in store.py")


@app_check("uses_max_limit", needs=("trace",))
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
