"""Tier R (resilience, §12): the seeded fault schedule survived: the kill mid-sync, the
vendor-down boot, the outbox kill, the notifier partition, exactly-once on the notifier's
durable set, selective materialization, no row lost to a kill, no doubled effect, the
lying 304, and workflow states durable across kills."""

from __future__ import annotations

from collections import Counter

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, frac, g, is_int, result, unavailable
from benchwright.suites.sb7.checks._common import (
    CROSSING,
    NOTIFYING,
    PROBE,
    down_or_broken,
    events_of,
    listed,
    parts_row,
    phase,
    sync_dead,
    vacuous,
)
from benchwright.suites.sb7.checks._read import ledger_kills, sends_for, stale_masked
from benchwright.suites.sb7.observations import (
    BOOT,
    FINAL,
    PARTITION,
    RESYNC,
    VENDOR,
    WORKFLOW,
    FaultWindow,
    Json,
    KillRecord,
    Observations,
)

BOOT_S = 10.0
"""The listening budget the vendor-down boot is held to."""
WRITE_S = 3.0
"""A write answered later than this while the notifier was down was blocked on it."""
LIVE_S = 5.0
"""The feed is live again within this long of the heal."""
SUBMITTED_OK = ("submitted", "approved", "sent")
APPROVED_OK = ("approved", "sent")


def _window(obs: Observations, check_id: str, window: FaultWindow, name: str) -> CheckResult | None:
    """The row when a kill window cannot be graded: never armed (UNAVAILABLE); armed but
    never fired (vacuous when the sync was dead, else UNAVAILABLE with the reason)."""
    if not window.armed:
        return unavailable(check_id, f"{PROBE}the {name} window was never orchestrated")
    if window.fired:
        return None
    if sync_dead(obs):
        return vacuous(check_id, f"the {name} kill was never reached")
    return unavailable(check_id, f"{PROBE}the {name} kill was never reached: "
                       f"{window.unreached or 'no reason recorded'}")  # fmt: skip


@app_check("r_b3_sigkill_resync", needs=(RESYNC,))
def r_b3_sigkill_resync(obs: Observations, _s) -> CheckResult:
    """Thirds: ledgerd restarted after the kill mid-sync, the re-sync converged to the
    vendor's collection size, and no row is held twice."""
    res = obs[RESYNC]
    if (row := _window(obs, "r_b3_sigkill_resync", res.b3, "B3")) is not None:
        return row
    ids = res.b3_ids
    parts = {
        "restarted": res.b3_kill is not None and res.b3_kill.restarted,
        "converged": res.b3_total is not None and res.b3_total == res.b3_expected,
        "no duplicates": ids is not None and len(ids) == len(set(ids)),
    }
    return parts_row("r_b3_sigkill_resync", parts, f"after the kill: total {res.b3_total!r} "
                     f"(vendor {res.b3_expected!r})")  # fmt: skip


@app_check("r_b4_vendor_down_boot", needs=(BOOT,))
def r_b4_vendor_down_boot(obs: Observations, _s) -> CheckResult:
    """Quarters: bound within 10 s with the vendor down, served local data meanwhile, never
    crashed, completed the first sync unprompted once the vendor returned."""
    b4 = obs[BOOT].b4
    if not b4.armed:
        return unavailable("r_b4_vendor_down_boot", f"{PROBE}the vendor-down window was never "
                           "armed")  # fmt: skip
    parts = {
        "bound_in_10s": b4.bound_after_s is not None and b4.bound_after_s <= BOOT_S,
        "served_while_down": b4.served_while_down,
        "no_crash": not b4.crashed,
        "recovered_unattended": b4.recovered_unattended,
    }
    return parts_row("r_b4_vendor_down_boot", parts, f"vendor down {b4.down_s:g} s")


def _processed(obs: Observations) -> tuple[int, ...] | None:
    final = phase(obs, FINAL)
    return final.notifier.processed if final is not None else None


def _notifications(obs: Observations) -> tuple[Json, ...] | None:
    final = phase(obs, FINAL)
    return final.notifier.notifications if final is not None else None


