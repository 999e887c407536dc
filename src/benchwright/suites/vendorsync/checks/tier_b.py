"""Tier B (behaviour) on the wire: the syncs' counts, paging, rows, order, summary,
errors, JSON and health (facts entries 7-15, 19-22)."""

from __future__ import annotations

from itertools import pairwise

from benchwright.model import CheckResult
from benchwright.probes.http import JsonRead, parse_wire_json
from benchwright.suites.kit.checks import app_check, frac, g, instant, is_int, result
from benchwright.suites.kit.wire import body, rows_of
from benchwright.suites.vendorsync.checks._common import ROW_KEYS, CheckSettings
from benchwright.suites.vendorsync.checks._read import complete, sync_count
from benchwright.suites.vendorsync.observations import LARGEST_PAGE, Observations
from benchwright.suites.vendorsync.phases.reads import BAD_REQUESTS, NOT_FOUND, WRONG_METHOD

DEFAULT_PAGE = 25
ERRORS = {
    **{q: (400, "bad_request") for q in BAD_REQUESTS},
    **{path: (404, "not_found") for path in NOT_FOUND},
    WRONG_METHOD.name: (405, "method_not_allowed"),
}
"""Error matrix cell -> the status and ``error`` code spec §6.3/§6.6 document."""


@app_check("sync_completeness", needs=("sync1",))
def sync_completeness(obs: Observations, s: CheckSettings) -> CheckResult:
    """After one sync the reported total (or fetched) is 247; else that count over 247."""
    count, total = sync_count(obs["sync1"].call), obs.truth.total
    score = complete(obs)
    if count is None:
        return result("sync_completeness", 0.0, f"0: the first sync reported no count "
                      f"(status {obs['sync1'].call.status})")  # fmt: skip
    return result("sync_completeness", score, f"{g(score)}: the first sync reported {count} "
                  f"of {total}", count=count)  # fmt: skip


@app_check("resync_idempotent", needs=("sync2",))
def resync_idempotent(obs: Observations, s: CheckSettings) -> CheckResult:
    """A second sync of the unchanged vendor reports inserted 0 and total 247 (0.5: total
    right, inserted not 0)."""
    found, total = body(obs["sync2"].call), obs.truth.total
    if found is None or found.get("total") != total or not is_int(found.get("total")):
        got = None if found is None else found.get("total")
        return result("resync_idempotent", 0.0, f"0: the second sync's total is {got!r}, "
                      f"not {total}")  # fmt: skip
    if found.get("inserted") != 0 or not is_int(found.get("inserted")):
        return result("resync_idempotent", 0.5, f"0.5: total {total}, but inserted is "
                      f"{found.get('inserted')!r}, not 0")  # fmt: skip
    return result("resync_idempotent", 1.0, f"1: inserted 0, total {total}")


@app_check("local_pagination", needs=("reads",))
def local_pagination(obs: Observations, s: CheckSettings) -> CheckResult:
    """No parameters: 25 rows; limit=500: limit 100, at most 100 rows; limit=5&offset=5:
    5 rows. A third per part."""
    reads = obs["reads"]
    capped, capped_rows = body(reads.capped) or {}, rows_of(reads.capped)
    parts = {
        "default page of 25": len(rows_of(reads.default) or []) == DEFAULT_PAGE,
        "limit=500 capped to 100": capped.get("limit") == LARGEST_PAGE
        and is_int(capped.get("limit"))
        and capped_rows is not None
        and len(capped_rows) <= LARGEST_PAGE,
        "limit=5&offset=5 gives 5": len(rows_of(reads.page5) or []) == 5,
    }
    return _parts("local_pagination", parts)


def _parts(check_id: str, parts: dict[str, bool]) -> CheckResult:
    """Equal shares of ``parts``; the detail names those that failed."""
    failed = [name for name, ok in parts.items() if not ok]
    score = frac(len(parts) - len(failed), len(parts))
    detail = f"failed: {'; '.join(failed)}" if failed else "all parts hold"
    return result(check_id, score, f"{g(score)}: {detail}", failed=failed)


@app_check("payment_row_shape", needs=("reads",))
def payment_row_shape(obs: Observations, s: CheckSettings) -> CheckResult:
    """The default page's first row has exactly the five keys; else the fraction present,
    minus 0.2 for extra keys."""
    rows = rows_of(obs["reads"].default)
    if not rows or not isinstance(rows[0], dict):
        return result("payment_row_shape", 0.0, "0: the default page has no rows")
    keys = set(rows[0])
    missing = [k for k in ROW_KEYS if k not in keys]
    extra = sorted(keys - set(ROW_KEYS))
    score = frac(len(ROW_KEYS) - len(missing), len(ROW_KEYS)) - (0.2 if extra else 0.0)
    said = ([f"missing {', '.join(missing)}"] if missing else []) + (
        [f"extra {', '.join(extra)}"] if extra else []
    )
    detail = "; ".join(said) or "exactly the five keys"
    return result("payment_row_shape", score, f"{g(max(score, 0))}: {detail}")


