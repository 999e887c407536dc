"""Tier C (sync discipline, §12): how the vendor was consumed, read from the vendor's own
request trace and ledgers: the 192-page walk, the drop resume, Retry-After, the generation
rule, conditional re-syncs, webhook acknowledgements and the idempotency key."""

from __future__ import annotations

from collections.abc import Sequence

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, frac, g, result, unavailable
from benchwright.suites.sb7.checks._common import (
    PROBE,
    listed,
    missing_fixture,
    parts_row,
    sync_dead,
    vacuous,
    vendor_part,
)
from benchwright.suites.sb7.checks._read import sends_for, stale_masked
from benchwright.suites.sb7.observations import (
    RESYNC,
    SYNC1,
    VENDOR,
    WORKFLOW,
    FaultWindow,
    ListRequest,
    Observations,
)

PAGES = 192
DUPLICATE_COST = 10 / PAGES
"""What one page served twice costs the duplicate-page component (§12)."""
WAIT_SLACK_S = 0.05
"""Clock slack allowed when comparing a retry's wait with the advertised Retry-After."""
IDENTICAL_MAX = 3
"""More identical conditional requests in a row than this is the infinite-loop bug."""


def _no_trace(obs: Observations, check_id: str) -> CheckResult | None:
    """The row when the vendor's trace is missing (PROBE UNAVAILABLE), else None."""
    found = vendor_part(obs, check_id, "trace")
    return found if isinstance(found, CheckResult) else None


@app_check("c_paged_walk", needs=(SYNC1,))
def c_paged_walk(obs: Observations, _s) -> CheckResult:
    """Gate (a page served) x min(pages served / 192, 1 - undocumented-param fraction,
    1 - 10/192 per page served twice) over the first sync's list requests."""
    if (gone := _no_trace(obs, "c_paged_walk")) is not None:
        return gone
    walk = obs[VENDOR].trace.sync1
    if not walk:
        if sync_dead(obs):
            return vacuous("c_paged_walk", "no list requests")
        return result("c_paged_walk", 0.0, "0: the first sync made no list request")
    served = [r.page for r in walk if r.status == 200 and r.page is not None]
    if not served:
        return result("c_paged_walk", 0.0, f"0: {len(walk)} list requests, no page served")
    pages = len(set(served))
    twice = len(served) - pages
    odd = [r for r in walk if set(r.params) - {"cursor"}]
    parts = (min(pages / PAGES, 1.0), 1.0 - frac(len(odd), len(walk)),
             max(0.0, 1.0 - DUPLICATE_COST * twice))  # fmt: skip
    score = min(parts)
    params = sorted({p for r in odd for p in r.params} - {"cursor"})
    return result("c_paged_walk", score, f"{g(score)}: {pages}/{PAGES} pages served, "
                  f"{len(odd)}/{len(walk)} requests with undocumented params, {twice} pages "
                  f"served twice{listed('params: ', params)}", pages=pages, duplicates=twice,
                  undocumented=len(odd))  # fmt: skip


def _fault_row(
    obs: Observations, check_id: str, window: FaultWindow, walk: Sequence[ListRequest], fault: str
) -> CheckResult | int:
    """The index of the request that carried ``fault``, or the row when it cannot be graded:
    never armed (UNAVAILABLE), unreached (vacuous when the sync was dead, else UNAVAILABLE
    with the reason)."""
    if not window.armed:
        return unavailable(check_id, f"{PROBE}the {fault} window was never armed")
    at = next((i for i, r in enumerate(walk) if r.fault == fault), None)
    if window.fired and at is not None:
        return at
    if sync_dead(obs):
        return vacuous(check_id, f"the {fault} never fired")
    why = window.unreached or "the vendor's trace holds no request carrying it"
    return unavailable(check_id, f"{PROBE}the {fault} never fired: {why}")


def _restarted(after: Sequence[ListRequest]) -> bool:
    """A first-page request (no cursor) that no 410 asked for: a restart of committed work."""
    for prev, r in zip((None, *after), after, strict=False):
        if r.cursor is None and not (prev is not None and prev.status == 410):
            return True
    return False


def _first_walk_fault(
    obs: Observations, check_id: str, window: FaultWindow, fault: str
) -> CheckResult | tuple[ListRequest, Sequence[ListRequest]]:
    """The first walk's request that carried ``fault`` and the requests after it, or the
    row when there is none to grade (no trace, never armed, never fired)."""
    if (gone := _no_trace(obs, check_id)) is not None:
        return gone
    walk = obs[VENDOR].trace.sync1
    at = _fault_row(obs, check_id, window, walk, fault)
    return at if isinstance(at, CheckResult) else (walk[at], walk[at + 1 :])


