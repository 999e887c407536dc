"""``request_efficiency``: the first sync's vendor requests against the perfect walk."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, g, is_int, result
from benchwright.suites.vspro.checks._trace import list_requests, window
from benchwright.suites.vspro.observations import Observations, body

FAILED_TRAP_CAP = 0.5


def rung(requests: int, optimum: int) -> float:
    """§09's request rung: at or under the optimum 1, +1..2 0.75, +3..7 0.5, beyond
    optimum/requests but never above 0.5 (§09's decay starts at 13/21 = 0.62, above the
    rung before it). Non-increasing in ``requests``: a walk with more requests never earns
    a higher rung (a short walk that skipped data pays through completeness)."""
    if requests <= 0:
        return 0.0
    over = requests - optimum
    if over <= 0:
        return 1.0
    return 0.75 if over <= 2 else 0.5 if over <= 7 else min(0.5, optimum / requests)


def efficiency(requests: int, optimum: int, complete: float, traps_ok: bool) -> float:
    """The rung, capped at 0.5 when a trap failed, times completeness.

    The cap applies to the rung, not to the product, so the score stays monotonic: with
    the same completeness and traps, more requests never score higher. (§09 scored an
    under-optimum walk 0 unless complete with every trap passed, which let a failed-trap
    walk of 12 requests score below a worse one of 14 capped at 0.5: issue #13.) At
    completeness 1 every rung equals §09's."""
    cap = 1.0 if traps_ok else FAILED_TRAP_CAP
    return min(rung(requests, optimum), cap) * complete


@app_check("request_efficiency", needs=("sync1", "traps", "trace"))
def request_efficiency(obs: Observations, _s) -> CheckResult:
    """Sync #1's list requests vs the half-set optimum (13): rung (at or under 1,
    +1..2 0.75, +3..7 0.5, beyond min(.5, optimum/requests); a failed trap caps it at .5)
    x completeness."""
    lists = list_requests(window(obs["trace"].lines, "sync1", "syncfull"))
    optimum, visible = obs.expect.optimal_requests_halfset, obs.expect.total // 2
    found = body(obs["sync1"].call) or {}
    counts = [v for v in (found.get("total"), found.get("fetched")) if is_int(v)]
    complete = min(max(counts, default=0) / visible, 1.0)
    t = obs["traps"].results
    traps_ok = min(t.retry_after, t.cursor_expiry, t.stall) >= 1.0
    score = efficiency(len(lists), optimum, complete, traps_ok)
    return result("request_efficiency", score, f"{g(score)}: {len(lists)} list requests "
                  f"(optimum {optimum}): rung {g(rung(len(lists), optimum))}, completeness "
                  f"{complete:.4g} of {visible}, traps "
                  f"{'all passed' if traps_ok else 'not all passed (cap 0.5)'}")  # fmt: skip
