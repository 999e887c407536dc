"""Observation records for the sb-7 check tests, built in code (no servers): `perfect()` is
what a correct app leaves under the full fault schedule, against the seeded v3 fixture
(its truth as the sb-7 grader records it); each test swaps one piece for the defect it
proves a check catches (`swap`).

The app's side is replayed here independently of `suites.sb7.checks._truth`, so a bug in
the checks' derivation of the vendor's truth cannot hide behind the same bug on the app's
side."""

from __future__ import annotations

import functools
import json
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from sb7_browser_canned import record as browser_record
from sb7_flows_views import FLOWS
from sb7_perf_records import battery, under

from benchwright.model import CheckResult
from benchwright.probes.http import HttpObservation, JsonRead, parse_wire_json
from benchwright.services.app import BootObservation
from benchwright.services.meridian_v3 import build_fixture_v3
from benchwright.suites.sb7.browser.record import BROWSER, Sb7BrowserRecord
from benchwright.suites.sb7.checks import CheckSettings, build_table
from benchwright.suites.sb7.grader import truth as recorded_truth
from benchwright.suites.sb7.observations import (
    B4Window,
    BootObs,
    Case,
    Commit,
    CreateRecord,
    Delivery,
    EventsRead,
    FaultWindow,
    FinalObs,
    KillRecord,
    ListRequest,
    MaskedMutation,
    MatrixObs,
    NotifierObs,
    Observations,
    PageObs,
    PartitionObs,
    ReadsObs,
    ReadStream,
    RefundWindow,
    ResyncObs,
    RowSeen,
    SmokeObs,
    SpotRead,
    StreamRead,
    Sync1Obs,
    Trap,
    TreeObs,
    Truth,
    VendorObs,
    VendorTrace,
    WorkflowObs,
    WriteCall,
)
from benchwright.suites.sb7.perf_obs import IDLE_PERF, UNDER_STREAM

SEED = 7
BERLIN = ZoneInfo("Europe/Berlin")
STATUSES = ("settled", "pending", "refunded", "failed")
PAGES = 192

RACED = ("pay_00001", "pay_00005", "pay_00006", "pay_00009")
OOO = "pay_00010"
FORGED = "pay_00011"
REFUND = "pay_00012"
MASKED = ("pay_00007", "pay_00008")
CREATED = ("pay_12289", "pay_12290")
A2_PAYLOAD = {"amount_minor": 4500, "currency": "EUR",
              "counterparty": {"name": "Smoke Co", "country": "DE"}, "note": "send"}  # fmt: skip
STALE_NOTE, FORGED_NOTE = "stale v+1 note", "forged note"
READS_MARK = 12
"""The vendor's commit seq when the post-sync #1 reads happen (race, ooo, create, refund)."""


# ---------------------------------------------------------------- small constructors


def answer(value: Any, *, status: int = 200, path: str = "/api", raw: bytes | None = None,
           ctype: str = "application/json") -> JsonRead:  # fmt: skip
    """A JSON read of ``value`` (or of ``raw`` bytes) as the app answered it."""
    body = raw if raw is not None else json.dumps(value).encode()
    response = HttpObservation("GET", path, status, (("content-type", ctype),), body, 0.0, 0.01)
    return JsonRead(response, parse_wire_json(body))


def http(status: int | None, body: bytes = b"", ctype: str | None = None) -> HttpObservation:
    headers = (("content-type", ctype),) if ctype else ()
    return HttpObservation("GET", "/", status, headers, body, 0.0, 0.01)


def booted(healthy_s: float | None = 1.2, *, bound: bool = True, statuses: tuple = (200,),
           exit_code: int | None = None, exited_s: float | None = None,
           output: bytes = b"") -> BootObservation:  # fmt: skip
    return BootObservation(1.0, "", healthy_s, bound, statuses, exit_code, exited_s, output,
                           b"<html>", 0, Path("/dev/null"))  # fmt: skip


def error(code: str, *paths: str, field_code: str = "not_an_integer") -> dict:
    """The spec's error envelope (with field errors at ``paths``)."""
    found: dict = {"code": code, "message": f"{code.replace('_', ' ')}."}
    if paths:
        found["field_errors"] = [{"path": p, "code": field_code} for p in paths]
    return {"error": found}