@app_check("total_field", needs=("reads",))
def total_field(obs: Observations, s: CheckSettings) -> CheckResult:
    """The default page's ``total`` is 247."""
    total = (body(obs["reads"].default) or {}).get("total")
    ok = is_int(total) and total == obs.truth.total
    return result("total_field", float(ok), f"{int(ok)}: total is {total!r}"
                  + ("" if ok else f", not {obs.truth.total}"))  # fmt: skip


@app_check("chronological_order", needs=("reads",))
def chronological_order(obs: Observations, s: CheckSettings) -> CheckResult:
    """Adjacent rows of the default page never go back in time (as instants); else the
    fraction of ordered pairs; fewer than two rows or an unparseable time 0."""
    rows = [r for r in rows_of(obs["reads"].default) or [] if isinstance(r, dict)]
    when = [instant(r.get("created_at")) for r in rows]
    if len(rows) < 2:
        return result("chronological_order", 0.0, f"0: {len(rows)} row(s) on the default page")
    if any(w is None for w in when):
        bad = next(r.get("created_at") for r, w in zip(rows, when, strict=True) if w is None)
        return result("chronological_order", 0.0, f"0: unparseable created_at {bad!r}")
    pairs = list(pairwise(when))
    ordered = sum(a <= b for a, b in pairs)  # type: ignore[operator]
    score = frac(ordered, len(pairs))
    return result("chronological_order", score, f"{g(score)}: {ordered}/{len(pairs)} adjacent "
                  "pairs in time order")  # fmt: skip


@app_check("summary_accuracy", needs=("reads",))
def summary_accuracy(obs: Observations, s: CheckSettings) -> CheckResult:
    """/api/summary total_minor is the integer 4,409,197; else 1 - 10 x relative error."""
    got, want = (body(obs["reads"].summary) or {}).get("total_minor"), obs.truth.sum_minor
    if not is_int(got):
        return result("summary_accuracy", 0.0, f"0: total_minor is {got!r}, not an integer")
    score = max(0.0, 1.0 - 10.0 * abs(got - want) / want)
    return result("summary_accuracy", score, f"{g(score)}: total_minor {got} (want {want})")


def _utc(value: object) -> bool:
    return isinstance(value, str) and (value.endswith("Z") or value.endswith("+00:00"))


@app_check("summary_bounds_utc", needs=("reads",))
def summary_bounds_utc(obs: Observations, s: CheckSettings) -> CheckResult:
    """oldest and newest present (0.4), both in UTC (0.3), oldest earlier than newest and
    both the fixture's instants (0.3)."""
    found = body(obs["reads"].summary) or {}
    old, new = found.get("oldest"), found.get("newest")
    if instant(old) is None or instant(new) is None:
        return result("summary_bounds_utc", 0.0, f"0: bounds {old!r} .. {new!r} not instants")
    utc = _utc(old) and _utc(new)
    truth = instant(obs.truth.oldest), instant(obs.truth.newest)
    ordered = instant(old) < instant(new) and (instant(old), instant(new)) == truth  # type: ignore[operator]
    score = 0.4 + 0.3 * utc + 0.3 * ordered
    said = ["not both in UTC"] * (not utc) + [
        f"not the collection's bounds {obs.truth.oldest} .. {obs.truth.newest}"
    ] * (not ordered)
    return result("summary_bounds_utc", score, f"{g(score)}: {old} .. {new}"
                  + (f" ({'; '.join(said)})" if said else ""))  # fmt: skip


@app_check("input_validation", needs=("validation",))
def input_validation(obs: Observations, s: CheckSettings) -> CheckResult:
    """Each error cell answers its documented status (half) with its documented
    ``error`` code (half): bad queries 400, unknown paths 404, a wrong method 405."""
    matrix = obs["validation"].matrix
    earned, failed = 0.0, []
    for name, (status, code) in ERRORS.items():
        seen = matrix.get(name)
        parsed = parse_wire_json(seen.body)
        got = parsed.value.get("error") if isinstance(parsed.value, dict) else None
        earned += 0.5 * (seen.status == status) + 0.5 * (got == code)
        if seen.status != status or got != code:
            failed.append(f"{name}: {seen.status} {got!r} (want {status} {code!r})")
    score = earned / len(ERRORS)
    detail = "; ".join(failed) or f"all {len(ERRORS)} cells documented"
    return result("input_validation", score, f"{g(score)}: {detail}", failed=failed)