@app_check("c_b1_drop_resume", needs=(SYNC1,))
def c_b1_drop_resume(obs: Observations, _s) -> CheckResult:
    """Thirds: the dropped cursor retried next (resumed), no first-page restart after the
    drop, the walk completed after it."""
    found = _first_walk_fault(obs, "c_b1_drop_resume", obs[SYNC1].b1, "drop")
    if isinstance(found, CheckResult):
        return found
    dropped, after = found
    parts = {
        "resumed": bool(after) and after[0].cursor == dropped.cursor,
        "no full restart": not _restarted(after),
        "walk completed": any(r.last and r.status == 200 for r in after),
    }
    return parts_row("c_b1_drop_resume", parts, f"drop at page cursor {dropped.cursor!r}")


@app_check("c_b2_retry_after", needs=(SYNC1,))
def c_b2_retry_after(obs: Observations, _s) -> CheckResult:
    """Thirds: exactly one retry of the 500's cursor, sent no sooner than Retry-After, and
    the walk continued without a first-page restart."""
    found = _first_walk_fault(obs, "c_b2_retry_after", obs[SYNC1].b2, "http500")
    if isinstance(found, CheckResult):
        return found
    failed, after = found
    retries = [r for r in after if r.cursor == failed.cursor]
    wait = failed.retry_after_s or 0.0
    waited = bool(retries) and retries[0].at - failed.at >= wait - WAIT_SLACK_S
    parts = {
        "single retry": len(retries) == 1 and retries[0].status == 200,
        "waited Retry-After": waited,
        "continued": not _restarted(after) and any(r.status == 200 for r in after),
    }
    took = f"{retries[0].at - failed.at:.2f} s" if retries else "no retry"
    return parts_row("c_b2_retry_after", parts, f"500 with Retry-After {wait:g} s, retry after "
                   f"{took}, {len(retries)} requests for that cursor")  # fmt: skip


def _longest_identical(requests: Sequence[ListRequest]) -> int:
    """The longest run of consecutive identical conditional requests."""
    best = run = 0
    prev: tuple | None = None
    for r in requests:
        key = (r.cursor, r.if_none_match) if r.if_none_match is not None else None
        run = run + 1 if key is not None and key == prev else (1 if key is not None else 0)
        best, prev = max(best, run), key
    return best


@app_check("c_b5_generation_304", needs=(RESYNC,))
def c_b5_generation_304(obs: Observations, _s) -> CheckResult:
    """Thirds: exactly one unconditional refetch of the lied-about page after the 304, at
    most 3 identical conditional requests in a row, the masked mutations visible after. Never
    armed or fired UNAVAILABLE; a dead sync vacuous."""
    if (gone := _no_trace(obs, "c_b5_generation_304")) is not None:
        return gone
    resync = obs[RESYNC]
    if resync.b5.armed and sync_dead(obs):
        return vacuous("c_b5_generation_304")
    at = _fault_row(obs, "c_b5_generation_304", resync.b5, resync.b5_requests, "stale304")
    if isinstance(at, CheckResult):
        return at
    lied, after = resync.b5_requests[at], resync.b5_requests[at + 1 :]
    refetches = [r for r in after if r.cursor == lied.cursor and r.if_none_match is None]
    longest = _longest_identical(resync.b5_requests)
    stale = stale_masked(resync.b5_masked, resync.b5_after)
    hit = len(resync.b5_masked) - len(stale)
    parts = {
        "one unconditional refetch": len(refetches) == 1,
        "no conditional loop": longest <= IDENTICAL_MAX,
        "mutations visible": bool(resync.b5_after) and not stale,
    }
    return parts_row("c_b5_generation_304", parts, f"{len(refetches)} unconditional refetches, "
                   f"{longest} identical conditionals in a row, {hit}/{len(resync.b5_masked)} "
                   "masked mutations visible")  # fmt: skip


