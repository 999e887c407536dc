"""Tier C (vendor contract): API depth, batch partial failure, cursor paging, traps."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, frac, g, instant, is_int, result, unavailable
from benchwright.suites.vspro.checks._common import ROW_KEYS
from benchwright.suites.vspro.checks._errors import PUBLIC_MATRIX, error_code
from benchwright.suites.vspro.checks._trace import list_requests
from benchwright.suites.vspro.observations import Observations, body, rows_of

PAGING_PARAMS = ("offset", "page", "start", "skip")
BATCH_KEYS = ("sb6-b1", "sb6-b2", "sb6-b3")


def pagination_cells(obs: Observations) -> dict[str, bool]:
    """The five paging cells of c_api_depth (the first three are local_pagination's)."""
    r = obs["reads"]
    capped = body(r.capped) or {}
    desc = rows_of(r.sorted_desc) or []
    top = instant(desc[0].get("created_at")) if desc and isinstance(desc[0], dict) else None
    refunded = rows_of(r.filtered) or []
    return {
        "default page is 50 rows": len(rows_of(r.default) or []) == 50,
        "limit=500 capped to 200 and echoed": capped.get("limit") == 200
        and 0 < len(rows_of(r.capped) or []) <= 200,
        "limit=5&offset=5 gives 5 rows": len(rows_of(r.page5) or []) == 5,
        "sort=-created_at starts at the newest": top is not None
        and top == instant(obs.expect.newest),
        "status=refunded only refunded, integer total": bool(refunded)
        and all(isinstance(x, dict) and x.get("status") == "refunded" for x in refunded)
        and is_int((body(r.filtered) or {}).get("total")),
    }


def validation_cells(obs: Observations) -> dict[str, bool]:
    """The public instrument's seven status cells (§09 ``c_api_depth``): five bad GETs 400,
    /api/nope 404, the invalid batch 400. The spec's further status duties that our probes
    meet are ``x_status_duties``'s (`spec_duties`), never this matrix's."""
    got = {c.name: o.status for c, o in obs["validation"].matrix.results}
    cells = {f"{name} -> {want}": got.get(name) == want for name, want in PUBLIC_MATRIX.items()}
    cells["invalid batch -> 400"] = obs["batch"].invalid.status == 400
    return cells


@app_check("c_api_depth", needs=("reads", "validation", "batch"))
def c_api_depth(obs: Observations, _s) -> CheckResult:
    """gate (rows on the wire) x min(exact 10-key schema, 5 paging cells, 7 status cells)."""
    rows = [x for p in obs["reads"].raw_pages for x in (rows_of(p) or []) if isinstance(x, dict)]
    if not rows:
        return result("c_api_depth", 0.0, "0: gate: no rows on the wire")
    schema = frac(sum(set(x) == set(ROW_KEYS) for x in rows), len(rows))
    paging, valid = pagination_cells(obs), validation_cells(obs)
    pag, val = frac(sum(paging.values()), 5), frac(sum(valid.values()), len(valid))
    score = min(schema, pag, val)
    failed = [k for k, ok in {**paging, **valid}.items() if not ok]
    tail = f"; failed: {', '.join(failed)}" if failed else ""
    counts = f"paging {sum(paging.values())}/5, validation {sum(valid.values())}/{len(valid)}"
    return result("c_api_depth", score, f"{g(score)}: min(schema {schema:.4g}, {counts}){tail}")


@app_check("c_batch_partial", needs=("batch",))
def c_batch_partial(obs: Observations, _s) -> CheckResult:
    """Quarters: results in input order with the good items created; each good item created
    once at the vendor, under its own key; the failed item's code amount_over_limit; no
    retry of it (credited only when the batch reached the vendor under its keys at all).

    The key is the payment's identity at the vendor ("unique per intended payment"), so an
    item that arrives under another key (or none) is another payment: its good items were
    never created once *as sent*, and no retry of the failed one can be ruled out."""
    b = obs["batch"]
    items = (body(b.response) or {}).get("results")
    items = [x for x in items if isinstance(x, dict)] if isinstance(items, list) else []
    ordered = len(items) == 3 and [x.get("index") for x in items] == [0, 1, 2]
    ordered = ordered and all(items[i].get("status") == "created" for i in (0, 2))
    created = [op["key"] for op in b.trace.ops if op.get("outcome") == "created"]
    once = b.trace.duplicate_creates == 0 and all(
        created.count(k) == 1 for k in ("sb6-b1", "sb6-b3")
    )
    coded = len(items) > 1 and error_code(items[1]) == "amount_over_limit"
    reached = any(op.get("key") in BATCH_KEYS for op in b.trace.ops)  # no vacuous calm
    calm = reached and b.trace.retries_of_failed_item == 0 and b.trace.fresh_key_retries == 0
    parts = {"in order, good items created": ordered, "created once each": once,
             "amount_over_limit reported": coded, "no retry of the failed item": calm}  # fmt: skip
    score = 0.25 * sum(parts.values())
    missed = [k for k, ok in parts.items() if not ok]
    tail = f"; missed: {', '.join(missed)}" if missed else ""
    return result("c_batch_partial", score, f"{g(score)}: {sum(parts.values())}/4 quarters"
                  f"{tail}{_key_duty(b.trace.ops)}", status=b.response.status,
                  trace=b.trace.as_dict() | {"ops": len(b.trace.ops)})  # fmt: skip


def _key_duty(ops: tuple[dict, ...]) -> str:
    """Names §6.8's key duty when an item the grader sent never reached the vendor under
    its own idempotency key while others did (a key stripped, replaced or left empty)."""
    seen = [op.get("key") or "" for op in ops]
    lost = [k for k in BATCH_KEYS if k not in seen]
    if not lost or not ops:
        return ""
    others = sorted({repr(k) if k else "no key" for k in seen if k not in BATCH_KEYS})
    shown = ", ".join(others[:3]) + (f" (+{len(others) - 3} more)" if len(others) > 3 else "")
    return (f"; duty: §6.8 each batch item goes to the vendor with its own idempotency key "
            f"(a resent item must not create a second payment) - {', '.join(lost)} never "
            f"reached the vendor, which saw {shown}")  # fmt: skip


@app_check("vendor_cursor_paging", needs=("trace",))
def vendor_cursor_paging(obs: Observations, _s) -> CheckResult:
    """1 - offenders/list requests, where offenders carry offset/page/start/skip; no cursored
    request (or no list request) scores 0."""
    lists = list_requests(obs["trace"].lines)
    if not lists:
        return result("vendor_cursor_paging", 0.0, "0: no list requests reached the vendor")
    cursored = sum(bool(x["query"].get("cursor")) for x in lists)
    offenders = sum(any(p in x["query"] for p in PAGING_PARAMS) for x in lists)
    if not cursored:
        return result("vendor_cursor_paging", 0.0, f"0: none of {len(lists)} list requests "
                      "used the cursor")  # fmt: skip
    score = 1 - offenders / len(lists)
    return result("vendor_cursor_paging", score, f"{g(score)}: {offenders}/{len(lists)} list "
                  f"requests with offset/page/start/skip; {cursored} cursored")  # fmt: skip


@app_check("vendor_traps", needs=("traps",))
def vendor_traps(obs: Observations, _s) -> CheckResult:
    """Mean of the trap ledger's retry_after, cursor_expiry and stall (each a min)."""
    t = obs["traps"].results
    if not any(t.instances.values()):
        return unavailable("vendor_traps", "trap ledger empty: the vendor's traps were never "
                           "exercised")  # fmt: skip
    score = (t.retry_after + t.cursor_expiry + t.stall) / 3
    return result("vendor_traps", score, f"{g(score)}: retry_after {t.retry_after:g}, "
                  f"cursor_expiry {t.cursor_expiry:g}, stall {t.stall:g}",
                  details=list(t.details))  # fmt: skip
