"""``request_efficiency``: the first sync's vendor requests against the perfect walk."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.suites.vspro.checks._common import g, is_int, result
from benchwright.suites.vspro.checks._registry import vspro_check
from benchwright.suites.vspro.checks._trace import list_requests, window
from benchwright.suites.vspro.observations import Observations, body


def efficiency(requests: int, optimum: int, complete: float, traps_ok: bool) -> float:
    """§09 request_efficiency rungs, before the failed-trap cap."""
    if requests <= 0:
        return 0.0
    if requests < optimum:
        return 1.0 if complete >= 1.0 and traps_ok else 0.0
    if requests == optimum:
        return complete if traps_ok else 0.5 * complete
    over = requests - optimum
    base = 0.75 if over <= 2 else 0.5 if over <= 7 else optimum / requests
    return base * complete


@vspro_check("request_efficiency", needs=("sync1", "traps", "trace"))
def request_efficiency(obs: Observations, _s) -> CheckResult:
    """Sync #1's list requests vs the half-set optimum (13), times completeness; exact with
    every trap passed 1.0, +1..2 0.75, +3..7 0.5, beyond optimum/requests; failed trap <= 0.5."""
    lists = list_requests(window(obs["trace"].lines, "sync1", "syncfull"))
    optimum, visible = obs.expect.optimal_requests_halfset, obs.expect.total // 2
    found = body(obs["sync1"].call) or {}
    counts = [v for v in (found.get("total"), found.get("fetched")) if is_int(v)]
    complete = min(max(counts, default=0) / visible, 1.0)
    t = obs["traps"].results
    traps_ok = min(t.retry_after, t.cursor_expiry, t.stall) >= 1.0
    score = efficiency(len(lists), optimum, complete, traps_ok)
    score = score if traps_ok else min(score, 0.5)
    return result("request_efficiency", score, f"{g(score)}: {len(lists)} list requests "
                  f"(optimum {optimum}), completeness {complete:.4g} of {visible}, traps "
                  f"{'all passed' if traps_ok else 'not all passed (cap 0.5)'}")  # fmt: skip
