"""Tier X (consistency ledger, §12), the money and trust rows: pair conservation through
the refund window, terminal conservation, no cross-currency sum, the conservation
residual after loss/dupe attribution, no lost acknowledged write, and the webhook traps."""

from __future__ import annotations

from collections import Counter
from typing import Any

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, frac, g, is_int, result
from benchwright.suites.kit.wire import body
from benchwright.suites.sb7.checks import _refund, _truth
from benchwright.suites.sb7.checks._common import (
    commits,
    ledger_gate,
    listed,
    parts_row,
    payment_events,
    phase,
    vendor_part,
    vendor_state,
)
from benchwright.suites.sb7.observations import FINAL, READS, SYNC1, Json, Observations


@app_check("x_m2_pair_conservation")
def x_m2_pair_conservation(obs: Observations, _s) -> CheckResult:
    """Any confirmed half-applied snapshot 0; else the fraction of the refund window's
    snapshots whose reversals block one state of the group explains."""
    found = _refund.evidence(obs, "x_m2_pair_conservation")
    if isinstance(found, CheckResult):
        return found
    if not found:
        return result("x_m2_pair_conservation", 0.0, "0: no summary snapshot in the refund "
                      "window")  # fmt: skip
    half = sum(s.confirmed_half for s in found)
    kept = sum(s.shows != _refund.BROKEN for s in found)
    score = 0.0 if half else frac(kept, len(found))
    why = f"{half} confirmed half states" if half else f"{kept}/{len(found)} snapshots conserved"
    return result("x_m2_pair_conservation", score, f"{g(score)}: {why}", half=half, kept=kept)


def blocks(summary: Any, key: str) -> dict[str, tuple[Any, Any]]:
    """Currency -> (count, total_minor) of one summary block."""
    block = summary.get(key) if isinstance(summary, dict) else None
    if not isinstance(block, list):
        return {}
    return {str(e.get("currency")): (e.get("count"), e.get("total_minor"))
            for e in block if isinstance(e, dict)}  # fmt: skip


def _exact(got: dict[str, tuple], want: dict[str, tuple]) -> tuple[float, list[str]]:
    """The fraction of currencies (either side) whose bucket is exact, and the wrong ones."""
    keys = sorted(set(got) | set(want))
    wrong = [f"{c} {got.get(c)} != {want.get(c)}" for c in keys if got.get(c) != want.get(c)]
    return (1.0 if not keys else frac(len(keys) - len(wrong), len(keys))), wrong


@app_check("x_m3_terminal_conservation", needs=(FINAL,))
def x_m3_terminal_conservation(obs: Observations, _s) -> CheckResult:
    """0.7 x exact by_currency buckets + 0.3 x exact reversal buckets in the final summary,
    against the fixture plus the scripted mutations plus every payment created."""
    if (gate := ledger_gate(obs, "x_m3_terminal_conservation")) is not None:
        return gate
    summary = body(obs[FINAL].summary)
    cur, bad_cur = _exact(blocks(summary, "by_currency"), _truth.by_currency(vendor_state(obs)))
    want_rev = _truth.reversals(obs.truth, commits(obs))  # type: ignore[arg-type]
    rev, bad_rev = _exact(blocks(summary, "reversals"), want_rev)
    if summary is None:
        cur = rev = 0.0
    score = 0.7 * cur + 0.3 * rev
    wrong = bad_cur + [f"reversals {w}" for w in bad_rev]
    tail = f"; {', '.join(wrong[:5])}" if wrong else ""
    return result("x_m3_terminal_conservation", score, f"{g(score)}: currencies {g(cur)}, "
                  f"reversals {g(rev)} exact{tail}")  # fmt: skip


@app_check("x_m4_no_cross_currency", needs=(FINAL,))
def x_m4_no_cross_currency(obs: Observations, _s) -> CheckResult:
    """No top-level integer of either graded summary (after sync #1, at quiescence) equals
    the cross-currency sum of its by_currency totals: binary; no summary 0."""
    summaries = {"final": body(obs[FINAL].summary)}
    reads = phase(obs, READS)
    if reads is not None:
        summaries["after sync #1"] = body(reads.summary)
    scanned, offenders = 0, []
    for name, found in summaries.items():
        fields = cross_sums(found)
        if fields is None:
            continue
        scanned += 1
        offenders += [f"{name}.{field}" for field in fields]
    if not scanned:
        return result("x_m4_no_cross_currency", 0.0, "0: no summary with totals to scan")
    score = 0.0 if offenders else 1.0
    tail = f": {', '.join(offenders)} is the cross-currency sum" if offenders else ""
    return result("x_m4_no_cross_currency", score, f"{g(score)}: {scanned} summaries "
                  f"scanned{tail}")  # fmt: skip


def cross_sums(summary: Json | None) -> list[str] | None:
    """The top-level integer fields of ``summary`` equal to the sum of its by_currency
    totals (``"key = value"``); None when it has no totals to add (nothing to scan).
    Also read by ``b_money_rendered``, whose cliff is the same finding."""
    totals = [t for _c, t in blocks(summary, "by_currency").values() if is_int(t)]
    if summary is None or not totals:
        return None
    cross = sum(totals)
    return [f"{k} = {v}" for k, v in summary.items() if is_int(v) and v == cross]


def final_rows(obs: Observations) -> dict[str, list[tuple[Any, Any]]]:
    """Payment id -> every (version, amount_minor) the final viz records served for it
    (more than one: a duplicated row)."""
    found = body(obs[FINAL].viz) or {}
    ids, versions, amounts = (found.get(k) for k in ("id", "version", "amount_minor"))
    if not isinstance(ids, list):
        return {}
    versions = versions if isinstance(versions, list) else []
    amounts = amounts if isinstance(amounts, list) else []
    rows: dict[str, list[tuple[Any, Any]]] = {}
    for i, pid in enumerate(ids):
        got = (_at(versions, i), _at(amounts, i))
        rows.setdefault(str(pid), []).append(got)
    return rows


