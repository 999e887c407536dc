"""Canned vendorsync observations: what a perfect app shows every phase, built from the
Meridian v1 fixture and the reference tree's files.

Tests start from `perfect()` and replace one phase's observation with a near miss.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from canned_http import http, jr

from benchwright.model import CheckResult
from benchwright.probes.http import LatencyObservation, MatrixObservation
from benchwright.services.app import BootObservation
from benchwright.services.meridian import ContractLedger
from benchwright.services.meridian.fixture_v1 import build_fixture_v1
from benchwright.suites.kit.kinds import BootObs, RestartObs
from benchwright.suites.vendorsync.checks import CheckSettings, build_table
from benchwright.suites.vendorsync.observations import (
    ClientObs,
    ConcurrentObs,
    HealthObs,
    LedgerObs,
    Observations,
    PerfObs,
    ReadsObs,
    StaticObs,
    SyncObs,
    Truth,
    UpdateObs,
    ValidationObs,
)
from benchwright.suites.vendorsync.phases.reads import JSON_SAMPLE, error_cells
from benchwright.suites.vendorsync.phases.static import observe_tree

REFERENCE = Path(__file__).resolve().parents[3] / "suites" / "vendorsync" / "reference"
FIXTURE = build_fixture_v1(0)
TRUTH = Truth.of(FIXTURE)
ROWS = [{k: v for k, v in row.items() if not k.startswith("_")} for row in FIXTURE.rows]
LAST_SYNC = "2026-04-01T10:00:00Z"
ERRORS = {400: "bad_request", 404: "not_found", 405: "method_not_allowed"}
PAGE = b"<!doctype html><html><body><table></table></body></html>"


def page(rows: list[dict], limit: int = 25, offset: int = 0, total: int = TRUTH.total) -> dict:
    return {"data": rows, "total": total, "limit": limit, "offset": offset}


def health(payments: int = 0, last_sync: str | None = None) -> dict:
    return {"status": "ok", "payments": payments, "last_sync": last_sync}


def boot(healthy: bool = True, body: dict | None = None, after_s: float = 0.4) -> BootObservation:
    shown = body if body is not None else health()
    return BootObservation(
        ladder=1.0 if healthy else 0.0,
        detail=f"1.0: healthy in {after_s} s" if healthy else "0.0: exited 1 at boot",
        healthy_after_s=after_s if healthy else None,
        bound=healthy,
        statuses=(200,) if healthy else (),
        exit_code=None if healthy else 1,
        exited_after_s=None if healthy else 0.2,
        output_tail=b"",
        health_body=json.dumps(shown).encode() if healthy else None,
        port=1,
        log_path=Path("app.log"),
    )


def ledger(**changes: Any) -> ContractLedger:
    """A perfect first sync's ledger (7 requests, every trap honoured), with ``changes``."""
    perfect = ContractLedger(
        phase="sync1", retry_seconds=1.0, retry_date=1.0, cursor_expiry=1.0, list_requests=7,
        offset_style_requests=0, reached_end=True, largest_limit=100, conditional_requests=0,
        not_modified=0, creates=0, keyed_creates=0, replayed_creates=0, docs_reads=0,
        details=("429 (seconds) #3: next list request after 1.00 s (needs >= 1.00 s)",
                 "410 #4: restarted without a cursor",
                 "429 (date) #5: next list request after 1.10 s (needs >= 1.00 s)"),
    )  # fmt: skip
    return replace(perfect, **changes)


def latency(ms: float = 5.0, n: int = 20) -> LatencyObservation:
    path = "/api/payments?limit=25"
    samples = tuple(http(200, b"{}", path=path, elapsed=ms / 1000) for _ in range(n))
    return LatencyObservation(path, samples, tuple(ms for _ in range(n)), ms)


def report(ids: list[str] | None = None, amount_types: tuple[str, ...] = ("int",)) -> dict:
    """The client driver's report of a perfect client."""
    ids = list(TRUTH.true_order) if ids is None else ids
    walk = {"type": "list", "count": len(ids), "ids": ids,
            "amount_types": list(amount_types), "non_objects": 0}  # fmt: skip
    created = {"ok": {"type": "str", "value": "pay_new_0000"}}
    return {
        "fetch_all_payments": {"ok": walk},
        "total_count": {"ok": {"type": "int", "value": TRUTH.total}},
        "creates": [created, created],
    }


