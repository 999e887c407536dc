"""Tier C (sync discipline, §12): how the vendor was consumed, read from the vendor's own
request trace and ledgers: the 192-page walk, the drop resume, Retry-After, the generation
rule, conditional re-syncs, webhook acknowledgements and the idempotency key."""

from __future__ import annotations

from typing import Any

from benchwright.model import CheckResult
from benchwright.services.meridian_v3 import Delivery, FaultFacts, StaleLedger, WalkLedger
from benchwright.suites.kit.checks import app_check, frac, g, result, unavailable
from benchwright.suites.sb7.checks._common import (
    PROBE,
    SENT,
    expected_total,
    ledger,
    listed,
    missing_fixture,
    never_ran,
    parts_row,
    sync_dead,
    vacuous,
)
from benchwright.suites.sb7.checks._read import sends_for, stale_masked
from benchwright.suites.sb7.observations import (
    RESYNC,
    SYNC1,
    VENDOR,
    WORKFLOW,
    FaultWindow,
    Observations,
    VendorObs,
)

PAGES = 192
DUPLICATE_COST = 10 / PAGES
"""What one page served twice costs the duplicate-page component (§12)."""
WAIT_SLACK_S = 0.05
"""Clock slack allowed when comparing a retry's wait with the advertised Retry-After."""


def _vendor(obs: Observations, check_id: str, what: str = "walk") -> Any:
    """The vendor's ledger ``what`` (``walk``, ``stale``, or ``""`` for all of them), or the
    row when it is missing: PROBE UNAVAILABLE."""
    gone = never_ran(obs, check_id, VENDOR, "the vendor's ledger read")
    if gone is not None:
        return gone
    found = getattr(obs[VENDOR], what) if what else obs[VENDOR]
    if found is None:
        return unavailable(check_id, f"{PROBE}no vendor request trace was recorded")
    return found


@app_check("c_paged_walk", needs=(SYNC1,))
def c_paged_walk(obs: Observations, _s) -> CheckResult:
    """Gate (a page served) x min(pages served / 192, 1 - undocumented-param fraction,
    1 - 10/192 per page served twice) over the first walk."""
    walk: WalkLedger | CheckResult = _vendor(obs, "c_paged_walk")
    if isinstance(walk, CheckResult):
        return walk
    if not walk.pages_served:
        if sync_dead(obs):
            return vacuous("c_paged_walk", "no page served")
        return result("c_paged_walk", 0.0, "0: the first walk was served no page")
    requests = max(len(obs[VENDOR].sync1_lines), walk.pages_served)
    twice = walk.pages_served - walk.distinct_pages
    odd = walk.undocumented_params
    parts = (min(walk.distinct_pages / PAGES, 1.0), 1.0 - frac(odd, requests),
             max(0.0, 1.0 - DUPLICATE_COST * twice))  # fmt: skip
    score = min(parts)
    return result("c_paged_walk", score, f"{g(score)}: {walk.distinct_pages}/{PAGES} pages "
                  f"served, {odd}/{requests} requests with undocumented params, {twice} "
                  f"pages served twice, {walk.restarts} restarts", pages=walk.distinct_pages,
                  duplicates=twice, undocumented=odd)  # fmt: skip


def _fault(
    obs: Observations, check_id: str, window: FaultWindow, facts: FaultFacts, name: str
) -> CheckResult | None:
    """The row when a first-walk fault cannot be graded: never armed (UNAVAILABLE), never
    fired (vacuous when the sync was dead, else UNAVAILABLE with the reason); None when it
    fired."""
    if not window.armed:
        return unavailable(check_id, f"{PROBE}the {name} was never armed")
    if window.fired and facts.fired:
        return None
    if sync_dead(obs):
        return vacuous(check_id, f"the {name} never fired")
    why = window.unreached or facts.detail or "no reason recorded"
    return unavailable(check_id, f"{PROBE}the {name} never fired: {why}")


