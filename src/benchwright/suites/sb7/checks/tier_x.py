"""Tier X (consistency ledger, §12), the linearizability battery: no invented states, per-key
version order, monotonic reads, convergence, group atomicity, and amount immutability, by
replaying the app's event log and the read stream against the vendor's commit ledger."""

from __future__ import annotations

from collections.abc import Iterable

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, frac, g, is_int, result
from benchwright.suites.kit.wire import body
from benchwright.suites.sb7.checks import _refund, _truth
from benchwright.suites.sb7.checks._common import (
    commits,
    ledger_gate,
    listed,
    never_ran,
    payment_events,
    phase,
    sync_dead,
    vacuous,
    vendor_state,
)
from benchwright.suites.sb7.observations import (
    FINAL,
    STREAM,
    Observations,
    ReadStream,
    RowSeen,
)


def stream_rows(obs: Observations) -> list[tuple[float, float, RowSeen]]:
    """(started, ended, row) of every payment the read stream saw, in start order."""
    stream: ReadStream | None = phase(obs, STREAM)
    reads = sorted(stream.reads, key=lambda r: r.started) if stream is not None else []
    return [(r.started, r.ended, row) for r in reads for row in r.rows]


@app_check("x_l1_no_invented_states", needs=(FINAL,))
def x_l1_no_invented_states(obs: Observations, _s) -> CheckResult:
    """Every (payment, version) the event log applied or the read stream served is in the
    vendor's committed history: binary; no observations 0."""
    if (gate := ledger_gate(obs, "x_l1_no_invented_states")) is not None:
        return gate
    history = _truth.committed(obs.truth, commits(obs))  # type: ignore[arg-type]
    seen = [(pid, v) for _t, pid, v in payment_events(obs) if is_int(v)]
    seen += [(row.payment_id, row.version) for *_, row in stream_rows(obs) if is_int(row.version)]
    if not seen:
        return result("x_l1_no_invented_states", 0.0, "0: no applied or served versions observed")
    invented = sorted({(p, v) for p, v in seen if v not in history.get(p, ())})
    score = 0.0 if invented else 1.0
    tail = listed("invented: ", [f"{p} v{v}" for p, v in invented])
    return result("x_l1_no_invented_states", score, f"{g(score)}: {len(seen)} observed "
                  f"(payment, version) pairs, {len(invented)} never committed{tail}",
                  invented=len(invented))  # fmt: skip


@app_check("x_l2_per_key_order", needs=(FINAL,))
def x_l2_per_key_order(obs: Observations, _s) -> CheckResult:
    """1 - violations / same-key pairs: each payment event's version strictly above the
    previous one for that payment, in log order; no events 0; a dead sync vacuous."""
    if sync_dead(obs):
        return vacuous("x_l2_per_key_order")
    events = payment_events(obs)
    if not events:
        return result("x_l2_per_key_order", 0.0, "0: no payment events in the log")
    last: dict[str, object] = {}
    pairs = violations = 0
    for _t, pid, version in events:
        if pid in last:
            pairs += 1
            prev = last[pid]
            violations += not (is_int(version) and is_int(prev) and version > prev)  # type: ignore[operator]
        last[pid] = version
    score = 1.0 - frac(violations, pairs)
    return result("x_l2_per_key_order", score, f"{g(score)}: {violations} order violations "
                  f"over {pairs} same-key pairs ({len(events)} payment events)",
                  violations=violations, pairs=pairs)  # fmt: skip


@app_check("x_l3_monotonic_reads")
def x_l3_monotonic_reads(obs: Observations, _s) -> CheckResult:
    """No payment's served version ever below a version a read that ended earlier served:
    binary; an empty stream 0; the stream never running UNAVAILABLE."""
    if (gone := never_ran(obs, "x_l3_monotonic_reads", STREAM, "the read stream")) is not None:
        return gone
    if sync_dead(obs):
        return vacuous("x_l3_monotonic_reads")
    rows = [(s, e, r) for s, e, r in stream_rows(obs) if is_int(r.version)]
    if not rows:
        return result("x_l3_monotonic_reads", 0.0, "0: the read stream saw no versions")
    back = list(_regressions(rows))
    score = 0.0 if back else 1.0
    tail = listed("", [f"{p} v{a} then v{b}" for p, a, b in back])
    return result("x_l3_monotonic_reads", score, f"{g(score)}: {len(rows)} reads, "
                  f"{len(back)} regressions{tail}", regressions=len(back))  # fmt: skip