def static() -> StaticObs:
    """The reference tree's files, read as the static phase reads them."""
    return observe_tree(REFERENCE)


def matrix(**answers: tuple[int, dict]) -> MatrixObservation:
    """The error matrix, every cell documented unless ``answers`` names it (by name with
    ``_`` for ``=``, e.g. ``limit_0``)."""
    cells = []
    for cell in error_cells():
        key = cell.name.replace("=", "_").replace("/", "_").replace(" ", "_").strip("_")
        status = _status(cell.name)
        status, shown = answers.get(key, (status, {"error": ERRORS[status]}))
        cells.append((cell, http(status, json.dumps(shown).encode(), path=cell.path)))
    return MatrixObservation(tuple(cells))


def _status(name: str) -> int:
    return 405 if name.startswith("DELETE") else 404 if name.startswith("/") else 400


def perfect() -> Observations:
    """Every phase as a perfect vendorsync shows it."""
    total, changed = TRUTH.total, dict.fromkeys(list(FIXTURE.mutation_map), "refunded")
    synced = {"fetched": total, "inserted": total, "total": total}
    again = {"fetched": total, "inserted": 0, "total": total}
    summary = {"count": total, "total_minor": TRUTH.sum_minor, "currency": "EUR",
               "oldest": TRUTH.oldest, "newest": TRUTH.newest}  # fmt: skip
    after = health(total, LAST_SYNC)
    phases = {
        "static": static(),
        "boot": BootObs(boot()),
        "health": HealthObs(jr(health())),
        "sync1": SyncObs(jr(synced, elapsed=4.2), jr(after)),
        "concurrent": ConcurrentObs((jr(again), jr(again)), total),
        "sync2": SyncObs(jr(again), jr(after)),
        "reads": ReadsObs(
            index=http(200, PAGE, "text/html; charset=utf-8"),
            default=jr(page(ROWS[:25])),
            capped=jr(page(ROWS[:100], limit=100)),
            page5=jr(page(ROWS[5:10], limit=5, offset=5)),
            pages=tuple(jr(page(ROWS[o : o + 100], 100, o)) for o in (0, 100, 200)),
            summary=jr(summary),
            health=jr(after),
            sample=tuple(jr({}, path=p) for p in JSON_SAMPLE),
        ),
        "validation": ValidationObs(matrix()),
        "client": ClientObs(report(), None),
        "update": UpdateObs(changed, jr(again), dict(changed)),
        "restart": RestartObs(total, boot(body=after), total),
        "perf": PerfObs(latency(), None),
        "trace": LedgerObs(
            {
                "sync1": ledger(),
                "sync2": ledger(
                    phase="sync2",
                    list_requests=3,
                    conditional_requests=3,
                    not_modified=3,
                    reached_end=False,
                    details=(),
                ),
                "client": ledger(
                    phase="client", list_requests=8, creates=2, keyed_creates=2, replayed_creates=1
                ),
            }
        ),
    }
    return Observations(phases=phases, seed=0, truth=TRUTH, build_docs_reads=1)


def swap(obs: Observations, phase: str, **changes: Any) -> Observations:
    """``obs`` with one phase's observation changed field by field."""
    return obs.with_phase(phase, replace(obs[phase], **changes))


def with_ledger(obs: Observations, window: str, **changes: Any) -> Observations:
    """``obs`` with one window's vendor ledger changed (None: the window never ran)."""
    ledgers = dict(obs["trace"].ledgers)
    ledgers[window] = None if changes.get("gone") else replace(ledgers[window], **changes)
    return swap(obs, "trace", ledgers=ledgers)


def with_web(obs: Observations, **files: str | None) -> Observations:
    """``obs`` with page files replaced (``index_html=...``; None removes one)."""
    web = dict(obs["static"].web)
    for key, text in files.items():
        name = key.replace("_", ".")
        web.pop(name, None)
        if text is not None:
            web[name] = text
    return swap(obs, "static", web=web)


def grade_one(
    obs: Observations, check_id: str, settings: CheckSettings | None = None
) -> CheckResult:
    """One check's row over ``obs`` (a fresh table, the grader's absent-phase rules)."""
    return build_table().evaluate_one(check_id, obs, settings or CheckSettings())
