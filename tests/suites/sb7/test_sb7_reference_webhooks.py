"""The golden's webhook endpoint, note write-through and read path, driven by hand.

A scripted stand-in vendor (a real HTTP server on loopback, its answers fixed by the
test) gives ledgerd a known signing secret, two payments, a PATCH that always answers
412 and a list that can be held open; the test then posts signed deliveries itself,
which is how it can kill ledgerd between the two parts of a transaction group.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from sb7_reference_app import TOKENS, Answer, Golden, call, eventually

from benchwright.services.meridian.webhooks import sign

SECRET = "whsec_scripted_for_tests"
ADMIN = TOKENS["admin"]


def payment(pid: str, version: int, status: str = "settled", note: str = "") -> dict:
    return {"id": pid, "amount_minor": 129900, "currency": "KWD",
            "created_at": "2026-03-29T01:30:00+01:00", "settled_at": None, "status": status,
            "version": version, "note": note,
            "counterparty": {"name": "Aurora Freight", "country": "DE"}}  # fmt: skip


class Scripted(BaseHTTPRequestHandler):
    """The stand-in's routes; its state is the server's."""

    server: ScriptedVendor

    def do_GET(self) -> None:
        vendor = self.server
        vendor.seen.append(("GET", self.path, self.headers.get("If-Match")))
        if self.path == "/v3/reversals":
            self._json({"data": [], "total": 0})
        elif self.path.startswith("/v3/payments/"):
            self._json(payment(self.path.rsplit("/", 1)[1], 1))
        else:
            vendor.list_gate.wait(30)
            rows = [payment("pay_00001", 1), payment("pay_00002", 1)]
            self._json({"data": rows, "next_cursor": None, "total": 2}, {"ETag": '"p1"'})

    def do_POST(self) -> None:
        self.server.seen.append(("POST", self.path, None))
        self._json({"id": "wh_scripted", "secret": SECRET})

    def do_PATCH(self) -> None:
        self.server.seen.append(("PATCH", self.path, self.headers.get("If-Match")))
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self._json({"error": "version_conflict"}, status=412)

    def _json(self, body: dict, headers: dict | None = None, status: int = 200) -> None:
        raw = json.dumps(body).encode()
        self.send_response(status)
        for name, value in {"Content-Length": str(len(raw)), **(headers or {})}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, format: str, *args: object) -> None:
        pass


class ScriptedVendor(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Scripted)
        self.seen: list[tuple[str, str, str | None]] = []
        self.list_gate = threading.Event()
        self.list_gate.set()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


@pytest.fixture(scope="module")
def vendor() -> Iterator[ScriptedVendor]:
    server = ScriptedVendor()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def golden(vendor: ScriptedVendor, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Golden]:
    running = Golden(tmp_path_factory.mktemp("sb7-webhooks"), vendor.url)
    running.notifierd.start()
    running.ledgerd.start()
    eventually(lambda: running.ledgerd.get("/api/health").body["last_sync"])
    yield running
    running.close()


_event_ids = iter(range(1, 10_000))


def deliver(golden: Golden, event: dict | bytes, secret: str = SECRET) -> Answer:
    """POST one delivery signed with ``secret`` (the same bytes again for ``bytes``)."""
    raw = event if isinstance(event, bytes) else json.dumps(event).encode()
    signature = sign(secret, int(time.time()), raw)
    return _post_raw(golden, raw, {"Meridian-Signature": signature})


def _post_raw(golden: Golden, raw: bytes, headers: dict[str, str]) -> Answer:
    url = golden.ledgerd.base + "/api/webhooks/meridian"
    return call(url, "POST", raw=raw, headers=headers, timeout=10)


def event(kind: str, data: dict, txn: dict | None = None) -> dict:
    return {"id": f"evt_t{next(_event_ids):04d}", "type": kind,
            "created_at": "2026-12-01T10:00:00Z", "txn": txn, "data": data}  # fmt: skip


def counters(golden: Golden) -> dict:
    return golden.ledgerd.get("/api/health").body["webhook"]


def seq_now(golden: Golden) -> int:
    return golden.ledgerd.get("/api/events?limit=1", ADMIN).body["latest_seq"]


def events_after(golden: Golden, seq: int) -> list[dict]:
    return golden.ledgerd.get(f"/api/events?after={seq}", ADMIN).body["events"]


def test_the_challenge_is_echoed_and_counts_nothing(golden: Golden) -> None:
    before = counters(golden)
    body = json.dumps({"type": "webhook.verify", "challenge": "c0ffee"}).encode()
    answer = _post_raw(golden, body, {})
    assert answer.status == 200 and answer.body == {"challenge": "c0ffee"}
    assert counters(golden) == before


def test_a_missing_or_wrong_signature_is_401_and_changes_nothing(golden: Golden) -> None:
    before, seq = counters(golden), seq_now(golden)
    forged = event("payment.updated", payment("pay_00001", 9, note="FORGED"))
    assert deliver(golden, forged, secret="whsec_not_ours").code == "bad_signature"
    unsigned = _post_raw(golden, json.dumps(forged).encode(), {})
    assert unsigned.status == 401 and unsigned.code == "bad_signature"
    raw = json.dumps(forged).encode()
    tampered = _post_raw(golden, raw + b" ", {"Meridian-Signature": sign(SECRET, 1, raw)})
    assert tampered.status == 401  # signed bytes are not these bytes
    after = counters(golden)
    assert after["received"] == before["received"] + 3
    assert after["rejected"] == before["rejected"] + 3 and after["applied"] == before["applied"]
    assert seq_now(golden) == seq
    assert golden.ledgerd.get("/api/payments/pay_00001").body["version"] == 1


def test_duplicates_and_late_versions_are_ignored_and_counted(golden: Golden) -> None:
    before, seq = counters(golden), seq_now(golden)
    newest = event("payment.updated", payment("pay_00002", 3, "pending", "second"))
    older = event("payment.updated", payment("pay_00002", 2, "failed", "first"))
    raw = json.dumps(newest).encode()
    for delivery in (raw, raw, older):  # v3, the same bytes again, then the late v2
        answer = deliver(golden, delivery)
        assert answer.status == 200 and answer.body == {"received": True}
    after = counters(golden)
    assert after["applied"] - before["applied"] == 1
    assert after["ignored"] - before["ignored"] == 2
    row = golden.ledgerd.get("/api/payments/pay_00002").body
    assert (row["version"], row["status"], row["note"]) == (3, "pending", "second")
    applied = [(e["type"], e["payment_id"], e["version"]) for e in events_after(golden, seq)]
    assert applied == [("payment.updated", "pay_00002", 3)]


def test_a_group_is_staged_durably_and_applied_whole_across_a_kill(golden: Golden) -> None:
    seq = seq_now(golden)
    txn = {"id": "txn_0042", "of": 2}
    refunded = event("payment.updated", payment("pay_00001", 2, "refunded"), txn | {"part": 1})
    reversal = {"id": "rev_00042", "payment_id": "pay_00001", "amount_minor": 129900,
                "currency": "KWD", "created_at": "2026-12-01T10:00:00Z"}  # fmt: skip
    second = event("reversal.created", reversal, txn | {"part": 2})
    assert deliver(golden, second).status == 200  # part 2 first: staged, nothing visible
    assert golden.ledgerd.get("/api/summary").body["reversals"] == []
    assert golden.ledgerd.get("/api/payments/pay_00001").body["status"] == "settled"
    golden.ledgerd.kill()
    golden.ledgerd.start()  # the staged part survived on disk
    assert deliver(golden, refunded).status == 200
    summary = golden.ledgerd.get("/api/summary").body
    assert summary["reversals"] == [{"currency": "KWD", "count": 1, "total_minor": 129900}]
    assert golden.ledgerd.get("/api/payments/pay_00001").body["status"] == "refunded"
    grouped = events_after(golden, seq)
    assert [(e["seq"], e["type"], e["txn"]) for e in grouped] == [
        (seq + 1, "payment.updated", "txn_0042"),
        (seq + 2, "reversal.created", "txn_0042"),
    ]
    assert deliver(golden, second).status == 200  # a late duplicate of a part: ignored
    assert seq_now(golden) == seq + 2
    eventually(lambda: golden.notifierd.get("/notify/notifications").body["total"] == 1)


def test_a_second_412_is_409_and_the_local_row_stays(
    golden: Golden, vendor: ScriptedVendor
) -> None:
    seq, before = seq_now(golden), golden.ledgerd.get("/api/payments/pay_00002").body
    mark = len(vendor.seen)
    answer = golden.ledgerd.post("/api/payments/pay_00002/note", {"note": "call them"})
    assert answer.status == 409 and answer.code == "conflict"
    assert golden.ledgerd.get("/api/payments/pay_00002").body == before
    assert seq_now(golden) == seq
    calls = [(method, if_match) for method, path, if_match in vendor.seen[mark:]
             if path == "/v3/payments/pay_00002"]  # fmt: skip
    assert calls == [("PATCH", '"3"'), ("GET", None), ("PATCH", '"1"')]


def test_reads_answer_while_a_sync_waits_on_the_vendor(
    golden: Golden, vendor: ScriptedVendor
) -> None:
    vendor.list_gate.clear()  # the vendor sits on the list request
    answers: list[Answer] = []

    def sync() -> None:
        with contextlib.suppress(httpx.TransportError):
            answers.append(golden.ledgerd.post("/api/sync"))

    syncing = threading.Thread(target=sync, daemon=True)
    syncing.start()
    eventually(lambda: any(path == "/v3/payments" for _m, path, _i in vendor.seen[-3:]))
    try:
        for path in ("/api/payments", "/api/summary", "/api/buckets", "/api/viz/records"):
            assert call(golden.ledgerd.base + path, timeout=5).status == 200
        assert syncing.is_alive() and not answers  # the sync is still waiting
    finally:
        vendor.list_gate.set()
    syncing.join(30)
    assert answers and answers[0].status == 200


def test_a_committed_change_reaches_a_stream_subscriber_as_one_batch(golden: Golden) -> None:
    with (
        httpx.Client(trust_env=False) as client,
        client.stream("GET", golden.ledgerd.base + "/api/stream", timeout=10) as stream,
    ):
        assert stream.headers["content-type"] == "text/event-stream"
        lines = stream.iter_lines()
        assert next(lines) == "event: heartbeat"
        update = event("payment.updated", payment("pay_00002", 7, "failed", "streamed"))
        assert deliver(golden, update).status == 200
        data = next(line for line in lines if line.startswith('data: {"batch"'))
    batch = json.loads(data.removeprefix("data: "))
    assert batch["batch"] == 1
    assert [(r["id"], r["version"], r["status"], r["day"]) for r in batch["records"]] == [
        ("pay_00002", 7, "failed", "2026-03-29")
    ]
