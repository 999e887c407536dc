"""Tier B (behaviour), the read checks: shapes, totals, order, money and time buckets."""

from __future__ import annotations

from itertools import pairwise

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, frac, g, instant, is_int, result
from benchwright.suites.vspro.checks._common import ROW_KEYS
from benchwright.suites.vspro.observations import Observations, body, rows_of


@app_check("payment_row_shape", needs=("reads",))
def payment_row_shape(obs: Observations, _s) -> CheckResult:
    """The first row has the 10 documented keys (each 1/10); any extra key costs 0.2."""
    rows = rows_of(obs["reads"].default)
    if not rows or not isinstance(rows[0], dict):
        return result("payment_row_shape", 0.0, "0: GET /api/payments returned no rows")
    keys = set(rows[0])
    present = [k for k in ROW_KEYS if k in keys]
    extra = sorted(keys - set(ROW_KEYS))
    score = max(0.0, len(present) / 10 - (0.2 if extra else 0.0))
    notes = [f"{len(present)}/10 documented keys"]
    notes += [f"missing {', '.join(k for k in ROW_KEYS if k not in keys)}"] * (len(present) < 10)
    notes += [f"extra {', '.join(extra)} (-0.2)"] * bool(extra)
    return result("payment_row_shape", score, f"{g(score)}: {'; '.join(notes)}")


@app_check("total_field", needs=("reads",))
def total_field(obs: Observations, _s) -> CheckResult:
    """``total`` == fixture total: 1.0; off by <= 2: 0.5; within 20 %: 0.25; else 0."""
    want = obs.expect.total
    total = (body(obs["reads"].default) or {}).get("total")
    if not is_int(total):
        return result("total_field", 0.0, f"0: total is {total!r}, not an integer (want {want})")
    off = abs(total - want)
    score = 1.0 if off == 0 else 0.5 if off <= 2 else 0.25 if off <= 0.2 * want else 0.0
    return result("total_field", score, f"{g(score)}: total {total} (want {want}; "
                  "rungs exact 1, +-2 0.5, +-20% 0.25)")  # fmt: skip


@app_check("chronological_order", needs=("reads",))
def chronological_order(obs: Observations, _s) -> CheckResult:
    """The default page (the public instrument's one read, §09) is in instant order: the
    fraction of ordered adjacent pairs; an unparseable created_at on it scores 0, fewer than
    2 rows 0. The other ordering reads are ``x_order_everywhere``'s."""
    default = rows_of(obs["reads"].default) or []
    if len(default) < 2:
        return result("chronological_order", 0.0, f"0: {len(default)} rows, need at least 2")
    return order_row("chronological_order", {"default": (default, True)})


def order_row(check: str, reads: dict[str, tuple[list, bool]]) -> CheckResult:
    """Adjacent pairs in instant order over ``reads`` (name -> (rows, ascending)), as a
    fraction; an unparseable created_at in any of them scores 0, naming it."""
    tally, ordered, pairs = [], 0, 0
    for name, (rows, rising) in reads.items():
        stamps = [instant(x.get("created_at")) if isinstance(x, dict) else None for x in rows]
        if any(s is None for s in stamps):
            bad = next(x for x, s in zip(rows, stamps, strict=True) if s is None)
            seen = bad.get("created_at") if isinstance(bad, dict) else bad
            return result(check, 0.0, f"0: created_at {seen!r} ({name}) is not RFC 3339")
        good = sum((a <= b) if rising else (a >= b) for a, b in pairwise(stamps))
        ordered, pairs = ordered + good, pairs + max(len(stamps) - 1, 0)
        if good < len(stamps) - 1:
            tally.append(f"{name} {good}/{len(stamps) - 1}")
    score = frac(ordered, pairs)
    tail = f"; out of order: {', '.join(tally)}" if tally else ""
    over = f"{len(reads)} ordering read{'s' * (len(reads) > 1)}"
    return result(check, score, f"{g(score)}: {ordered}/{pairs} adjacent pairs in instant "
                  f"order over {over}{tail}")  # fmt: skip


@app_check("summary_bounds_utc", needs=("reads",))
def summary_bounds_utc(obs: Observations, _s) -> CheckResult:
    """oldest/newest present (0.4), both UTC-stamped (0.3), oldest < newest (0.3)."""
    found = body(obs["reads"].summary) or {}
    old, new = found.get("oldest"), found.get("newest")
    if not (isinstance(old, str) and isinstance(new, str)):
        return result("summary_bounds_utc", 0.0, f"0: bounds missing (oldest {old!r}, "
                      f"newest {new!r})")  # fmt: skip
    utc = all(v.endswith(("Z", "+00:00")) for v in (old, new))
    a, b = instant(old), instant(new)
    ordered = a is not None and b is not None and a < b
    score = 0.4 + 0.3 * utc + 0.3 * ordered
    return result("summary_bounds_utc", score, f"{g(score)}: present 0.4 + UTC "
                  f"{0.3 * utc:g} + ordered {0.3 * ordered:g} ({old} .. {new})")  # fmt: skip