@app_check("r_b6_outbox_atomic", needs=(PARTITION,))
def r_b6_outbox_atomic(obs: Observations, _s) -> CheckResult:
    """Quarters: outbox rows pending before the kill, the relay resumed after the restart
    (pending drained), each pending seq processed exactly once, none lost."""
    part = obs[PARTITION]
    if (row := _window(obs, "r_b6_outbox_atomic", part.b6, "B6")) is not None:
        return row
    pending = part.b6_pending_seqs
    processed = Counter(_processed(obs) or ())
    per_seq = Counter(n.get("event_seq") for n in _notifications(obs) or () if isinstance(n, dict))
    after = part.b6_outbox_after or {}
    parts = {
        "pending before kill": (part.b6_pending_before or 0) > 0 and bool(pending),
        "resumed": part.b6_kill is not None and part.b6_kill.restarted
        and after.get("pending") == 0,
        "exactly once": bool(pending) and all(processed[s] == 1 and per_seq[s] <= 1
                                              for s in pending),
        "none lost": bool(pending) and all(processed[s] >= 1 for s in pending),
    }  # fmt: skip
    return parts_row("r_b6_outbox_atomic", parts, f"{len(pending)} outbox seqs pending at the "
                     f"kill, pending {after.get('pending')!r} after the heal")  # fmt: skip


@app_check("r_b7_partition", needs=(PARTITION,))
def r_b7_partition(obs: Observations, _s) -> CheckResult:
    """Fifths: writes never blocked on the dead notifier, /api/outbox/status said down with
    pending growing, the feed degraded, catch-up in seq order, the feed live within 5 s of
    the heal. The feed facts are the browser's; until it runs (issue 29) they are read
    from the proxy the feed polls (502 while down, 200 again after the heal)."""
    part = obs[PARTITION]
    if not part.armed:
        return unavailable("r_b7_partition", f"{PROBE}the partition was never orchestrated")
    down = [s for s in part.outbox if isinstance(s, dict) and s.get("notifier") == "down"]
    pendings = [s.get("pending") for s in down if is_int(s.get("pending"))]
    browser = part.ui_states is not None
    degraded = "degraded" in part.ui_states if browser else _proxy_502(part.proxy)
    live_s = part.ui_live_after_s if browser else part.live_after_s
    parts = {
        "writes never blocked": bool(part.writes) and all(
            w.status is not None and 200 <= w.status < 300 and w.elapsed_s <= WRITE_S
            for w in part.writes),
        "status down + pending": len(pendings) >= 2 and pendings[-1] > pendings[0],
        "feed degraded": degraded,
        "catch-up in seq order": _in_order(part.catch_up),
        "live within 5 s": live_s is not None and live_s <= LIVE_S,
    }  # fmt: skip
    source = "browser feed" if browser else "API stand-in for the feed (browser: issue 29)"
    return parts_row("r_b7_partition", parts, f"{len(part.writes)} writes during the outage, "
                     f"pending {pendings}, {source}")  # fmt: skip


def _proxy_502(proxy: object) -> bool:
    return getattr(proxy, "status", None) == 502


def _in_order(snapshots: tuple[tuple[int, ...], ...]) -> bool:
    """Each snapshot of the processed outage seqs is a prefix of the final seq order: no
    later seq arrived before an earlier one."""
    if not snapshots or not snapshots[-1]:
        return False
    order = sorted(snapshots[-1])
    return all(sorted(s) == order[: len(s)] for s in snapshots)


def _crossing(obs: Observations) -> list[int]:
    """The seqs of the app's outbox-crossing events (its own ledger)."""
    return [e["seq"] for e in events_of(obs, CROSSING) if is_int(e.get("seq"))]


@app_check("r_notifier_exactly_once", needs=(FINAL,))
def r_notifier_exactly_once(obs: Observations, _s) -> CheckResult:
    """0.5 no seq twice in the durable processed set + 0.4 x the outbox-crossing seqs it
    covers + 0.1 the notifier's health exposes a duplicate counter. An empty set after the
    partition ran 0; the set never read UNAVAILABLE."""
    final = obs[FINAL]
    processed = final.notifier.processed
    if processed is None:
        return unavailable("r_notifier_exactly_once", f"{PROBE}/notify/processed was never read")
    exercised = getattr(phase(obs, PARTITION), "armed", False)
    if not processed and exercised:
        return result("r_notifier_exactly_once", 0.0, "0: the durable processed set is empty "
                      "after the partition ran")  # fmt: skip
    twice = sorted(s for s, n in Counter(processed).items() if n > 1)
    want = set(_crossing(obs))
    covered = frac(len(want & set(processed)), len(want))
    counter = is_int((final.notifier.health or {}).get("duplicate"))
    score = 0.5 * (not twice) + 0.4 * covered + 0.1 * counter
    return result("r_notifier_exactly_once", score, f"{g(score)}: {len(processed)} processed, "
                  f"{len(twice)} seqs twice, {len(want & set(processed))}/{len(want)} crossing "
                  f"seqs covered, duplicate counter {'present' if counter else 'absent'}"
                  f"{listed('twice: ', [str(s) for s in twice])}")  # fmt: skip