def swap(obs: Observations, phase: str, **changes: Any) -> Observations:
    """``obs`` with phase ``phase``'s observation changed as ``changes`` say."""
    return obs.with_phase(phase, replace(obs[phase], **changes))


# ---------------------------------------------------------------- the fixture and vendor


@functools.cache
def truth() -> Truth:
    """The seeded v3 fixture at load as the sb-7 grader records it (`grader.truth`)."""
    return recorded_truth(build_fixture_v3(SEED), SEED)


def _bump(seq: int, pid: str, step: int = 1, **changes: Any) -> Commit:
    load = truth().rows[pid]
    fields = {"status": load.status, "note": load.note, **changes}
    return Commit(seq, pid, load.version + step, fields["status"], load.amount_minor,
                  load.currency, note=fields["note"], reversal=fields.get("reversal", False),
                  txn=fields.get("txn"))  # fmt: skip


@functools.cache
def commits() -> tuple[Commit, ...]:
    """The vendor's post-load commits: 8 race mutations, the out-of-order pair, the mid-walk
    create, the refund group (seq 12 = `READS_MARK`), two masked by B5, the A2 send."""
    found = [_bump(i + 1, pid, note=f"race {i}") for i, pid in enumerate(RACED)]
    found += [_bump(5 + i, RACED[i], step=2, note=f"race again {i}") for i in range(4)]
    found += [_bump(9, OOO, note=STALE_NOTE), _bump(10, OOO, step=2, note="fresh note")]
    found += [Commit(11, CREATED[0], 1, "pending", 777, "USD", created=True, day=truth().days[40])]
    found += [_bump(12, REFUND, status="refunded", reversal=True, txn="txn_9")]
    found += [_bump(13 + i, pid, status="failed") for i, pid in enumerate(MASKED)]
    found += [Commit(15, CREATED[1], 1, "pending", 4500, "EUR", created=True, day=truth().days[41])]
    return tuple(found)


@functools.cache
def app_state(upto: int | None = None) -> dict[str, dict]:
    """The correct app's rows (the 10 wire keys plus ``day``) after the commits up to
    ``upto``, in (instant, id) order. Do not mutate: cached."""
    rows = {pid: {"id": pid, "amount_minor": r.amount_minor, "currency": r.currency,
                  "created_at": r.created_at, "settled_at": None, "status": r.status,
                  "version": r.version, "note": r.note, "counterparty_name": "Aurora",
                  "country": "DE", "day": r.day}
            for pid, r in truth().rows.items()}  # fmt: skip
    for c in commits():
        if upto is not None and c.seq > upto:
            continue
        row = rows.setdefault(c.payment_id, {
            "id": c.payment_id, "amount_minor": c.amount_minor, "currency": c.currency,
            "created_at": f"{c.day}T10:00:00Z", "settled_at": None, "counterparty_name": "New",
            "country": "DE", "day": c.day})  # fmt: skip
        row.update(status=c.status, version=c.version, note=c.note)
    order = sorted(rows.values(), key=lambda r: (_parse(r["created_at"]).timestamp(), r["id"]))
    return {r["id"]: r for r in order}


