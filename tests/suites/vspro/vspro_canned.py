"""Canned vspro observations: what a perfect app shows every phase, built from the fixture.

Tests start from `perfect()` and replace one phase's observation with a near miss.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from canned_http import http, jr

from benchwright.probes.http import (
    Interval,
    LatencyObservation,
    LoadObservation,
    LoadSample,
    MatrixCell,
    MatrixObservation,
)
from benchwright.services.app import BootObservation
from benchwright.services.meridian import BatchTrace, ConflictTrace, TrapResults, build_fixture
from benchwright.suites.vspro.checks import CheckSettings, build_table
from benchwright.suites.vspro.observations import (
    BatchObs,
    BootObs,
    ConcurrencyObs,
    ConflictObs,
    JsonSampleObs,
    LoadObs,
    MutationObs,
    Observations,
    PageObs,
    PerfObs,
    ReadsObs,
    RestartObs,
    StaticObs,
    SyncObs,
    TraceObs,
    TrapsObs,
    ValidationObs,
    WebhookObs,
)
from benchwright.suites.vspro.phases.reads import (
    BAD_GETS,
    JSON_SAMPLE,
    NOTE_PROBE_ID,
    WRITE_CELLS,
)
from benchwright.suites.vspro.phases.static import MODULES
from benchwright.suites.vspro.phases.writes import FIRST_NOTE, SECOND_NOTE

FIXTURE = build_fixture(0)
EXPECT = FIXTURE.expect
STORE = """CREATE TABLE IF NOT EXISTS payments (id TEXT PRIMARY KEY, version INTEGER);
INSERT INTO payments (id, version) VALUES (?, ?)
ON CONFLICT(id) DO UPDATE SET version = excluded.version WHERE excluded.version > payments.version;
"""


def api_row(row: dict) -> dict:
    keep = (
        "id",
        "amount_minor",
        "currency",
        "created_at",
        "settled_at",
        "status",
        "version",
        "note",
    )
    out = {k: row[k] for k in keep}
    out |= {
        "counterparty_name": row["counterparty"]["name"],
        "country": row["counterparty"]["country"],
    }
    return out


ROWS = [api_row(r) for r in FIXTURE.rows]


def page(rows: list[dict], total: int = EXPECT.total, limit: int = 50, offset: int = 0) -> dict:
    return {"data": rows, "total": total, "limit": limit, "offset": offset}


def envelope(code: str, fields: list[tuple[str, str]] | None = None) -> dict:
    error: dict[str, Any] = {"code": code, "message": f"{code} happened"}
    if fields is not None:
        error["field_errors"] = [{"path": p, "code": c} for p, c in fields]
    return {"error": error}


def boot(healthy: bool = True, body: dict | None = None) -> BootObservation:
    health = body if body is not None else health_body()
    return BootObservation(
        ladder=1.0 if healthy else 0.0,
        detail="1.0: healthy in 0.4 s (rung <= 5 s)" if healthy else "0.0: crashed at boot",
        healthy_after_s=0.4 if healthy else None,
        bound=healthy,
        statuses=(200,),
        exit_code=None if healthy else 1,
        exited_after_s=None,
        output_tail=b"",
        health_body=json.dumps(health).encode() if healthy else None,
        port=1,
        log_path=Path("app.log"),
    )


def health_body(count: int = 0, **hook: Any) -> dict:
    counters = {"registered": True, "received": 0, "applied": 0, "ignored": 0, "rejected": 0}
    return {"status": "ok", "payments": count, "last_sync": None, "webhook": counters | hook}


def latency(path: str, ms: float = 5.0, n: int = 20) -> LatencyObservation:
    samples = tuple(http(200, b"{}", path=path, elapsed=ms / 1000) for _ in range(n))
    return LatencyObservation(path, samples, tuple(ms for _ in range(n)), ms)


def load(ms: float = 20.0, overlap: float = 1.0, body: dict | None = None) -> LoadObservation:
    content = json.dumps(body or page(ROWS[:50])).encode()
    samples = tuple(
        LoadSample(r, i, Interval(1.0, 1.0 + ms / 1000), http(200, content, elapsed=ms / 1000))
        for r in range(8)
        for i in range(6)
    )
    return LoadObservation(
        "/api/payments?limit=50", samples, Interval(0.0, 11.0), None, overlap, ms
    )


def list_line(
    seq: int,
    status: int = 200,
    cursor: str | None = "c",
    limit: str = "100",
    inm: str | None = None,
    **query: str,
) -> dict:
    q = {"limit": limit, **({"cursor": cursor} if cursor else {}), **query}
    return {
        "seq": seq,
        "t": seq / 10,
        "method": "GET",
        "path": "/v2/payments",
        "query": q,
        "status": status,
        "if_none_match": inm,
    }


def marker(seq: int, name: str) -> dict:
    return {
        "seq": seq,
        "t": seq / 10,
        "__phase__": name,
        "method": "-",
        "path": "-",
        "status": 0,
        "query": {},
    }


def trace_lines(sync1: int = 13, sync2: int = 16) -> tuple[dict, ...]:
    lines = [marker(1, "sync1")]
    lines += [list_line(2 + i, cursor=None if i == 0 else "c") for i in range(sync1)]
    lines += [marker(100, "syncfull"), marker(200, "sync2")]
    lines += [list_line(201 + i, 304, inm='"e"') for i in range(sync2)]
    return (*lines, marker(300, "sync2done"))


def perfect() -> Observations:
    """Every phase as the golden app shows it."""
    counters, final = FIXTURE.webhook_counters, FIXTURE.webhook_final_rows
    summary = {
        "count": EXPECT.total,
        "last_sync": "2026-03-30T10:00:00Z",
        "oldest": EXPECT.oldest,
        "newest": EXPECT.newest,
        "by_currency": [
            {"currency": c, "count": n, "total_minor": t}
            for c, (n, t) in sorted(EXPECT.by_currency.items())
        ],
    }
    refunded = [r for r in ROWS if r["status"] == "refunded"]
    bad = [
        (
            MatrixCell(n, p),
            http(
                404 if n == "nope" else 400,
                json.dumps(
                    envelope("not_found")
                    if n == "nope"
                    else envelope("bad_request", [(n.split("=")[0], "bad_format")])
                ).encode(),
                path=p,
            ),
        )
        for n, p in BAD_GETS
    ]
    answers = {
        "note>280": (400, envelope("bad_request", [("note", "too_long")])),
        "unknown id": (404, envelope("not_found")),
        "PUT /api/summary": (405, envelope("bad_request")),
    }
    bad += [
        (c, replace(http(status, json.dumps(value).encode(), path=c.path), method=c.method))
        for c in WRITE_CELLS
        for status, value in [answers[c.name]]
    ]
    batch_items = [
        {"index": 0, "status": "created", "id": "pay_new_0001"},
        {"index": 1, "status": "error", "error": {"code": "amount_over_limit", "message": "over"}},
        {"index": 2, "status": "created", "id": "pay_new_0002"},
    ]
    ops = (
        {"key": "sb6-b1", "content": "a", "outcome": "created"},
        {"key": "sb6-b2", "content": "b", "outcome": "amount_over_limit"},
        {"key": "sb6-b3", "content": "c", "outcome": "created"},
    )
    script = {
        "delivered": 7,
        "expected_counters": counters,
        "expected_rows": final,
        "results": [{"event_id": "evt_0004", "kind": "forged", "status": 401}],
    }
    phases = {
        "static": StaticObs(
            True,
            dict.fromkeys(MODULES, True),
            {
                "MeridianClient": (
                    "fetch_all_payments",
                    "get_payment",
                    "total_count",
                    "create_payment",
                    "create_batch",
                    "update_payment",
                    "register_webhook",
                ),
                "Store": (
                    "upsert_many",
                    "query",
                    "get",
                    "apply_event",
                    "buckets",
                    "count",
                    "last_sync",
                    "set_last_sync",
                ),
            },
            (),
            {"index.html": 6000, "styles.css": 9000, "app.js": 20000, "viz.js": 15000},
            STORE,
            "urlopen(request, timeout=10)",
        ),
        "boot": BootObs(boot()),
        "page": PageObs(
            http(200, b"<!doctype html><html></html>", "text/html"),
            True,
            {
                "styles.css": http(200, b"body{}", "text/css"),
                "app.js": http(200, b"1", "text/javascript"),
                "viz.js": http(200, b"1", "application/javascript"),
            },
            {"styles.css": 6, "app.js": 1, "viz.js": 1},
            {
                "styles.css": http(200, b"body{}", "text/css"),
                "app.js": http(200, b"1", "text/javascript"),
                "viz.js": http(200, b"1", "application/javascript"),
            },
        ),
        "sync1": SyncObs(jr({"fetched": 776, "inserted": 776, "updated": 0, "total": 776})),
        "sync_full": SyncObs(
            jr({"fetched": 1553, "inserted": 777, "updated": 0, "total": 1553}), health_count=1553
        ),
        "sync_fill": SyncObs(jr(health_body(1553)), health_count=1553, ran=False),
        "sync2": SyncObs(jr({"fetched": 0, "inserted": 0, "updated": 0, "total": 1553})),
        "reads": ReadsObs(
            default=jr(page(ROWS[:50])),
            page5=jr(page(ROWS[5:10], limit=5, offset=5)),
            capped=jr(page(ROWS[:200], limit=200)),
            sorted_desc=jr(page(ROWS[::-1][:10], limit=10)),
            filtered=jr(page(refunded[:10], total=len(refunded), limit=10)),
            summary=jr(summary),
            buckets=jr(EXPECT.buckets),
            raw_pages=tuple(
                jr(page(ROWS[k : k + 200], limit=200, offset=k))
                for k in range(0, EXPECT.total, 200)
            ),
        ),
        "validation": ValidationObs(
            MatrixObservation(tuple(bad)),
            jr(ROWS[int(NOTE_PROBE_ID[4:])]),
            jr(envelope("vendor_error"), 502, path="/api/sync"),
            jr(envelope("vendor_unavailable"), 503, path="/api/sync"),
        ),
        "batch": BatchObs(
            jr({"results": batch_items, "succeeded": 2, "failed": 1}),
            BatchTrace(ops, 0, 0, 0),
            jr(
                envelope("bad_request", [("items[0].amount.value_minor", "not_an_integer")]),
                400,
                path="/api/payments/batch",
            ),
        ),
        "conflict": ConflictObs(
            "pay_0000",
            jr({"id": "pay_0000", "note": FIRST_NOTE}),
            jr(envelope("conflict"), 409, path="/api/payments/pay_0000/note"),
            jr(ROWS[0] | {"note": FIRST_NOTE}),
            SECOND_NOTE,
            ConflictTrace(4, 0, 3, 1, True),
        ),
        "under_load": LoadObs(load(), 50),
        "traps": TrapsObs(
            TrapResults(1.0, 1.0, 1.0, {"retry_after": 4, "cursor_expiry": 2, "stall": 1}, ())
        ),
        "idle_perf": PerfObs(
            latency("/api/payments?limit=50"),
            latency("/api/buckets"),
            latency("/api/summary"),
            http(200, b"<html>", "text/html"),
            jr({"total": 1553}, elapsed=0.5),
        ),
        "concurrency": ConcurrencyObs((jr({}), jr({})), 1553),
        "json_sample": JsonSampleObs(tuple(jr({}, path=p) for p in JSON_SAMPLE)),
        "mutation": MutationObs(FIXTURE.mutation_map, jr({}), dict(FIXTURE.mutation_map), jr({})),
        "restart": RestartObs(1553, boot(body=health_body(1553)), 1553),
        "webhook": WebhookObs(
            0.1,
            script,
            None,
            health_body(1553, **counters),
            {pid: dict(v) for pid, v in final.items()},
        ),
        "trace": TraceObs(trace_lines()),
    }
    ids = frozenset(r["id"] for r in FIXTURE.rows)
    return Observations(0, EXPECT, ids, phases=phases)


def swap(obs: Observations, phase: str, **changes: Any) -> Observations:
    """``obs`` with one phase's observation changed field by field."""
    return obs.with_phase(phase, replace(obs[phase], **changes))


def grade_one(obs: Observations, check_id: str, settings: CheckSettings | None = None):
    """One check's row over ``obs`` (a fresh table each call, the grader's absent-phase rules)."""
    return build_table().evaluate_one(check_id, obs, settings or CheckSettings())