def _at(column: list, i: int) -> Any:
    return column[i] if i < len(column) else None


@app_check("x_conservation_residual", needs=(FINAL,))
def x_conservation_residual(obs: Observations, _s) -> CheckResult:
    """Per currency: served final total - expected total + attributed losses - attributed
    duplicates (from the final viz records) is exactly 0: binary; an unreadable total or no
    terminal summary 0."""
    if (gate := ledger_gate(obs, "x_conservation_residual")) is not None:
        return gate
    summary = body(obs[FINAL].summary)
    if summary is None:
        return result("x_conservation_residual", 0.0, "0: no terminal summary")
    truth = vendor_state(obs)
    want = _truth.by_currency(truth)
    served = blocks(summary, "by_currency")
    lost, dup = _attributed(final_rows(obs), truth)
    lost, dup = +lost, +dup
    residual: dict[str, Any] = {}
    for c in sorted(set(want) | set(served)):
        total = served.get(c, (0, 0))[1]
        if not is_int(total):
            residual[c] = f"unreadable total {total!r}"
            continue
        residual[c] = total - want.get(c, (0, 0))[1] + lost[c] - dup[c]
    off = {c: r for c, r in residual.items() if r != 0}
    score = 0.0 if off else 1.0
    said = ", ".join(f"{c} {r}" for c, r in off.items()) or "0 in every currency"
    return result("x_conservation_residual", score, f"{g(score)}: residual {said} (attributed "
                  f"losses {dict(lost) or 'none'}, duplicates {dict(dup) or 'none'})",
                  residual={c: str(r) for c, r in residual.items()})  # fmt: skip


def _attributed(
    rows: dict[str, list[tuple[Any, Any]]], truth: dict[str, _truth.State]
) -> tuple[Counter[str], Counter[str]]:
    """Minor units per currency explained by lost rows (vendor payments the app does not
    hold) and by duplicated rows (served more than once). No records: nothing attributed."""
    lost: Counter[str] = Counter()
    dup: Counter[str] = Counter()
    if not rows:
        return lost, dup
    for pid, state in truth.items():
        copies = len(rows.get(pid, ()))
        if copies == 0:
            lost[state.currency] += state.amount_minor
        dup[state.currency] += max(0, copies - 1) * state.amount_minor
    return lost, dup


@app_check("x_no_lost_write", needs=(FINAL,))
def x_no_lost_write(obs: Observations, _s) -> CheckResult:
    """Every webhook delivery the app acknowledged 2xx is reflected by a final version at
    least that high: binary; no checkable acknowledged delivery 0; no delivery ledger
    UNAVAILABLE."""
    if (gate := ledger_gate(obs, "x_no_lost_write")) is not None:
        return gate
    deliveries = vendor_part(obs, "x_no_lost_write", "deliveries")
    if isinstance(deliveries, CheckResult):
        return deliveries
    acked = {(d.payment_id, d.version) for d in deliveries
             if not d.forged and d.payment_id and is_int(d.version)
             and d.status is not None and 200 <= d.status < 300}  # fmt: skip
    final = _final_versions(obs)
    if not acked or not final:
        return result("x_no_lost_write", 0.0, f"0: {len(acked)} acknowledged deliveries, "
                      f"{len(final)} final rows to check them against")  # fmt: skip
    lost = sorted((p, v) for p, v in acked if not (is_int(final.get(p)) and final[p] >= v))
    score = 0.0 if lost else 1.0
    tail = listed("lost: ", [f"{p} v{v} (final {final.get(p)!r})" for p, v in lost])
    return result("x_no_lost_write", score, f"{g(score)}: {len(acked)} acknowledged "
                  f"mutations, {len(lost)} absent from the final state{tail}",
                  lost=len(lost))  # fmt: skip


def _final_versions(obs: Observations) -> dict[str, Any]:
    """Payment id -> its final version: the viz records, else the spot reads."""
    found = {pid: max((v for v, _a in seen if is_int(v)), default=None)
             for pid, seen in final_rows(obs).items()}  # fmt: skip
    for s in obs[FINAL].spot:
        if isinstance(s.row, dict):
            found.setdefault(s.payment_id, s.row.get("version"))
    return found


@app_check("x_ooo_dup_forged", needs=(FINAL,))
def x_ooo_dup_forged(obs: Observations, _s) -> CheckResult:
    """The passing fraction of the observable parts: the out-of-order target at its final
    version without the stale note, the forged target untouched, no (payment, version)
    applied twice in the event log; none observable 0."""
    if (gate := ledger_gate(obs, "x_ooo_dup_forged")) is not None:
        return gate
    sync1, final = phase(obs, SYNC1), obs[FINAL]
    truth = vendor_state(obs)
    spot = {s.payment_id: s.row for s in final.spot if isinstance(s.row, dict)}
    parts: dict[str, bool] = {}
    for name in ("ooo", "forged"):
        trap = getattr(sync1, name, None)
        if trap is not None and trap.fired and trap.payment_id in spot:
            row, want = spot[trap.payment_id], truth.get(trap.payment_id)
            parts[name] = (
                want is not None
                and row.get("version") == want.version
                and row.get("note") != trap.note
            )
    if final.events.status == 200:
        applied = Counter((pid, v) for _t, pid, v in payment_events(obs))
        parts["no duplicate applied"] = all(n == 1 for n in applied.values())
    if not parts:
        return result("x_ooo_dup_forged", 0.0, "0: none of the three traps observable")
    return parts_row("x_ooo_dup_forged", parts, "the observable webhook traps")