@app_check("r_notification_multiset", needs=(FINAL,))
def r_notification_multiset(obs: Observations, _s) -> CheckResult:
    """The fraction of kinds (over expected and observed) whose notification count equals
    the app's committed events of that type; any payment.sent notification halves it."""
    rows = _notifications(obs)
    if rows is None:
        return unavailable("r_notification_multiset", f"{PROBE}the notifications were never read")
    expected = Counter(e["type"] for e in events_of(obs, NOTIFYING))
    source = "the app's ledger"
    if not expected and obs.truth is not None and obs.truth.notifications:
        expected, source = Counter(obs.truth.notifications), "the fixture's schedule"
    if not expected:
        return unavailable("r_notification_multiset", f"{PROBE}no committed events to derive "
                           "the expected notifications from")  # fmt: skip
    seen = Counter(n.get("kind") for n in rows if isinstance(n, dict))
    leaked = seen.pop("payment.sent", 0)
    kinds = sorted(set(expected) | set(seen), key=str)
    exact = [k for k in kinds if seen[k] == expected[k]]
    score = frac(len(exact), len(kinds)) * (0.5 if leaked else 1.0)
    wrong = [f"{k} {seen[k]} != {expected[k]}" for k in kinds if k not in exact]
    tail = f"; {leaked} payment.sent rows leaked (x0.5)" if leaked else ""
    return result("r_notification_multiset", score, f"{g(score)}: {len(exact)}/{len(kinds)} "
                  f"kinds exact against {source}{listed('', wrong)}{tail}")  # fmt: skip


def _kills(obs: Observations) -> list[KillRecord]:
    """Every seeded kill with counts: the ledger kills and the notifier's."""
    kills = ledger_kills(obs)
    notifier = getattr(phase(obs, PARTITION), "notifier_kill", None)
    return kills + ([notifier] if notifier is not None else [])


@app_check("r_no_row_loss")
def r_no_row_loss(obs: Observations, _s) -> CheckResult:
    """Every seeded kill left at least as many rows as it found: binary. A run that never
    had rows before a kill earns nothing (0, attributed to sync_completeness); no kill
    ever ran UNAVAILABLE."""
    if (gone := down_or_broken(obs, "r_no_row_loss", RESYNC, PARTITION, WORKFLOW)) is not None:
        return gone
    kills = _kills(obs)
    if not kills:
        return unavailable("r_no_row_loss", f"{PROBE}the kill matrix never ran")
    if sync_dead(obs) or not any((k.before or 0) > 0 for k in kills):
        return vacuous("r_no_row_loss", "no rows before any kill")
    lost = [k for k in kills if (k.before or 0) > 0 and not (k.after is not None
                                                             and k.after >= k.before)]  # fmt: skip
    score = 0.0 if lost else 1.0
    said = ", ".join(f"{k.name} {k.before}->{k.after}" for k in kills)
    kept = min(min(k.after or 0, k.before) / k.before for k in kills if (k.before or 0) > 0)
    return result("r_no_row_loss", score, f"{g(score)}: {len(lost)} of {len(kills)} kills lost "
                  f"rows ({said})", lost=[k.name for k in lost], rows_kept=kept)  # fmt: skip