@app_check("c_b1_drop_resume", needs=(SYNC1,))
def c_b1_drop_resume(obs: Observations, _s) -> CheckResult:
    """Thirds: the dropped cursor asked again next (resumed), no first-page restart after
    the drop, the walk completed."""
    walk: WalkLedger | CheckResult = _vendor(obs, "c_b1_drop_resume")
    if isinstance(walk, CheckResult):
        return walk
    facts = walk.drop
    if (row := _fault(obs, "c_b1_drop_resume", obs[SYNC1].b1, facts, "drop")) is not None:
        return row
    parts = {"resumed": facts.resumed_same_cursor, "no full restart": not facts.restarted,
             "walk completed": walk.completed}  # fmt: skip
    return parts_row("c_b1_drop_resume", parts, facts.detail or "the drop")


@app_check("c_b2_retry_after", needs=(SYNC1,))
def c_b2_retry_after(obs: Observations, _s) -> CheckResult:
    """Thirds: exactly one retry of the 500's cursor, sent no sooner than Retry-After, and
    the walk continued without a first-page restart."""
    walk: WalkLedger | CheckResult = _vendor(obs, "c_b2_retry_after")
    if isinstance(walk, CheckResult):
        return walk
    facts = walk.error
    if (row := _fault(obs, "c_b2_retry_after", obs[SYNC1].b2, facts, "500")) is not None:
        return row
    wait, took = facts.advertised_secs or 0.0, facts.waited_secs
    parts = {
        "single retry": facts.retries == 1,
        "waited Retry-After": took is not None and took >= wait - WAIT_SLACK_S,
        "continued": facts.retries >= 1 and not facts.restarted,
    }
    return parts_row("c_b2_retry_after", parts, facts.detail or "the 500")


@app_check("c_b5_generation_304", needs=(RESYNC,))
def c_b5_generation_304(obs: Observations, _s) -> CheckResult:
    """Thirds: exactly one unconditional refetch of the lied-about page, at most 3
    identical conditional requests (no loop), the masked mutations visible after."""
    stale: StaleLedger | CheckResult = _vendor(obs, "c_b5_generation_304", "stale")
    if isinstance(stale, CheckResult):
        return stale
    resync = obs[RESYNC]
    if not resync.b5.armed or not stale.armed:
        return unavailable("c_b5_generation_304", f"{PROBE}the lying 304 was never armed")
    if sync_dead(obs):
        return vacuous("c_b5_generation_304")
    if not (resync.b5.fired and stale.fired):
        return unavailable("c_b5_generation_304", f"{PROBE}the lying 304 never fired: "
                           f"{resync.b5.unreached or 'no reason recorded'}")  # fmt: skip
    stale_rows = stale_masked(stale.masked, resync.b5_after)
    parts = {
        "one unconditional refetch": stale.refetched_once,
        "no conditional loop": not stale.looped,
        "mutations visible": bool(resync.b5_after) and not stale_rows,
    }
    return parts_row("c_b5_generation_304", parts, f"{stale.unconditional_refetches} "
                     f"unconditional refetches, {stale.identical_conditionals} identical "
                     f"conditionals{listed('stale: ', stale_rows)}")  # fmt: skip


@app_check("c_conditional_resync", needs=(SYNC1,))
def c_conditional_resync(obs: Observations, _s) -> CheckResult:
    """(conditional + documented unconditional) / re-sync list requests: the one refetch
    after the lying 304 and first visits to pages beyond the load's are documented."""
    vendor: VendorObs | CheckResult = _vendor(obs, "c_conditional_resync", "")
    if isinstance(vendor, CheckResult):
        return vendor
    lines = vendor.resync_lines
    if not lines:
        if sync_dead(obs):
            return vacuous("c_conditional_resync", "no re-sync")
        return result("c_conditional_resync", 0.0, "0: no re-sync request observed")
    conditional = sum(line.get("if_none_match") is not None for line in lines)
    refetch = min(1, vendor.stale.unconditional_refetches) if vendor.stale is not None else 0
    allowed = refetch + _new_pages(lines, expected_total(obs))
    score = min(1.0, frac(conditional + allowed, len(lines)))
    not_modified = sum(line.get("status") == 304 for line in lines)
    return result("c_conditional_resync", score, f"{g(score)}: {conditional} conditional + "
                  f"{allowed} documented unconditional of {len(lines)} re-sync requests "
                  f"({not_modified} answered 304)", not_modified=not_modified)  # fmt: skip


