"""The hard block: six checks taken out of their home tiers and averaged on their own
(facts entries 41-46): request optimum, conditional re-sync, the idempotent-create pair,
the update pass and crash-restart."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, frac, g, result
from benchwright.suites.vendorsync.checks._common import CheckSettings
from benchwright.suites.vendorsync.checks._read import complete, ledger
from benchwright.suites.vendorsync.observations import Observations


@app_check("request_efficiency", needs=("sync1", "trace"))
def request_efficiency(obs: Observations, s: CheckSettings) -> CheckResult:
    """The first sync used the optimum (7) list requests; else 7 over the requests made.
    A walk that missed rows scores by its completeness (benchwright), never by count."""
    found, best = ledger(obs, "sync1"), obs.truth.optimal_requests
    made = found.list_requests if found is not None else 0
    if made == 0:
        return result("request_efficiency", 0.0, "0: the first sync made no list request")
    by_count, whole = min(1.0, best / made), complete(obs)
    if whole < 1.0:
        score = min(by_count, whole)
        return result("request_efficiency", score, f"{g(score)}: {made} list requests "
                      f"(optimum {best}), but the sync was {g(whole)} complete")  # fmt: skip
    return result("request_efficiency", by_count, f"{g(by_count)}: {made} list requests "
                  f"(optimum {best})", requests=made)  # fmt: skip


@app_check("second_sync_cost", needs=("sync2", "trace"))
def second_sync_cost(obs: Observations, s: CheckSettings) -> CheckResult:
    """Every list request of the unchanged second sync answered 304 (1); all conditional
    but not all 304 (0.7); some conditional and some 304 (0.4); else 0."""
    found = ledger(obs, "sync2")
    made = found.list_requests if found is not None else 0
    if found is None or made == 0:
        return result("second_sync_cost", 0.0, "0: the second sync made no list request")
    cond, fresh = found.conditional_requests, found.not_modified
    said = f"{made} list requests, {cond} conditional, {fresh} answered 304"
    if fresh == made:
        score = 1.0
    elif cond == made:
        score = 0.7
    elif cond and fresh:
        score = 0.4
    else:
        score = 0.0
    return result("second_sync_cost", score, f"{g(score)}: {said}")


@app_check("client_create_replay", needs=("client",))
def client_create_replay(obs: Observations, s: CheckSettings) -> CheckResult:
    """Two create_payment calls with one key return the same non-empty id."""
    seen = obs["client"]
    creates = (seen.report or {}).get("creates") or []
    if len(creates) != 2 or any("ok" not in c for c in creates):
        why = next((c.get("error") for c in creates if "error" in c), None)
        return result("client_create_replay", 0.0, "0: create_payment() failed: "
                      f"{why or seen.failure or (seen.report or {}).get('error')}")  # fmt: skip
    first, second = (c["ok"]["value"] for c in creates)
    ok = isinstance(first, str) and first != "" and first == second
    return result("client_create_replay", float(ok), f"{int(ok)}: the two calls returned "
                  f"{first!r} and {second!r}")  # fmt: skip


@app_check("client_idempotency_key", needs=("client", "trace"))
def client_idempotency_key(obs: Observations, s: CheckSettings) -> CheckResult:
    """At least one create reached the vendor and every create carried Idempotency-Key."""
    found = ledger(obs, "client")
    creates = found.creates if found is not None else 0
    if creates == 0:
        return result("client_idempotency_key", 0.0, "0: no create reached the vendor")
    keyed = found.keyed_creates  # type: ignore[union-attr]
    ok = keyed == creates
    return result("client_idempotency_key", float(ok), f"{int(ok)}: {keyed}/{creates} creates "
                  "carried Idempotency-Key")  # fmt: skip


@app_check("update_propagation", needs=("update",))
def update_propagation(obs: Observations, s: CheckSettings) -> CheckResult:
    """After the vendor flips 25 statuses to refunded, a third sync shows them through the
    app's API; else the fraction shown."""
    seen = obs["update"]
    if not seen.changed or seen.sync.status is None:
        return result("update_propagation", 0.0, "0: no third sync after the vendor's update")
    shown = sum(seen.seen.get(pid) == status for pid, status in seen.changed.items())
    score = frac(shown, len(seen.changed))
    return result("update_propagation", score, f"{g(score)}: {shown}/{len(seen.changed)} "
                  "updated statuses shown after the third sync")  # fmt: skip


@app_check("restart_persistence", needs=("restart",))
def restart_persistence(obs: Observations, s: CheckSettings) -> CheckResult:
    """After SIGKILL and a restart on the same --db, health counts every row counted
    before the kill; else the fraction kept."""
    seen = obs["restart"]
    before, after = seen.rows_before, seen.rows_after
    if not before:
        return result("restart_persistence", 0.0, f"0: no rows before the kill ({before!r})")
    if seen.boot.healthy_after_s is None:
        return result("restart_persistence", 0.0, f"0: the restart failed: {seen.boot.detail}")
    kept = min(after or 0, before)
    score = frac(kept, before)
    return result("restart_persistence", score, f"{g(score)}: {after} of {before} rows after "
                  "the restart")  # fmt: skip
