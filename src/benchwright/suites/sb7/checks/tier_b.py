"""Tier B (wire behaviour, §12), the collection rows: completeness, the total, row shape,
order, the summary's shape, the DST buckets and the columnar viz records. (The event log,
envelopes and JSON everywhere are `tier_b_wire`; rendered money is the browser's.)"""

from __future__ import annotations

from typing import Any

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, frac, g, instant, is_int, result
from benchwright.suites.kit.wire import body, rows_of
from benchwright.suites.sb7.checks import _truth
from benchwright.suites.sb7.checks._common import (
    ROW_KEYS,
    STATUSES,
    best_count,
    commits,
    expected_total,
    missing_fixture,
    ordered,
    parts_row,
    sync_dead,
    vacuous,
    vendor_state,
)
from benchwright.suites.sb7.observations import READS, Observations

VIZ_COLUMNS = ("id", "amount_minor", "currency", "status", "created_at", "day", "version")
ORDER_SPAN = 600
"""The viz records whose (instant, id) order is checked."""
DST_REACH = 2
"""Days either side of the DST transition whose cells form the severity leg."""


@app_check("sync_completeness", needs=(READS,))
def sync_completeness(obs: Observations, _s) -> CheckResult:
    """min(best evidenced count / 12,288, 1): the payments total after sync #1 or at
    quiescence, or the summary count, each capped at the fixture total."""
    if obs.truth is None:
        return missing_fixture("sync_completeness")
    want, best = obs.truth.total, best_count(obs)
    if best is None:
        return result("sync_completeness", 0.0, "0: no count evidenced anywhere")
    where, count = best
    score = min(count / want, 1.0)
    return result("sync_completeness", score, f"{g(score)}: best count {count} ({where}) of "
                  f"{want}", count=count, where=where)  # fmt: skip


@app_check("b_total_field", needs=(READS,))
def b_total_field(obs: Observations, _s) -> CheckResult:
    """``total`` equals the fixture plus the creates committed by the read: 1.0; 12,288 or
    one more than expected (an in-flight create): 0.75; within 4: 0.5; else 0."""
    if sync_dead(obs):
        return vacuous("b_total_field", "fewer than half the payments ever evidenced")
    reads = obs[READS]
    want = expected_total(obs) + _truth.created(commits(obs), reads.commit_mark)
    total = (body(reads.payments) or {}).get("total")
    if not is_int(total):
        return result("b_total_field", 0.0, f"0: total is {total!r}, want {want}")
    if total == want:
        score = 1.0
    elif total in (expected_total(obs), want + 1):
        score = 0.75
    else:
        score = 0.5 if abs(total - want) <= 4 else 0.0
    return result("b_total_field", score, f"{g(score)}: total {total}, expected {want}",
                  total=total, expected=want)  # fmt: skip


@app_check("b_row_shape", needs=(READS,))
def b_row_shape(obs: Observations, _s) -> CheckResult:
    """The first row carries the 10 documented keys (fraction present), minus 0.1 for any
    key beyond them; an empty page 0."""
    rows = rows_of(obs[READS].payments) or []
    if not rows or not isinstance(rows[0], dict):
        return _empty("b_row_shape", obs)
    keys = set(rows[0])
    missing = [k for k in ROW_KEYS if k not in keys]
    extra = sorted(keys - set(ROW_KEYS))
    score = max(0.0, frac(len(ROW_KEYS) - len(missing), len(ROW_KEYS)) - (0.1 if extra else 0))
    notes = [f"{len(ROW_KEYS) - len(missing)}/10 keys"]
    notes += [f"missing {', '.join(missing)}"] if missing else []
    notes += [f"extra {', '.join(extra)} (-0.1)"] if extra else []
    return result("b_row_shape", score, f"{g(score)}: {'; '.join(notes)}")


def _empty(check_id: str, obs: Observations) -> CheckResult:
    """0 for an empty answer: vacuous when the sync was dead, the app's own otherwise."""
    if sync_dead(obs):
        return vacuous(check_id, "no rows served")
    return result(check_id, 0.0, "0: GET /api/payments served no rows")


@app_check("b_chronological_order", needs=(READS,))
def b_chronological_order(obs: Observations, _s) -> CheckResult:
    """Adjacent rows of the default page non-decreasing by created_at INSTANT: the ordered
    fraction; any unparseable created_at 0; fewer than 2 rows 0."""
    rows = [r for r in rows_of(obs[READS].payments) or [] if isinstance(r, dict)]
    if len(rows) < 2:
        return result("b_chronological_order", 0.0, f"0: {len(rows)} rows on the default page")
    stamps = [instant(r.get("created_at")) for r in rows]
    bad = next((r.get("created_at") for r, t in zip(rows, stamps, strict=True) if t is None), 0)
    if bad != 0:
        return result("b_chronological_order", 0.0, f"0: created_at {bad!r} is not RFC 3339")
    good = ordered(stamps)
    score = frac(good, len(rows) - 1)
    return result("b_chronological_order", score, f"{g(score)}: {good}/{len(rows) - 1} "
                  "adjacent pairs in instant order")  # fmt: skip