def _regressions(rows: list[tuple[float, float, RowSeen]]) -> Iterable[tuple[str, int, int]]:
    """(payment, earlier version, later lower version) for every read that served a version
    below one a read that had already ended served."""
    done: dict[str, list[tuple[float, int]]] = {}
    for started, ended, row in rows:
        earlier = [v for end, v in done.get(row.payment_id, ()) if end <= started]
        if earlier and row.version < max(earlier):  # type: ignore[operator]
            yield row.payment_id, max(earlier), row.version  # type: ignore[misc]
        done.setdefault(row.payment_id, []).append((ended, row.version))  # type: ignore[arg-type]


@app_check("x_l4_convergence", needs=(FINAL,))
def x_l4_convergence(obs: Observations, _s) -> CheckResult:
    """0.7 x spot-read rows at the vendor-final version and status + 0.3 when the final
    total is the fixture plus every payment the run created; no spot reads 0."""
    if (gate := ledger_gate(obs, "x_l4_convergence")) is not None:
        return gate
    final = obs[FINAL]
    if not final.spot:
        return result("x_l4_convergence", 0.0, "0: no final spot reads")
    truth = vendor_state(obs)
    stale = [s.payment_id for s in final.spot if not _converged(s.row, truth.get(s.payment_id))]
    want = obs.truth.total + _truth.created(commits(obs))  # type: ignore[union-attr]
    total = (body(final.payments) or {}).get("total")
    rows = frac(len(final.spot) - len(stale), len(final.spot))
    score = 0.7 * rows + 0.3 * (total == want)
    tail = listed("not converged: ", stale)
    return result("x_l4_convergence", score, f"{g(score)}: {len(final.spot) - len(stale)}/"
                  f"{len(final.spot)} rows at the vendor's final state; total {total!r} "
                  f"(want {want}){tail}", stale=stale)  # fmt: skip


def _converged(row: object, want: _truth.State | None) -> bool:
    return (
        isinstance(row, dict)
        and want is not None
        and row.get("version") == want.version
        and row.get("status") == want.status
    )


@app_check("x_l5_group_atomicity")
def x_l5_group_atomicity(obs: Observations, _s) -> CheckResult:
    """No confirmed half-applied refund group in any snapshot of the refund window:
    binary."""
    found = _refund.evidence(obs, "x_l5_group_atomicity")
    if isinstance(found, CheckResult):
        return found
    if not found:
        return result("x_l5_group_atomicity", 0.0, "0: no summary snapshot in the refund window")
    half = [s for s in found if s.confirmed_half]
    score = 0.0 if half else 1.0
    return result("x_l5_group_atomicity", score, f"{g(score)}: {len(half)} confirmed half "
                  f"states over {len(found)} snapshots", half=len(half))  # fmt: skip


@app_check("x_m1_amount_immutability", needs=(FINAL,))
def x_m1_amount_immutability(obs: Observations, _s) -> CheckResult:
    """Every amount the read stream and the final spot reads served equals the vendor's
    committed amount: binary; no amounts 0."""
    if (gate := ledger_gate(obs, "x_m1_amount_immutability")) is not None:
        return gate
    truth = vendor_state(obs)
    seen = [(r.payment_id, r.amount_minor) for *_, r in stream_rows(obs)]
    seen += [(s.payment_id, s.row.get("amount_minor")) for s in obs[FINAL].spot
             if isinstance(s.row, dict)]  # fmt: skip
    seen = [(p, a) for p, a in seen if a is not None and p in truth]
    if not seen:
        return result("x_m1_amount_immutability", 0.0, "0: no amounts observed")
    mutated = sorted({(p, a) for p, a in seen if a != truth[p].amount_minor})
    score = 0.0 if mutated else 1.0
    tail = listed("", [f"{p} {a!r} != {truth[p].amount_minor}" for p, a in mutated])
    return result("x_m1_amount_immutability", score, f"{g(score)}: {len(seen)} amounts "
                  f"observed, {len(mutated)} differ from the vendor's{tail}")  # fmt: skip