def _parse(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def wire(row: dict) -> dict:
    """A row as ``/api/payments`` serves it (the 10 keys)."""
    return {k: v for k, v in row.items() if k != "day"}


def summary(rows: dict[str, dict], refunded: bool = True) -> dict:
    """``/api/summary`` over ``rows``; the refund group's reversal counted when
    ``refunded``."""
    by: dict[str, list[int]] = {}
    for r in rows.values():
        entry = by.setdefault(r["currency"], [0, 0])
        entry[0] += 1
        entry[1] += r["amount_minor"]
    revs: dict[str, list[int]] = {}
    extra = [truth().rows[REFUND]] if refunded else []
    for r in [*truth().reversals, *extra]:
        entry = revs.setdefault(r.currency, [0, 0])
        entry[0] += 1
        entry[1] += r.amount_minor
    return {"count": len(rows), "last_sync": "2026-06-01T10:00:00Z",
            "oldest": "2026-02-28T23:00:00Z", "newest": "2026-06-04T21:00:00Z",
            "by_currency": [{"currency": c, "count": n, "total_minor": t}
                            for c, (n, t) in sorted(by.items())],
            "reversals": [{"currency": c, "count": n, "total_minor": t}
                          for c, (n, t) in sorted(revs.items())]}  # fmt: skip


def buckets(rows: dict[str, dict]) -> dict:
    days = truth().days
    counts: dict[tuple[str, str], int] = {}
    for r in rows.values():
        counts[(r["day"], r["status"])] = counts.get((r["day"], r["status"]), 0) + 1
    cells = [{"day": d, "status": s, "count": counts.get((d, s), 0)}
             for d in days for s in STATUSES]  # fmt: skip
    return {"timezone": "Europe/Berlin", "days": list(days), "statuses": list(STATUSES),
            "cells": cells}  # fmt: skip


def viz(rows: dict[str, dict]) -> dict:
    cols = ("id", "amount_minor", "currency", "status", "created_at", "day", "version")
    return {"count": len(rows), **{c: [r[c] for r in rows.values()] for c in cols}}


# ---------------------------------------------------------------- the vendor's ledgers


def walk(pages: int = PAGES, *, start: float = 0.0) -> list[ListRequest]:
    """A clean first walk: every page once, cursor ``c<k>``."""
    return [ListRequest(k, start + 0.1 * k, None if k == 0 else f"c{k}",
                        () if k == 0 else ("cursor",), page=k, last=k == pages - 1)
            for k in range(pages)]  # fmt: skip


def sync1_trace() -> tuple[ListRequest, ...]:
    """The first walk with the connection dropped at page 5 (resumed on the same cursor)
    and a 500 with Retry-After 1 s at page 9 (retried once, 1.2 s later)."""
    clean = walk()
    drop = replace(clean[5], status=None, page=None, fault="drop")
    failed = replace(clean[9], status=500, page=None, fault="http500", retry_after_s=1.0)
    retried = replace(clean[9], at=clean[9].at + 1.2)
    later = [replace(r, at=r.at + 1.3) for r in clean[10:]]
    return (*clean[:5], drop, *clean[5:9], failed, retried, *later)


def resync_trace() -> tuple[tuple[ListRequest, ...], tuple[ListRequest, ...]]:
    """(every later sync's requests, B5's): a conditional re-walk answered 304, then the B5
    sync whose lying 304 at page 3 is followed by exactly one unconditional refetch."""
    again = [replace(r, status=304, page=None, if_none_match=f'"e{k}"', at=300 + r.at)
             for k, r in enumerate(walk())]  # fmt: skip
    b5 = [replace(r, at=600 + r.at) for r in again[:8]]
    lie = replace(b5[3], fault="stale304")
    refetch = replace(b5[3], if_none_match=None, status=200, page=3, at=b5[3].at + 0.05)
    b5_requests = (*b5[:3], lie, refetch, *b5[4:])
    return (*again, *b5_requests), b5_requests


def deliveries() -> tuple[Delivery, ...]:
    """Every commit announced and acknowledged 200 (the masked ones excepted), the duplicate
    delivery, the out-of-order pair v+2 first, and the forged one answered 401."""
    found = []
    for c in commits():
        if c.payment_id in MASKED:
            continue
        kind = "payment.created" if c.created else "payment.updated"
        found.append(Delivery(f"evt_{c.seq}", kind, c.payment_id, c.version, 200, txn=c.txn))
        if c.reversal:
            found.append(Delivery(f"evt_{c.seq}r", "reversal.created", c.payment_id, None, 200,
                                  txn=c.txn))  # fmt: skip
    ooo = [d for d in found if d.payment_id == OOO]
    found = [d for d in found if d.payment_id != OOO] + ooo[::-1]
    found += [found[0], Delivery("evt_forged", "payment.updated", FORGED, 9, 401, forged=True)]
    return tuple(found)


def creates() -> tuple[CreateRecord, ...]:
    """The A2 send, interrupted by the kill and retried with the same key."""
    first = CreateRecord("key-a2", None, None, False, 4500, "EUR", "Smoke Co")
    retry = CreateRecord("key-a2", 200, CREATED[1], False, 4500, "EUR", "Smoke Co")
    return first, retry


# ---------------------------------------------------------------- the app's own ledger


@functools.cache
def events() -> tuple[dict, ...]:
    """The correct app's event log: every load row created by the walk, each commit it
    applied (the stale v+1 of the out-of-order pair only counted), the drafts A1 (submitted,
    then killed), A2 (approved and sent) and a rejected one."""
    found: list[dict] = []

    def add(kind: str, source: str, pid: str | None = None, version: int | None = None,
            txn: str | None = None, **more: Any) -> None:  # fmt: skip
        found.append({"seq": len(found) + 1, "type": kind, "payment_id": pid,
                      "version": version, "source": source, "txn": txn,
                      "at": "2026-06-01T10:00:00Z", **more})  # fmt: skip

    for pid, r in truth().rows.items():
        add("payment.created", "sync", pid, r.version)
    for c in commits():
        if c.note == STALE_NOTE:
            continue
        add("payment.created" if c.created else "payment.updated", "webhook", c.payment_id,
            c.version, c.txn)  # fmt: skip
        if c.reversal:
            add("reversal.created", "webhook", c.payment_id, None, c.txn)
    for draft, steps in (("d1", ("created", "submitted")),
                         ("d2", ("created", "submitted", "approved")),
                         ("d3", ("created", "submitted", "rejected"))):  # fmt: skip
        for step in steps:
            add(f"draft.{step}", "approval", draft_id=draft)
    add("payment.sent", "approval", CREATED[1], None, draft_id="d2")
    return tuple(found)


CROSSING = ("draft.submitted", "draft.approved", "draft.rejected", "reversal.created",
            "payment.sent")  # fmt: skip


def crossing() -> list[dict]:
    return [e for e in events() if e["type"] in CROSSING]


def notifications() -> tuple[dict, ...]:
    return tuple({"id": f"n{e['seq']}", "event_seq": e["seq"], "kind": e["type"],
                  "message": "Something happened.", "at": "2026-06-01T10:00:00Z"}
                 for e in crossing() if e["type"] != "payment.sent")  # fmt: skip


# ---------------------------------------------------------------- the phases


DECISIONS = """# Decisions

## D1 — brush across a streamed mutation
A brushed record stays brushed when the stream mutates it: the brush is a set of ids.

## D2 — rejected drafts
A rejected draft is terminal: it cannot be resubmitted; the maker starts a new draft.

## D3 — before the first sync
The table renders empty with a progress line rather than blocking behind a spinner.
"""


def tree() -> TreeObs:
    files = frozenset({"app/__main__.py", "app/ledgerd.py", "app/notifierd/__main__.py",
                       "DECISIONS.md", "README.md", "app/web/index.html",
                       "app/web/styles.css", "app/web/app.js", "app/web/viz.js"})  # fmt: skip
    web = {"index.html": "<html><script src='app.js'></script></html>",
           "styles.css": "body{color:#101828}", "app.js": "fetch('/api/payments')",
           "viz.js": "const gl = null;"}  # fmt: skip
    return TreeObs(files, {k: len(v) for k, v in web.items()}, web, DECISIONS,
                   {"app/ledgerd.py": "urlopen(req, timeout=10)"})  # fmt: skip


def page() -> PageObs:
    assets = {"styles.css": http(200, b"body{}", "text/css"),
              "app.js": http(200, b"x()", "text/javascript; charset=utf-8"),
              "viz.js": http(200, b"y()", "application/javascript")}  # fmt: skip
    return PageObs(http(200, b"<!doctype html><html></html>", "text/html"), assets)


def reads() -> ReadsObs:
    rows = app_state(READS_MARK)
    first = [wire(r) for r in list(rows.values())[:50]]
    sample = (answer({"data": first, "total": len(rows), "limit": 50, "offset": 0}),
              answer(summary(rows)), answer({"status": "ok"}),
              answer(error("not_found"), status=404, path="/api/nope"),
              answer(error("bad_request", "limit"), status=400, path="/api/payments"))  # fmt: skip
    return ReadsObs(
        commit_mark=READS_MARK,
        payments=answer({"data": first, "total": len(rows), "limit": 50, "offset": 0}),
        summary=answer(summary(rows)), buckets=answer(buckets(rows)), viz=answer(viz(rows)),
        page=page(), sample=sample,
        stream_head=http(200, b"", "text/event-stream; charset=utf-8"),
    )  # fmt: skip


def matrix() -> MatrixObs:
    def case(name: str, status: int, value: dict, code: str | None = None,
             paths: tuple[str, ...] = ()) -> Case:  # fmt: skip
        return Case(name, status, answer(value, status=status), code, paths)

    validation = (
        case("limit=abc", 400, error("bad_request", "limit"), "bad_request", ("limit",)),
        case("offset=-1", 400, error("bad_request", "offset", field_code="not_positive"),
             "bad_request", ("offset",)),
        case("sort=bogus", 400, error("bad_request", "sort", field_code="unsupported"),
             "bad_request", ("sort",)),
        case("unknown path", 404, error("not_found"), "not_found"),
        case("draft without country", 400,
             error("bad_request", "counterparty.country", field_code="required"),
             "bad_request", ("counterparty.country",)),
    )  # fmt: skip
    auth = (
        case("events without token", 401, error("unauthorized"), "unauthorized"),
        case("drafts with unknown token", 401, error("unauthorized"), "unauthorized"),
        case("maker approves", 403, error("forbidden"), "forbidden"),
        case("self-approval", 403, error("approval_forbidden"), "approval_forbidden"),
    )  # fmt: skip
    return MatrixObs(validation, auth)


def spot(pids: tuple[str, ...] | None = None) -> tuple[SpotRead, ...]:
    rows = app_state()
    wanted = pids or tuple(dict.fromkeys([c.payment_id for c in commits()] + [FORGED]))
    return tuple(SpotRead(p, 200, wire(rows[p])) for p in wanted)


def stream() -> ReadStream:
    """Seeded payments polled through the run with non-decreasing versions, and the
    refund window: the target unrefunded, a summary without the group, the group applied,
    the target refunded, a summary with it."""
    before, after = app_state(READS_MARK - 1), app_state(READS_MARK)

    def seen(rows: dict[str, dict], *pids: str) -> tuple[RowSeen, ...]:
        return tuple(RowSeen(p, rows[p]["version"], rows[p]["amount_minor"],
                             rows[p]["currency"], rows[p]["status"]) for p in pids)  # fmt: skip

    loaded = app_state(0)
    reads = [StreamRead(1.0, 1.1, seen(loaded, OOO, *RACED)),
             StreamRead(2.0, 2.1, seen(before, OOO, *RACED)),
             StreamRead(3.0, 3.1, seen(before, REFUND), in_refund_window=True),
             StreamRead(3.2, 3.3, summary=summary(before, refunded=False), in_refund_window=True),
             StreamRead(4.0, 4.1, seen(after, REFUND), in_refund_window=True),
             StreamRead(4.2, 4.3, summary=summary(after), in_refund_window=True),
             StreamRead(5.0, 5.1, seen(app_state(), OOO, REFUND, *RACED))]  # fmt: skip
    return ReadStream(tuple(reads))


def reversals_before() -> dict[str, int]:
    totals: dict[str, int] = {}
    for r in truth().reversals:
        totals[r.currency] = totals.get(r.currency, 0) + r.amount_minor
    return totals


def sync1() -> Sync1Obs:
    load = truth().rows[REFUND]
    refund = RefundWindow(True, True, REFUND, load.currency, load.amount_minor,
                          load.version + 1, reversals_before())  # fmt: skip
    return Sync1Obs(True, FaultWindow(True, True), FaultWindow(True, True),
                    Trap(True, OOO, STALE_NOTE), Trap(True, FORGED, FORGED_NOTE), Trap(True),
                    refund)  # fmt: skip


def kill(name: str, service: str = "ledgerd") -> KillRecord:
    return KillRecord(name, service, len(truth().rows), len(truth().rows), True, True)


def resync() -> ResyncObs:
    final = app_state()
    masked = tuple(MaskedMutation(p, final[p]["version"], final[p]["status"]) for p in MASKED)
    return ResyncObs(
        b3=FaultWindow(True, True), b3_kill=kill("B3"), b3_total=len(truth().rows) + 1,
        b3_expected=len(truth().rows) + 1, b3_ids=tuple(app_state(READS_MARK)),
        b5=FaultWindow(True, True), b5_masked=masked, b5_after=spot(MASKED),
        b5_requests=resync_trace()[1],
    )  # fmt: skip


def partition() -> PartitionObs:
    """Notifierd down; ledgerd's writes answer fast, pending grows 1-2-3 (A1's submit and
    the rejected draft's submit and reject), the proxy answers 502, the relay catches up in
    order; ledgerd killed with those three pending (B6) and restarted."""
    pending = tuple(e["seq"] for e in crossing()[1:4])
    outage = tuple({"pending": n, "delivered": 2, "last_delivered_seq": 1, "notifier": "down"}
                   for n in (1, 2, 3))  # fmt: skip
    return PartitionObs(
        armed=True, notifier_kill=kill("B7", "notifierd"),
        writes=tuple(WriteCall(200, 0.02) for _ in range(8)), outbox=outage,
        proxy=answer(error("notifier_unreachable"), status=502), ledgerd_alive=True,
        catch_up=(pending[:1], pending[:2], pending), live_after_s=2.0,
        b6=FaultWindow(True, True), b6_kill=kill("B6"), b6_pending_before=3,
        b6_pending_seqs=pending, b6_outbox_after={"pending": 0, "notifier": "up"},
        a1=FaultWindow(True, True), a1_kill=kill("A1"), a1_draft="d1",
        a1_state_after="submitted",
    )  # fmt: skip


def workflow() -> WorkflowObs:
    return WorkflowObs(FaultWindow(True, True), kill("A2"), "d2", "sent", A2_PAYLOAD,
                       resubmit_status=409)  # fmt: skip


def final() -> FinalObs:
    rows = app_state()
    crossing_seqs = tuple(e["seq"] for e in crossing())
    notifier = NotifierObs(crossing_seqs, notifications(),
                           {"status": "ok", "received": 7, "applied": 7, "duplicate": 0,
                            "notifications": 6})  # fmt: skip
    return FinalObs(
        payments=answer({"data": [], "total": len(rows), "limit": 50, "offset": 0}),
        summary=answer(summary(rows)), viz=answer(viz(rows)), spot=spot(),
        events=EventsRead(200, events()), notifier=notifier,
        db_dir=("ledger.db", "ledger.db-wal", "notifier.db"),
    )  # fmt: skip


def vendor() -> VendorObs:
    everything, _b5 = resync_trace()
    return VendorObs(commits(), VendorTrace(sync1_trace(), everything), deliveries(), creates())


@functools.cache
def perfect() -> Observations:
    """What a correct app leaves under the full schedule (every check at 1.0)."""
    boot = BootObs(booted(1.2), booted(0.8, statuses=(200,)),
                   B4Window(True, 5.0, 0.6, True, False, True))  # fmt: skip
    phases = {"tree": tree(), "smoke": SmokeObs(True, True, True), "boot": boot,
              "sync1": sync1(), "reads": reads(), "matrix": matrix(), "resync": resync(),
              "partition": partition(), "workflow": workflow(), "final": final(),
              "stream": stream(), "vendor": vendor(), IDLE_PERF: battery(),
              UNDER_STREAM: under(20.0), BROWSER: browser()}  # fmt: skip
    return Observations(seed=SEED, truth=truth(), phases=phases)


def browser() -> Sb7BrowserRecord:
    """The browser phase of a correct console: every scenario's view (the load, error and
    empty ones of `sb7_browser_canned`, and each module's: `sb7_flows_views`,
    `sb7_viz_canned`)."""
    from sb7_viz_canned import viz_view  # it reads this module's run: imported on use

    return browser_record(truth(), len(app_state()), **FLOWS, viz=viz_view())


def row(obs: Observations, check_id: str) -> CheckResult:
    """One check's row on ``obs``, with the table's absent-phase and blocked rules."""
    return build_table().evaluate_one(check_id, obs, CheckSettings())


@functools.cache
def dead_sync() -> Observations:
    """A correct app in every way but one: its sync never loaded anything."""
    obs = perfect()
    empty = answer({"data": [], "total": 0, "limit": 50, "offset": 0})
    obs = swap(obs, "reads", payments=empty, summary=answer(summary({})))
    return swap(obs, "final", payments=empty, summary=answer(summary({})))


def dead_server() -> Observations:
    """Ledgerd crashed at boot: every phase after the boot never ran against the app."""
    output = b"Traceback ...\nModuleNotFoundError: No module named 'app'\n"
    crashed = booted(None, bound=False, exit_code=1, exited_s=0.3, output=output)
    phases = {name: perfect()[name] for name in ("tree", "vendor")}
    phases["boot"] = BootObs(crashed, booted(0.8), B4Window(True, 5.0, None, False, True, False))
    why = "the app never became healthy (ledgerd crashed at boot)"
    down = {p: why for p in ("smoke", "sync1", "reads", "matrix", "resync", "partition",
                             "workflow", UNDER_STREAM, "final", "stream", IDLE_PERF,
                             BROWSER)}  # fmt: skip
    return Observations(seed=SEED, truth=truth(), phases=phases, app_down=down)