@app_check("c_conditional_resync", needs=(SYNC1, RESYNC))
def c_conditional_resync(obs: Observations, _s) -> CheckResult:
    """(conditional + documented unconditional) / re-sync requests: the B5 refetch and
    first visits to pages beyond the load's are the documented unconditionals."""
    if (gone := _no_trace(obs, "c_conditional_resync")) is not None:
        return gone
    trace = obs[VENDOR].trace
    requests = trace.resync
    if not requests:
        if sync_dead(obs):
            return vacuous("c_conditional_resync", "no re-sync")
        return result("c_conditional_resync", 0.0, "0: no re-sync request observed")
    conditional = sum(r.if_none_match is not None for r in requests)
    allowed = _allowed_unconditional(requests, trace.load_pages)
    score = frac(conditional + allowed, len(requests))
    not_modified = sum(r.status == 304 for r in requests)
    return result("c_conditional_resync", score, f"{g(score)}: {conditional} conditional + "
                  f"{allowed} documented unconditional of {len(requests)} re-sync requests "
                  f"({not_modified} answered 304)", not_modified=not_modified)  # fmt: skip


def _allowed_unconditional(requests: Sequence[ListRequest], load_pages: int) -> int:
    """Unconditional requests the docs allow: the one refetch after a stale 304 (same
    cursor, next request) and the first visit to a page that did not exist at load."""
    allowed, visited = 0, set()
    for prev, r in zip((None, *requests), requests, strict=False):
        if r.if_none_match is None:
            after_lie = prev is not None and prev.fault == "stale304" and prev.cursor == r.cursor
            new_page = r.page is not None and r.page >= load_pages and r.page not in visited
            allowed += after_lie or new_page
        if r.page is not None:
            visited.add(r.page)
    return allowed


@app_check("c_webhook_discipline", needs=(SYNC1,))
def c_webhook_discipline(obs: Observations, _s) -> CheckResult:
    """0.6 x events acknowledged 2xx (any attempt) + 0.4 when the forged delivery was
    answered exactly 401; no acknowledged delivery at all 0."""
    if obs.truth is None:
        return missing_fixture("c_webhook_discipline")
    deliveries = vendor_part(obs, "c_webhook_discipline", "deliveries")
    if isinstance(deliveries, CheckResult):
        return deliveries
    events: dict[str, bool] = {}
    for d in deliveries:
        if not d.forged:
            events[d.event_id] = events.get(d.event_id, False) or _acked(d.status)
    if not any(events.values()):
        if sync_dead(obs):
            return vacuous("c_webhook_discipline", "no delivery accepted")
        return result("c_webhook_discipline", 0.0, f"0: none of {len(events)} events "
                      "acknowledged 2xx")  # fmt: skip
    forged = [d.status for d in deliveries if d.forged]
    bounced = bool(forged) and all(s == 401 for s in forged)
    acked = sum(events.values())
    score = 0.6 * frac(acked, len(events)) + 0.4 * bounced
    return result("c_webhook_discipline", score, f"{g(score)}: {acked}/{len(events)} events "
                  f"acknowledged 2xx; forged delivery answered {forged or 'never delivered'}",
                  acked=acked, events=len(events), forged=forged)  # fmt: skip


def _acked(status: int | None) -> bool:
    return status is not None and 200 <= status < 300


@app_check("c_send_idempotency", needs=(WORKFLOW,))
def c_send_idempotency(obs: Observations, _s) -> CheckResult:
    """Halves: every ``POST /v3/payments`` carried an Idempotency-Key; the interrupted
    send's retry reused the key (when no retry was needed, all-keyed stands in). No send
    after an acknowledged approve 0; no create records UNAVAILABLE."""
    creates = vendor_part(obs, "c_send_idempotency", "creates")
    if isinstance(creates, CheckResult):
        return creates
    flow = obs[WORKFLOW]
    if not creates:
        if flow.a2.fired:
            why = "no POST /v3/payments ever reached the vendor (the SEND is missing)"
            return result("c_send_idempotency", 0.0, f"0: an approve was acknowledged but {why}")
        return unavailable("c_send_idempotency", f"{PROBE}no POST /v3/payments in the trace")
    keyed = all(c.idempotency_key for c in creates)
    sends = sends_for(creates, dict(flow.a2_payload))
    keys = {c.idempotency_key for c in sends}
    reused = keyed if len(sends) <= 1 else len(keys) == 1 and None not in keys
    score = 0.5 * keyed + 0.5 * reused
    return result("c_send_idempotency", score, f"{g(score)}: "
                  f"{sum(bool(c.idempotency_key) for c in creates)}/{len(creates)} creates "
                  f"keyed; the approved draft's {len(sends)} sends used {len(keys)} key(s)",
                  keyed=keyed, reused=reused)  # fmt: skip
