"""Observation records for the sb-7 check tests, built in code (no servers): `perfect()` is
what a correct app leaves under the full fault schedule, against the seeded v3 fixture and
the v3 mock's own ledger records; each test swaps one piece for the defect it proves a
check catches (`swap`).

The app's side is replayed here from the vendor's commits, independently of the ledger's
own derivations (``rows_at``, ``truth``), so a wrong derivation in the checks cannot hide
behind the same derivation on the app's side."""

from __future__ import annotations

import functools
import json
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from benchwright.model import CheckResult
from benchwright.probes.http import HttpObservation, JsonRead, parse_wire_json
from benchwright.services.app import BootObservation
from benchwright.services.meridian_v3 import (
    Commit,
    CommitLedger,
    CreateAttempt,
    Delivery,
    FaultFacts,
    ReversalCommit,
    StaleLedger,
    V3Fixture,
    WalkLedger,
    build_fixture_v3,
)
from benchwright.suites.sb7.checks import CheckSettings, build_table
from benchwright.suites.sb7.observations import (
    B4Window,
    BootObs,
    Case,
    EventsRead,
    FaultWindow,
    FinalObs,
    KillRecord,
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
    VendorObs,
    WorkflowObs,
    WriteCall,
)

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


def fixture() -> V3Fixture:
    return build_fixture_v3(SEED)


def _load(pid: str) -> dict:
    return fixture().payments[fixture().by_id[pid]]


def _bump(seq: int, pid: str, step: int = 1, *, source: str = "race", txn: str | None = None,
          **changes: Any) -> Commit:  # fmt: skip
    row = {**_load(pid), **changes, "version": _load(pid)["version"] + step}
    return Commit(seq, pid, row["version"], row, source, txn, (f"evt_{seq}",), float(seq))


def _create(seq: int, pid: str, amount: int, currency: str, day: str) -> Commit:
    row = {"id": pid, "amount_minor": amount, "currency": currency,
           "created_at": f"{day}T10:00:00Z", "settled_at": None, "status": "pending",
           "version": 1, "note": "",
           "counterparty": {"name": "New Co", "country": "DE"}}  # fmt: skip
    return Commit(seq, pid, 1, row, "create", None, (f"evt_{seq}",), float(seq))


@functools.cache
def commits() -> tuple[Commit, ...]:
    """The vendor's post-load commits: 8 race mutations, the out-of-order pair, the mid-walk
    create, the refund group (seq 12 = `READS_MARK`), two masked by B5, the A2 send."""
    found = [_bump(i + 1, pid, note=f"race {i}") for i, pid in enumerate(RACED)]
    found += [_bump(5 + i, RACED[i], step=2, note=f"race again {i}") for i in range(4)]
    found += [_bump(9, OOO, source="out-of-order", note=STALE_NOTE),
              _bump(10, OOO, step=2, source="out-of-order", note="fresh note")]  # fmt: skip
    found += [_create(11, CREATED[0], 777, "USD", fixture().days[40].isoformat())]
    found += [_bump(12, REFUND, source="refund", txn="txn_9", status="refunded")]
    found += [_bump(13 + i, pid, source="stale", status="failed") for i, pid in enumerate(MASKED)]
    found += [_create(15, CREATED[1], 4500, "EUR", fixture().days[41].isoformat())]
    return tuple(found)


def ledger() -> CommitLedger:
    """The vendor's commit ledger: the fixture, the commits, the refund's reversal, the
    mid-walk create (the vendor's own) and the A2 send retried under its key."""
    refunded = _load(REFUND)
    reversal = {"id": "rev_09999", "payment_id": REFUND, "amount_minor": refunded["amount_minor"],
                "currency": refunded["currency"], "created_at": "2026-03-01T10:00:00Z"}  # fmt: skip
    creates = (CreateAttempt("mid-walk", "created", CREATED[0], 777, "USD", 11.0, internal=True),
               CreateAttempt("key-a2", "created", CREATED[1], 4500, "EUR", 15.0),
               CreateAttempt("key-a2", "replayed", CREATED[1], 4500, "EUR", 16.0))  # fmt: skip
    return CommitLedger(fixture().payments, fixture().reversals, fixture().days, commits(),
                        (ReversalCommit(12, reversal, "txn_9", 12.0),), creates)  # fmt: skip