def _new_pages(lines: tuple, load_total: int) -> int:
    """Unconditional first visits to a page that did not exist at load."""
    seen: set = set()
    found = 0
    for line in lines:
        offset = line.get("offset")
        if isinstance(offset, int) and offset >= load_total and offset not in seen:
            found += line.get("if_none_match") is None
        seen.add(offset)
    return found


@app_check("c_webhook_discipline", needs=(SYNC1,))
def c_webhook_discipline(obs: Observations, _s) -> CheckResult:
    """0.6 x events acknowledged 2xx (any attempt) + 0.4 when the forged delivery was
    answered exactly 401; no acknowledged delivery at all 0."""
    if obs.fixture is None:
        return missing_fixture("c_webhook_discipline")
    deliveries: tuple[Delivery, ...] | CheckResult = _vendor(obs, "c_webhook_discipline",
                                                             "deliveries")  # fmt: skip
    if isinstance(deliveries, CheckResult):
        return deliveries
    events: dict[str, bool] = {}
    for d in deliveries:
        if d.kind in SENT:
            events[d.event_id] = events.get(d.event_id, False) or d.acked
    if not any(events.values()):
        if sync_dead(obs):
            return vacuous("c_webhook_discipline", "no delivery accepted")
        return result("c_webhook_discipline", 0.0, f"0: none of {len(events)} events "
                      "acknowledged 2xx")  # fmt: skip
    forged = [d.status for d in deliveries if d.kind == "forged"]
    bounced = bool(forged) and all(s == 401 for s in forged)
    acked = sum(events.values())
    score = 0.6 * frac(acked, len(events)) + 0.4 * bounced
    return result("c_webhook_discipline", score, f"{g(score)}: {acked}/{len(events)} events "
                  f"acknowledged 2xx; forged delivery answered {forged or 'never delivered'}",
                  acked=acked, events=len(events), forged=forged)  # fmt: skip


@app_check("c_send_idempotency", needs=(WORKFLOW,))
def c_send_idempotency(obs: Observations, _s) -> CheckResult:
    """Halves: every ``POST /v3/payments`` carried an Idempotency-Key; the interrupted
    send's retry reused the key (when no retry was needed, all-keyed stands in). No send
    after an acknowledged approve 0; no create records UNAVAILABLE."""
    gone = never_ran(obs, "c_send_idempotency", VENDOR, "the vendor's ledger read")
    if gone is not None:
        return gone
    creates = [c for c in ledger(obs).creates if not c.internal]
    flow = obs[WORKFLOW]
    if not creates:
        if flow.a2.fired:
            why = "no POST /v3/payments ever reached the vendor (the SEND is missing)"
            return result("c_send_idempotency", 0.0, f"0: an approve was acknowledged but {why}")
        return unavailable("c_send_idempotency", f"{PROBE}no POST /v3/payments in the trace")
    keyed = all(c.key for c in creates)
    sends = sends_for(creates, flow.a2_payload)
    keys = {c.key for c in sends}
    reused = keyed if len(sends) <= 1 else len(keys) == 1 and "" not in keys
    score = 0.5 * keyed + 0.5 * reused
    return result("c_send_idempotency", score, f"{g(score)}: {sum(bool(c.key) for c in creates)}/"
                  f"{len(creates)} creates keyed; the approved draft's {len(sends)} sends used "
                  f"{len(keys)} key(s)", keyed=keyed, reused=reused)  # fmt: skip