@app_check("r_no_dupe_effect")
def r_no_dupe_effect(obs: Observations, _s) -> CheckResult:
    """No observable leg doubled: at most one vendor payment created for the graded
    approval, no event_seq on two notification rows, no (type, payment, version) effect
    twice in the ledger: binary; no leg observable UNAVAILABLE."""
    if (gone := down_or_broken(obs, "r_no_dupe_effect", FINAL)) is not None:
        return gone
    legs: dict[str, list[str]] = {}
    vendor, flow = phase(obs, VENDOR), phase(obs, WORKFLOW)
    if vendor is not None and vendor.creates is not None and flow is not None and flow.a2.fired:
        made = {c.payment_id for c in sends_for(vendor.creates, dict(flow.a2_payload))
                if c.payment_id and not c.replay}  # fmt: skip
        legs["vendor payments for the approval"] = sorted(made) if len(made) > 1 else []
    rows = _notifications(obs)
    if rows is not None:
        seqs = Counter(n.get("event_seq") for n in rows if isinstance(n, dict))
        legs["notification event_seq"] = [str(s) for s, n in seqs.items() if n > 1]
    final = phase(obs, FINAL)
    if final is not None and final.events.status == 200:
        effects = events_of(obs, ("payment.updated", "payment.sent"))
        keys = Counter((e["type"], e.get("payment_id"), e.get("version")) for e in effects)
        legs["ledger effects"] = [f"{t} {p} v{v}" for (t, p, v), n in keys.items() if n > 1]
    if not legs:
        return unavailable("r_no_dupe_effect", f"{PROBE}no dupe-effect evidence was gathered")
    if sync_dead(obs):
        return vacuous("r_no_dupe_effect")
    doubled = {leg: found for leg, found in legs.items() if found}
    score = 0.0 if doubled else 1.0
    said = "; ".join(f"{leg}: {', '.join(found[:3])}" for leg, found in doubled.items())
    return result("r_no_dupe_effect", score, f"{g(score)}: {len(legs)} legs observed"
                  f"{'; doubled ' + said if said else ', none doubled'}",
                  legs=sorted(legs))  # fmt: skip


@app_check("r_cache_truth", needs=(RESYNC,))
def r_cache_truth(obs: Observations, _s) -> CheckResult:
    """After the lying 304 the app's rows reflect every mutation committed behind it:
    binary. B5 never armed or fired, or no post-B5 snapshot, UNAVAILABLE; a dead sync
    vacuous."""
    res = obs[RESYNC]
    if (row := _window(obs, "r_cache_truth", res.b5, "B5")) is not None:
        return row
    if sync_dead(obs):
        return vacuous("r_cache_truth")
    rows = {s.payment_id: s.row for s in res.b5_after if isinstance(s.row, dict)}
    if not rows or not res.b5_masked:
        return unavailable("r_cache_truth", f"{PROBE}no post-B5 snapshot of the masked rows")
    stale = stale_masked(res.b5_masked, res.b5_after)
    score = 0.0 if stale else 1.0
    kept = len(res.b5_masked) - len(stale)
    return result("r_cache_truth", score, f"{g(score)}: {kept}/{len(res.b5_masked)} masked "
                  f"mutations reflected after the 304{listed('stale served as fresh: ', stale)}",
                  mutations_reflected=frac(kept, len(res.b5_masked)))  # fmt: skip


@app_check("r_workflow_durability")
def r_workflow_durability(obs: Observations, _s) -> CheckResult:
    """Both kill placements find the acknowledged state: A1 (after submit's 200) still
    submitted or later, A2 (after approve's 200, send in flight) approved or sent: binary.
    No drafts surface: 0 (absent). Neither placement fired: UNAVAILABLE."""
    if (gone := down_or_broken(obs, "r_workflow_durability", PARTITION, WORKFLOW)) is not None:
        return gone
    part, flow = phase(obs, PARTITION), phase(obs, WORKFLOW)
    if getattr(part, "drafts_absent", False) or getattr(flow, "drafts_absent", False):
        return result("r_workflow_durability", 0.0, "0: the drafts endpoints, a required "
                      "surface, are absent", absent_surface=True)  # fmt: skip
    checks = []
    if part is not None and part.a1.fired:
        checks.append(("A1", part.a1_state_after, SUBMITTED_OK))
    if flow is not None and flow.a2.fired:
        checks.append(("A2", flow.a2_state_after, APPROVED_OK))
    if not checks:
        return unavailable("r_workflow_durability", f"{PROBE}neither kill placement fired")
    reverted = [f"{n} found {state!r}" for n, state, ok in checks if state not in ok]
    score = 0.0 if reverted else 1.0
    said = ", ".join(f"{n} {state}" for n, state, _ok in checks)
    return result("r_workflow_durability", score, f"{g(score)}: after the kills: {said}"
                  f"{listed('reverted: ', reverted)}",
                  states_intact=frac(len(checks) - len(reverted), len(checks)))  # fmt: skip