@app_check("b_summary_shape", needs=(READS,))
def b_summary_shape(obs: Observations, _s) -> CheckResult:
    """Five fifths: by_currency rows carry currency/count/total_minor, by_currency sorted,
    a reversals list, its rows carry the three keys, reversals sorted."""
    found = body(obs[READS].summary)
    if found is None:
        if sync_dead(obs):
            return vacuous("b_summary_shape", "no summary served")
        return result("b_summary_shape", 0.0, "0: GET /api/summary served no JSON object")
    by_cur, revs = found.get("by_currency"), found.get("reversals")
    parts = {
        "by_currency keys": _keyed(by_cur) and bool(by_cur),
        "by_currency sorted": _sorted(by_cur),
        "reversals present": isinstance(revs, list),
        "reversals keys": _keyed(revs),
        "reversals sorted": _sorted(revs),
    }
    return parts_row("b_summary_shape", parts, "GET /api/summary")


def _keyed(block: Any) -> bool:
    keys = ("currency", "count", "total_minor")
    return isinstance(block, list) and all(
        isinstance(e, dict) and all(k in e for k in keys) for e in block
    )


def _sorted(block: Any) -> bool:
    if not _keyed(block):
        return False
    codes = [str(e["currency"]) for e in block]
    return codes == sorted(codes)


@app_check("b_buckets_dst", needs=(READS,))
def b_buckets_dst(obs: Observations, _s) -> CheckResult:
    """0.7 x exact (day, status) cells + 0.2 cell count (0.1 when wrong) + 0.1 timezone
    Europe/Berlin, against the vendor's state when the buckets were read. The DST-window
    cells (±2 days) are reported as the severity leg."""
    if obs.truth is None:
        return missing_fixture("b_buckets_dst")
    if sync_dead(obs):
        return vacuous("b_buckets_dst")
    reads = obs[READS]
    found = body(reads.buckets) or {}
    cells = [c for c in found.get("cells") or [] if isinstance(c, dict)]
    if not cells:
        return result("b_buckets_dst", 0.0, "0: /api/buckets has no cells")
    counted = _truth.buckets(vendor_state(obs, reads.commit_mark))
    want = {(d, s): counted.get((d, s), 0) for d in obs.truth.days for s in STATUSES}
    got = {(str(c.get("day")), str(c.get("status"))): c.get("count") for c in cells}
    exact = [k for k, n in want.items() if got.get(k) == n]
    near = _dst_days(obs.truth.days, obs.truth.dst_day)
    window = [k for k in want if k[0] in near]
    leg = frac(sum(k in exact for k in window), len(window))
    shape = 0.2 if len(cells) == len(want) else 0.1
    zone = 0.1 if found.get("timezone") == "Europe/Berlin" else 0.0
    score = 0.7 * frac(len(exact), len(want)) + shape + zone
    wrong = [f"{d} {s}: {got.get((d, s))} != {want[(d, s)]}" for d, s in want
             if (d, s) not in exact][:4]  # fmt: skip
    tail = f"; e.g. {', '.join(wrong)}" if wrong else ""
    return result("b_buckets_dst", score, f"{g(score)}: {len(exact)}/{len(want)} cells exact, "
                  f"{len(cells)} cells served, timezone {found.get('timezone')!r}, DST window "
                  f"{g(leg)} exact{tail}", dst_window_exact=leg)  # fmt: skip


def _dst_days(days: tuple[str, ...], dst_day: str) -> set[str]:
    """The days within ±2 of the transition day."""
    if dst_day not in days:
        return set()
    at = days.index(dst_day)
    return set(days[max(0, at - DST_REACH) : at + DST_REACH + 1])


@app_check("b_viz_records", needs=(READS,))
def b_viz_records(obs: Observations, _s) -> CheckResult:
    """0.3 columns present + 0.2 lengths equal to count + 0.2 (instant, id) order over the
    first 600 + 0.3 server Berlin day matching the fixture's; empty or absent 0."""
    if obs.truth is None:
        return missing_fixture("b_viz_records")
    found = body(obs[READS].viz)
    ids = (found or {}).get("id")
    if not isinstance(ids, list) or not ids:
        if sync_dead(obs):
            return vacuous("b_viz_records", "no records served")
        return result("b_viz_records", 0.0, "0: /api/viz/records served no records")
    cols = {c: found[c] for c in VIZ_COLUMNS if isinstance(found.get(c), list)}  # type: ignore[index]
    count = found.get("count")  # type: ignore[union-attr]
    even = sum(is_int(count) and len(v) == count for v in cols.values())
    order = _order(cols.get("created_at") or [], ids)
    days = _days(obs, ids, cols.get("day") or [])
    parts = (frac(len(cols), 7), frac(even, len(VIZ_COLUMNS)), order, days)
    score = 0.3 * parts[0] + 0.2 * parts[1] + 0.2 * parts[2] + 0.3 * parts[3]
    return result("b_viz_records", score, f"{g(score)}: {len(cols)}/7 columns, {even}/7 of "
                  f"length count={count!r}, order {g(order)}, Berlin days {g(days)}")  # fmt: skip


def _order(stamps: list, ids: list) -> float:
    """The fraction of adjacent pairs of the first 600 in (instant, id) order."""
    keys = [(instant(t), str(i)) for t, i in zip(stamps[:ORDER_SPAN], ids[:ORDER_SPAN],
                                                 strict=False)]  # fmt: skip
    if len(keys) < 2 or any(t is None for t, _ in keys):
        return 0.0
    return frac(ordered(keys), len(keys) - 1)


def _days(obs: Observations, ids: list, days: list) -> float:
    """The fraction of served records whose ``day`` is the fixture's Berlin day."""
    truth = vendor_state(obs)
    pairs = [(str(i), d) for i, d in zip(ids, days, strict=False) if str(i) in truth]
    if not pairs:
        return 0.0
    return frac(sum(truth[i].day == d for i, d in pairs), len(pairs))
