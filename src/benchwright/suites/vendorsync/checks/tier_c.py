"""Tier C (vendor contract), except its five hard checks: the vendor's ledger of the
first sync and the client's direct calls (facts entries 23-32)."""

from __future__ import annotations

from typing import Any

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import EXACT, app_check, result, unavailable
from benchwright.suites.vendorsync.checks._common import PROBE_UNAVAILABLE, CheckSettings
from benchwright.suites.vendorsync.checks._read import ledger
from benchwright.suites.vendorsync.observations import Observations

NO_BUILD_TRACE = PROBE_UNAVAILABLE + "no build-phase vendor trace"
WALKS = ("sync1", "sync2", "client")
"""The windows in which the app's client walked the vendor."""


@app_check("vendor_read_docs")
def vendor_read_docs(obs: Observations, s: CheckSettings) -> CheckResult:
    """The vendor docs (/v1/docs or /docs) were read while the tree was built: from the
    build-phase vendor trace only, never from the graded tree; no such trace UNAVAILABLE."""
    reads = obs.build_docs_reads
    if reads is None:
        return unavailable("vendor_read_docs", NO_BUILD_TRACE)
    if reads == 0:
        return result("vendor_read_docs", 0.0, "0: the build never fetched the vendor docs")
    return result("vendor_read_docs", 1.0, f"1: the build fetched the vendor docs {reads}x")


@app_check("vendor_cursor_paging", needs=("sync1", "trace"))
def vendor_cursor_paging(obs: Observations, s: CheckSettings) -> CheckResult:
    """List requests follow the vendor's cursors; none uses page/offset/skip."""
    seen = [x for x in (ledger(obs, w) for w in WALKS) if x is not None]
    lists = sum(x.list_requests for x in seen)
    offset = sum(x.offset_style_requests for x in seen)
    if lists == 0:
        return result("vendor_cursor_paging", 0.0, "0: no list request reached the vendor")
    if offset:
        return result("vendor_cursor_paging", 0.0, f"0: {offset}/{lists} list requests used "
                      "page/offset/skip")  # fmt: skip
    return result("vendor_cursor_paging", 1.0, f"1: {lists} list requests, all by cursor")


@app_check("vendor_all_pages", needs=("sync1", "trace"))
def vendor_all_pages(obs: Observations, s: CheckSettings) -> CheckResult:
    """The first sync reached the last page (a 200 answer with no next cursor)."""
    found = ledger(obs, "sync1")
    if found is None or not found.reached_end:
        return result("vendor_all_pages", 0.0, "0: the first sync stopped before the last page")
    return result("vendor_all_pages", 1.0, "1: the first sync reached the last page")


def _trap(check_id: str, obs: Observations, field: str, tag: str) -> CheckResult:
    """Pass/fail on one trap of the first sync's ledger (its score is 1 only when every
    instance was honoured; 0 when it was never met). ``tag`` begins its ledger details."""
    found = ledger(obs, "sync1")
    score = getattr(found, field) if found is not None else 0.0
    details = [d for d in (found.details if found else ()) if d.startswith(tag)]
    if score >= 1.0 - EXACT:
        return result(check_id, 1.0, f"1: {details[0] if details else tag}")
    why = details[0] if details else f"{tag}: never met in the first sync"
    return result(check_id, 0.0, f"0: {why}")


@app_check("vendor_retry_secs", needs=("sync1", "trace"))
def vendor_retry_secs(obs: Observations, s: CheckSettings) -> CheckResult:
    """After the seconds-form 429 the next list request waited the stated seconds."""
    return _trap("vendor_retry_secs", obs, "retry_seconds", "429 (seconds)")


@app_check("vendor_retry_date", needs=("sync1", "trace"))
def vendor_retry_date(obs: Observations, s: CheckSettings) -> CheckResult:
    """After the HTTP-date 429 the next list request came at or after the stated moment."""
    return _trap("vendor_retry_date", obs, "retry_date", "429 (date)")


@app_check("vendor_cursor_expiry", needs=("sync1", "trace"))
def vendor_cursor_expiry(obs: Observations, s: CheckSettings) -> CheckResult:
    """After the 410 the client restarted without a cursor, never re-sending the dead one."""
    return _trap("vendor_cursor_expiry", obs, "cursor_expiry", "410")


def call(obs: Observations, name: str) -> tuple[Any, str | None]:
    """What the direct call ``name`` returned, or (None, why it returned nothing)."""
    seen = obs["client"]
    if seen.report is None:
        return None, seen.failure
    if "error" in seen.report:
        return None, seen.report["error"]
    found = seen.report.get(name) or {}
    return found.get("ok"), found.get("error")


def _payments(check_id: str, obs: Observations) -> tuple[dict | None, CheckResult | None]:
    got, why = call(obs, "fetch_all_payments")
    if got is None:
        return None, result(check_id, 0.0, f"0: fetch_all_payments() failed: {why}")
    return got, None


@app_check("client_all_payments", needs=("client",))
def client_all_payments(obs: Observations, s: CheckSettings) -> CheckResult:
    """fetch_all_payments(), called directly, returns 247 payments."""
    got, failed = _payments("client_all_payments", obs)
    if failed:
        return failed
    ok = got["count"] == obs.truth.total
    return result("client_all_payments", float(ok), f"{int(ok)}: fetch_all_payments() returned "
                  f"{got['count']} ({got['type']})")  # fmt: skip


@app_check("client_total_count", needs=("client",))
def client_total_count(obs: Observations, s: CheckSettings) -> CheckResult:
    """total_count() returns 247 (the collection, not a page size)."""
    got, why = call(obs, "total_count")
    if got is None:
        return result("client_total_count", 0.0, f"0: total_count() failed: {why}")
    ok = got["type"] == "int" and got["value"] == obs.truth.total
    return result("client_total_count", float(ok), f"{int(ok)}: total_count() returned "
                  f"{got['value']!r} ({got['type']})")  # fmt: skip


@app_check("client_true_order", needs=("client",))
def client_true_order(obs: Observations, s: CheckSettings) -> CheckResult:
    """fetch_all_payments() returns exactly the true instant order; a different set of
    payments is not assessed (0)."""
    got, failed = _payments("client_true_order", obs)
    if failed:
        return failed
    ids, truth = tuple(got["ids"]), obs.truth.true_order
    if sorted(ids) != sorted(truth):
        said = f"{len(ids)} returned, {len(set(ids))} distinct"
        return result("client_true_order", 0.0, f"0: not the vendor's {len(truth)} payments "
                      f"({said}): order not assessed")  # fmt: skip
    if ids != truth:
        first = next(i for i, (a, b) in enumerate(zip(ids, truth, strict=True)) if a != b)
        return result("client_true_order", 0.0, f"0: out of instant order from position {first} "
                      f"({ids[first]} where {truth[first]} belongs)")  # fmt: skip
    return result("client_true_order", 1.0, "1: oldest instant first, ties by id")


@app_check("client_integer_amounts", needs=("client",))
def client_integer_amounts(obs: Observations, s: CheckSettings) -> CheckResult:
    """Every amount_minor fetch_all_payments() returns is an integer."""
    got, failed = _payments("client_integer_amounts", obs)
    if failed:
        return failed
    types = got["amount_types"]
    if not got["count"]:
        return result("client_integer_amounts", 0.0, "0: nothing returned")
    ok = types == ["int"]
    return result("client_integer_amounts", float(ok), f"{int(ok)}: amount_minor types: "
                  f"{', '.join(types)}")  # fmt: skip
