"""Tier HARD: conflict dance, durability, sync discipline, webhook ledger, efficiency."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.scoring import compound
from benchwright.suites.kit.checks import app_check, frac, g, result, unavailable
from benchwright.suites.vspro.checks._trace import list_requests, window
from benchwright.suites.vspro.checks.diagnostics import upsert_kind
from benchwright.suites.vspro.observations import Observations, body

ATOMIC = {"on_conflict_update": 1.0, "replace_or_ignore": 0.5}


@app_check("h_conflict_dance", needs=("conflict",))
def h_conflict_dance(obs: Observations, _s) -> CheckResult:
    """If-Match on every write 0.25; the one-shot 412 recovered by one retry with the fresh
    version 0.35; no retry beyond it 0.15; the always-412 note -> local 409, row unchanged 0.25."""
    c = obs["conflict"]
    t = c.trace
    row = body(c.row_after) or {}
    parts = {
        "If-Match on every write": t.patches > 0 and t.writes_without_if_match == 0,
        "412 recovered once with the fresh version": t.retried_once_with_fresh_version,
        "no retry storm": t.injected_412s > 0 and t.retries_after_412 <= 1,
        "persistent 412 -> 409, row unchanged": c.second is not None
        and c.second.status == 409
        and row.get("note") != c.second_note
        and "note" in row,
    }
    weights = dict(zip(parts, (0.25, 0.35, 0.15, 0.25), strict=True))
    score = sum(w for k, w in weights.items() if parts[k])
    missed = [k for k, ok in parts.items() if not ok]
    tail = f"; missed: {', '.join(missed)}" if missed else ""
    second = c.second.status if c.second else None
    return result("h_conflict_dance", score, f"{g(score)}: {t.patches} PATCHes, "
                  f"{t.writes_without_if_match} without If-Match, {t.retries_after_412} "
                  f"retries after the 412, second note -> {second}{tail}",
                  trace=t.as_dict())  # fmt: skip


def persists(obs: Observations) -> tuple[float, str]:
    """Any row lost across the kill is a cliff to 0 (§08); else surviving rows / total."""
    r = obs["restart"]
    if r.rows_after is None:
        return 0.0, "never healthy after the SIGKILL"
    if r.rows_before is not None and r.rows_after < r.rows_before:
        return 0.0, f"lost rows: {r.rows_before} -> {r.rows_after} (cliff)"
    return min(r.rows_after / obs.expect.total, 1.0), f"{r.rows_after} rows after the reboot"


def concurrent(obs: Observations) -> float:
    count = obs["concurrency"].health_count
    if count is None:
        return 0.0
    return max(0.0, 1 - abs(count - obs.expect.total) / obs.expect.total)


@app_check("h_durability", needs=("restart", "concurrency", "static"))
def h_durability(obs: Observations, _s) -> CheckResult:
    """gate (rows before the kill) x min(persists, concurrent, atomic 1/0.5/0)."""
    before = obs["restart"].rows_before
    if not before:
        return result("h_durability", 0.0, f"0: gate: no rows before the kill ({before})")
    kept, why = persists(obs)
    race = concurrent(obs)
    kind = upsert_kind(obs["static"].store_source)
    atomic = ATOMIC.get(kind, 0.0)
    score = compound(1.0, kept, race, atomic)
    return result("h_durability", score, f"{g(score)}: min(persists {kept:.4g} [{why}], "
                  f"concurrent {race:.4g} [count {obs['concurrency'].health_count}], atomic "
                  f"{atomic:g} [{kind}])", persists=kept, concurrent=race)  # fmt: skip


@app_check("h_sync_discipline", needs=("sync2", "mutation", "trace"))
def h_sync_discipline(obs: Observations, _s) -> CheckResult:
    """gate x min(cheap, idempotent, propagates): cheap = 0.5 conditional/requests + 0.5
    304s/requests in sync #2; idempotent = inserted 0 and total exact (0.5 if only the
    total); propagates = mutated statuses seen / 12."""
    call = obs["sync2"].call
    found = body(call)
    lists = list_requests(window(obs["trace"].lines, "sync2", "sync2done"))
    if found is None or not lists:
        return result("h_sync_discipline", 0.0, f"0: gate: sync #2 status {call.status}, "
                      f"{len(lists)} vendor list requests in its window")  # fmt: skip
    cond = sum(bool(x.get("if_none_match")) for x in lists)
    n304 = sum(x.get("status") == 304 for x in lists)
    cheap = 0.5 * cond / len(lists) + 0.5 * n304 / len(lists)
    total_ok = found.get("total") == obs.expect.total
    idem = 1.0 if total_ok and found.get("inserted") == 0 else 0.5 if total_ok else 0.0
    m = obs["mutation"]
    seen = sum(m.seen.get(pid) == want for pid, want in m.changed.items())
    prop = frac(seen, len(m.changed))
    score = compound(1.0, cheap, idem, prop)
    return result("h_sync_discipline", score, f"{g(score)}: min(cheap {cheap:.4g} [{cond}/"
                  f"{len(lists)} conditional, {n304} 304s], idempotent {idem:g} [inserted "
                  f"{found.get('inserted')}, total {found.get('total')}], propagates "
                  f"{prop:.4g} [{seen}/{len(m.changed)}])")  # fmt: skip


@app_check("h_webhook_ledger", needs=("webhook",))
def h_webhook_ledger(obs: Observations, _s) -> CheckResult:
    """gate (registered) x min(counters exact k/4, forged -> 401, touched rows right).

    The detail names the spec duty (§8.3/§8.4) each miss breaks: a genuine delivery not
    answered 200 (the raw-bytes signature), and for each wrong row the script's steps on
    that payment other than a plain apply (duplicate, repeated id with a newer version,
    stale, out of order, forged)."""
    w = obs["webhook"]
    hook = (w.health or {}).get("webhook")
    hook = hook if isinstance(hook, dict) else {}
    if w.script is None:
        return result("h_webhook_ledger", 0.0, f"0: gate: {w.refused}")
    if not hook.get("registered"):
        return result("h_webhook_ledger", 0.0, "0: gate: /api/health does not report a "
                      f"registered webhook ({hook.get('registered')!r})")  # fmt: skip
    want = w.script.get("expected_counters") or {}
    if not want:
        return unavailable("h_webhook_ledger", "the script reported no expected counters")
    exact = [k for k, v in want.items() if hook.get(k) == v]
    counters = frac(len(exact), len(want))
    deliveries = [r for r in w.script.get("results", []) if isinstance(r, dict)]
    forged = next((r for r in deliveries if r.get("kind") == "forged"), {})
    rejected = 1.0 if forged.get("status") == 401 else 0.0
    expected_rows = w.script.get("expected_rows") or {}
    bad = {
        pid: exp
        for pid, exp in expected_rows.items()
        if not (w.rows.get(pid) and all(w.rows[pid].get(k) == v for k, v in exp.items()))
    }
    rows_ok = 0.0 if bad else 1.0
    score = compound(1.0, counters, rejected, rows_ok)
    got = {k: hook.get(k) for k in want}
    rows_said = "right" if not bad else "wrong: " + ", ".join(bad)
    detail = (f"{g(score)}: min(counters {len(exact)}/{len(want)} {got} want {dict(want)}, "
              f"forged -> {forged.get('status')}, rows {rows_said})")  # fmt: skip
    broken = _broken_duties(deliveries, bad, w.rows)
    return result("h_webhook_ledger", score, detail + (f"; {broken}" if broken else ""))


def _broken_duties(deliveries: list[dict], bad: dict, rows: dict) -> str:
    """What the evidence shows broken (genuine events refused, wrong rows), then the spec
    duties of the script steps behind them, each duty once."""
    facts, duties = [], {}
    for r in deliveries:
        if r.get("kind") != "forged" and r.get("status") != 200:
            facts.append(f"{r.get('event_id')} ({r.get('kind')}) answered {r.get('status')}")
            duties.setdefault(r.get("duty"), r.get("event_id"))
    for pid, exp in bad.items():
        held = rows.get(pid) or {}
        facts.append(f"{pid} holds v{held.get('version')} {held.get('note')!r}, want "
                     f"v{exp.get('version')} {exp.get('note')!r}")  # fmt: skip
        steps = [r for r in deliveries if r.get("payment_id") == pid]
        tricky = [r for r in steps if r.get("kind") not in ("apply", "apply-raw")] or steps
        for r in tricky:
            duties.setdefault(r.get("duty"), r.get("event_id"))
    named = [f"{duty} [{event}]" for duty, event in duties.items() if duty]
    return "; ".join(facts) + (f"; duties: {' | '.join(named)}" if named else "")