@app_check("row_integrity", needs=("reads",))
def row_integrity(obs: Observations, s: CheckSettings) -> CheckResult:
    """Over every row of the 100-row pages: all five keys (0.35), integer amounts with no
    float anywhere (0.25), created_at a timestamp (0.15), 247 distinct ids (0.25)."""
    pages = obs["reads"].pages
    rows = [r for p in pages for r in rows_of(p) or [] if isinstance(r, dict)]
    if not rows:
        return result("row_integrity", 0.0, "0: the 100-row pages hold no rows")
    floats = [f for p in pages for f in p.json.floats]
    keys = frac(sum(all(k in r for k in ROW_KEYS) for r in rows), len(rows))
    ints = 0.0 if floats else frac(sum(is_int(r.get("amount_minor")) for r in rows), len(rows))
    times = frac(sum(instant(r.get("created_at")) is not None for r in rows), len(rows))
    ids = {r.get("id") for r in rows} & set(obs.truth.true_order)
    covered = frac(len(ids), obs.truth.total)
    score = 0.35 * keys + 0.25 * ints + 0.15 * times + 0.25 * covered
    detail = (f"{len(rows)} rows: keys {g(keys)}, integer amounts {g(ints)}"
              + (f" (float {floats[0][1]} at {floats[0][0]})" if floats else "")
              + f", timestamps {g(times)}, {len(ids)}/{obs.truth.total} ids")  # fmt: skip
    return result("row_integrity", score, f"{g(score)}: {detail}")


@app_check("chronological_order_full", needs=("reads",))
def chronological_order_full(obs: Observations, s: CheckSettings) -> CheckResult:
    """The whole collection, read through the 100-row pages, in the vendor's true instant
    order (ties by id); else the fraction of adjacent known pairs in order."""
    rank = {pid: n for n, pid in enumerate(obs.truth.true_order)}
    ids = [r.get("id") for p in obs["reads"].pages for r in rows_of(p) or [] if isinstance(r, dict)]
    known = [rank[i] for i in ids if i in rank]
    pairs = list(pairwise(known))
    if not pairs:
        return result("chronological_order_full", 0.0, "0: fewer than two known rows")
    ordered = sum(a < b for a, b in pairs)
    score = frac(ordered, len(pairs))
    return result("chronological_order_full", score, f"{g(score)}: {ordered}/{len(pairs)} "
                  "adjacent pairs in the true order")  # fmt: skip


def _json_half(read: JsonRead) -> float:
    ctype = (read.content_type or "").split(";")[0].strip().lower()
    return 0.5 * read.parseable + 0.5 * (ctype == "application/json")


@app_check("json_everywhere", needs=("reads",))
def json_everywhere(obs: Observations, s: CheckSettings) -> CheckResult:
    """Each sampled response (success and error) parses as JSON (half) and declares
    application/json (half)."""
    sample = obs["reads"].sample
    scores = [_json_half(r) for r in sample]
    bad = [f"{r.response.path}: {g(x)}" for r, x in zip(sample, scores, strict=True) if x < 1]
    score = sum(scores) / len(scores) if scores else 0.0
    return result("json_everywhere", score, f"{g(score)}: "
                  + (f"short: {'; '.join(bad)}" if bad else f"all {len(sample)} JSON"))  # fmt: skip


@app_check("health_semantics", needs=("health", "reads"))
def health_semantics(obs: Observations, s: CheckSettings) -> CheckResult:
    """Quarters: status ok; on the fresh db payments 0 and last_sync null; after syncing
    payments 247; last_sync in UTC."""
    fresh, after = body(obs["health"].fresh) or {}, body(obs["reads"].health) or {}
    last = after.get("last_sync")
    parts = {
        "status ok": fresh.get("status") == "ok" and after.get("status") == "ok",
        "fresh db: payments 0, last_sync null": fresh.get("payments") == 0
        and is_int(fresh.get("payments"))
        and "last_sync" in fresh
        and fresh["last_sync"] is None,
        f"after syncing: payments {obs.truth.total}": after.get("payments") == obs.truth.total
        and is_int(after.get("payments")),
        "last_sync in UTC": _utc(last) and instant(last) is not None,
    }
    return _parts("health_semantics", parts)