def _parse(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@functools.cache
def app_state(upto: int | None = None) -> dict[str, dict]:
    """The correct app's rows (the 10 wire keys plus ``day``) after the commits up to
    ``upto``, in (instant, id) order. Do not mutate: cached."""
    found = {row["id"]: row for row in fixture().payments}
    for c in commits():
        if upto is None or c.seq <= upto:
            found[c.payment_id] = c.row
    rows = [{**{k: v for k, v in r.items() if k != "counterparty"},
             "counterparty_name": r["counterparty"]["name"],
             "country": r["counterparty"]["country"],
             "day": _parse(r["created_at"]).astimezone(BERLIN).date().isoformat()}
            for r in found.values()]  # fmt: skip
    rows.sort(key=lambda r: (_parse(r["created_at"]).timestamp(), r["id"]))
    return {r["id"]: r for r in rows}


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
    extra = [_load(REFUND)] if refunded else []
    for r in [*fixture().reversals, *extra]:
        entry = revs.setdefault(r["currency"], [0, 0])
        entry[0] += 1
        entry[1] += r["amount_minor"]
    return {"count": len(rows), "last_sync": "2026-06-01T10:00:00Z",
            "oldest": "2026-02-28T23:00:00Z", "newest": "2026-06-04T21:00:00Z",
            "by_currency": [{"currency": c, "count": n, "total_minor": t}
                            for c, (n, t) in sorted(by.items())],
            "reversals": [{"currency": c, "count": n, "total_minor": t}
                          for c, (n, t) in sorted(revs.items())]}  # fmt: skip


def buckets(rows: dict[str, dict]) -> dict:
    days = [d.isoformat() for d in fixture().days]
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


def walk() -> WalkLedger:
    """The first walk: every page served once, the drop resumed on its cursor, the 500
    retried once after its Retry-After."""
    drop = FaultFacts(True, True, "c5", resumed_same_cursor=True, retries=1, waited_secs=0.1)
    error = FaultFacts(True, True, "c9", resumed_same_cursor=True, retries=1, waited_secs=1.2,
                       advertised_secs=1.0)  # fmt: skip
    return WalkLedger(True, True, PAGES, PAGES, 0, drop, error, (3, 7, 11, 15), True, 0)


def stale() -> StaleLedger:
    """B5: the lie at page 3, refetched once unconditionally, two rows masked behind it."""
    masked = tuple((c.payment_id, c.version) for c in commits() if c.source == "stale")
    return StaleLedger(True, True, 3, "c3", '"e3"', "g2", 1, 1, masked)


def list_lines(n: int, *, conditional: bool) -> tuple[dict, ...]:
    """``n`` list requests as the trace records them (page offsets of 64)."""
    return tuple({"method": "GET", "path": "/v3/payments", "status": 304 if conditional else 200,
                  "if_none_match": f'"e{k}"' if conditional else None, "offset": 64 * k}
                 for k in range(n))  # fmt: skip


def resync_lines() -> tuple[dict, ...]:
    """Every later sync: conditional re-walks, and B5's one unconditional refetch."""
    again = list_lines(PAGES, conditional=True)
    refetch = {**again[3], "if_none_match": None, "status": 200}
    return (*again, *again[:4], refetch, *again[4:8])


def deliveries() -> tuple[Delivery, ...]:
    """Every announced commit delivered and acknowledged 200 (the masked ones are silent),
    the refund's two parts, the duplicate, the out-of-order pair v+2 first, the forged one
    answered 401."""
    found = []

    def add(event: str, kind: str, pid: str, version: int | None, status: int = 200) -> None:
        found.append(Delivery(len(found) + 1, event, kind, "payment.updated", pid, version,
                              None, 1, status, None, 5.0, float(len(found)), None))  # fmt: skip

    for c in commits():
        if c.source != "stale":
            add(f"evt_{c.seq}", "genuine", c.payment_id, c.version)
        if c.source == "refund":
            add(f"evt_{c.seq}r", "genuine", c.payment_id, None)
    ooo = [d for d in found if d.payment_id == OOO]
    found[:] = [d for d in found if d.payment_id != OOO] + ooo[::-1]
    add("evt_1", "duplicate", RACED[0], commits()[0].version)
    add("evt_forged", "forged", FORGED, 9, status=401)
    return tuple(found)


# ---------------------------------------------------------------- the app's own ledger


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

    for row in fixture().payments:
        add("payment.created", "sync", row["id"], row["version"])
    for c in commits():
        if c.row["note"] == STALE_NOTE:
            continue
        add("payment.created" if c.source == "create" else "payment.updated", "webhook",
            c.payment_id, c.version, c.txn)  # fmt: skip
        if c.source == "refund":
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
                       "DECISIONS.md", "README.md", "web/index.html", "web/styles.css",
                       "web/app.js", "web/viz.js"})  # fmt: skip
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
    for r in fixture().reversals:
        totals[r["currency"]] = totals.get(r["currency"], 0) + r["amount_minor"]
    return totals


def sync1() -> Sync1Obs:
    load = _load(REFUND)
    refund = RefundWindow(True, True, REFUND, load["currency"], load["amount_minor"],
                          load["version"] + 1, reversals_before())  # fmt: skip
    return Sync1Obs(True, FaultWindow(True, True), FaultWindow(True, True),
                    Trap(True, OOO, STALE_NOTE), Trap(True, FORGED, FORGED_NOTE), Trap(True),
                    refund)  # fmt: skip


def kill(name: str, service: str = "ledgerd") -> KillRecord:
    return KillRecord(name, service, fixture().total, fixture().total, True, True)


def resync() -> ResyncObs:
    return ResyncObs(
        b3=FaultWindow(True, True), b3_kill=kill("B3"), b3_total=fixture().total + 1,
        b3_expected=fixture().total + 1, b3_ids=tuple(app_state(READS_MARK)),
        b5=FaultWindow(True, True), b5_after=spot(MASKED),
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
        scheduled_notifications={"draft.submitted": 3, "draft.approved": 1,
                                 "draft.rejected": 1, "reversal.created": 1},
    )  # fmt: skip


def vendor() -> VendorObs:
    return VendorObs(ledger(), deliveries(), walk(), stale(),
                     list_lines(PAGES + 2, conditional=False), resync_lines())  # fmt: skip


@functools.cache
def perfect() -> Observations:
    """What a correct app leaves under the full schedule (every check at 1.0)."""
    boot = BootObs(booted(1.2), booted(0.8, statuses=(200,)),
                   B4Window(True, 5.0, 0.6, True, False, True))  # fmt: skip
    phases = {"tree": tree(), "smoke": SmokeObs(True, True, True), "boot": boot,
              "sync1": sync1(), "reads": reads(), "matrix": matrix(), "resync": resync(),
              "partition": partition(), "workflow": workflow(), "final": final(),
              "stream": stream(), "vendor": vendor()}  # fmt: skip
    return Observations(seed=SEED, fixture=fixture(), phases=phases)


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
                             "workflow", "final", "stream")}  # fmt: skip
    return Observations(seed=SEED, fixture=fixture(), phases=phases, app_down=down)