@app_check("b_summary_currency", needs=("reads",))
def b_summary_currency(obs: Observations, _s) -> CheckResult:
    """k/4 currency buckets exact; a cross-currency sum anywhere is a cliff to 0 (§08);
    by_currency not sorted by code x0.9."""
    found = body(obs["reads"].summary)
    if found is None:
        return result("b_summary_currency", 0.0, "0: /api/summary gave no JSON object")
    cross = obs.expect.cross_currency_sum
    offenders = [k for k, v in found.items() if is_int(v) and v == cross]
    if offenders:
        return result("b_summary_currency", 0.0, f"0: cliff: {', '.join(offenders)} = {cross}, "
                      "the cross-currency sum of minor units (wrong money)")  # fmt: skip
    entries = found.get("by_currency") if isinstance(found.get("by_currency"), list) else []
    got = {str(e.get("currency")): (e.get("count"), e.get("total_minor"))
           for e in entries if isinstance(e, dict)}  # fmt: skip
    want = obs.expect.by_currency
    exact = [c for c, pair in want.items() if got.get(c) == tuple(pair)]
    score = frac(len(exact), len(want))
    codes = [e.get("currency") for e in entries if isinstance(e, dict)]
    ordered = codes == sorted(codes, key=str)
    score *= 1.0 if ordered else 0.9
    wrong = [f"{c} {got.get(c)} != {tuple(want[c])}" for c in want if c not in exact]
    notes = [f"{len(exact)}/{len(want)} currencies exact", *wrong]
    notes += [] if ordered else ["by_currency not sorted by code (x0.9)"]
    return result("b_summary_currency", score, f"{g(score)}: {'; '.join(notes)}")


@app_check("b_buckets_dst", needs=("reads",))
def b_buckets_dst(obs: Observations, _s) -> CheckResult:
    """0.7 x exact-cell fraction + 0.2 cell count (0.1 if wrong) + 0.1 Europe/Berlin."""
    found = body(obs["reads"].buckets) or {}
    cells = found.get("cells") if isinstance(found.get("cells"), list) else []
    if not cells:
        return result("b_buckets_dst", 0.0, "0: /api/buckets has no cells")
    want = {_key(c["day"], c["status"]): c["count"] for c in obs.expect.buckets["cells"]}
    got = {
        _key(c.get("day"), c.get("status")): c.get("count") for c in cells if isinstance(c, dict)
    }
    exact = sum(got.get(key) == count for key, count in want.items())
    shape = 0.2 if len(cells) == len(want) else 0.1
    zone = 0.1 if found.get("timezone") == "Europe/Berlin" else 0.0
    score = 0.7 * frac(exact, len(want)) + shape + zone
    return result("b_buckets_dst", score, f"{g(score)}: {exact}/{len(want)} cells exact; "
                  f"{len(cells)} cells (want {len(want)}); timezone "
                  f"{found.get('timezone')!r}")  # fmt: skip


@app_check("sync_completeness", needs=("reads",))
def sync_completeness(obs: Observations, _s) -> CheckResult:
    """The best-evidenced full count over the fixture total, capped at 1.0."""
    want = obs.expect.total
    evidence = {"GET /api/payments total": (body(obs["reads"].default) or {}).get("total")}
    if obs.has("restart"):
        evidence["health after restart"] = obs["restart"].rows_after
    if obs.has("sync_fill") and obs["sync_fill"].ran:
        evidence["fill sync total"] = (body(obs["sync_fill"].call) or {}).get("total")
    if obs.has("sync2"):
        evidence["sync #2 total"] = (body(obs["sync2"].call) or {}).get("total")
    counts = {k: v for k, v in evidence.items() if is_int(v)}
    if not counts:
        return result("sync_completeness", 0.0, "0: no count evidenced anywhere")
    where, best = min(counts.items(), key=lambda kv: (abs(kv[1] - want), -kv[1]))
    score = min(best / want, 1.0) if best >= 0 else 0.0
    return result("sync_completeness", score, f"{g(score)}: best count {best} ({where}) of "
                  f"{want}", counts=counts)  # fmt: skip


def _key(*parts: object) -> tuple[str, ...]:
    """A hashable key from whatever the app sent (a list where a string belongs included)."""
    return tuple(str(p) for p in parts)
