"""The sb-7 golden with no vendor at all: what must hold whatever Meridian does.

Real processes on loopback, a fresh db dir per test group, SIGKILL for crashes. The
vendor address answers nothing (its port is leased and never bound), which is the
vendor-down boot: both services listen anyway, serve local state, and the workflow,
the outbox and the notifier work without it.
"""

from __future__ import annotations

import sqlite3
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from sb7_reference_app import TOKENS, Golden, dead_vendor_url, eventually

MAKER, CHECKER, ADMIN = TOKENS["maker"], TOKENS["checker"], TOKENS["admin"]
DRAFT = {
    "amount_minor": 129900,
    "currency": "KWD",
    "counterparty": {"name": "Aurora Freight", "country": "DE"},
    "note": "invoice 4411",
}


@pytest.fixture
def golden(tmp_path: Path) -> Iterator[Golden]:
    vendor_url, lease = dead_vendor_url()
    running = Golden(tmp_path, vendor_url)
    yield running
    running.close()
    lease.release()


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Golden]:
    """Both services up, the vendor absent: shared by the read-only tests."""
    vendor_url, lease = dead_vendor_url()
    running = Golden(tmp_path_factory.mktemp("sb7-offline"), vendor_url)
    running.notifierd.start()
    running.ledgerd.start()
    yield running
    running.close()
    lease.release()


def _draft(golden: Golden, token: str = MAKER) -> str:
    answer = golden.ledgerd.post("/api/drafts", DRAFT, token)
    assert answer.status == 201, answer.raw
    return answer.body["id"]


def _crossing_seqs(golden: Golden) -> list[int]:
    events = golden.ledgerd.get("/api/events?limit=1000", ADMIN).body["events"]
    crossing = {"draft.submitted", "draft.approved", "draft.rejected", "reversal.created",
                "payment.sent"}  # fmt: skip
    return [event["seq"] for event in events if event["type"] in crossing]


# -- boot with the vendor down ---------------------------------------------------------


def test_both_listen_and_serve_local_state_with_the_vendor_down(both: Golden) -> None:
    health = both.ledgerd.get("/api/health").body
    assert health == {
        "status": "ok", "payments": 0, "last_sync": None,
        "webhook": {"registered": False, "received": 0, "applied": 0, "ignored": 0,
                    "rejected": 0},
    }  # fmt: skip
    assert both.ledgerd.get("/api/payments").body == {
        "data": [],
        "total": 0,
        "limit": 50,
        "offset": 0,
    }
    summary = both.ledgerd.get("/api/summary").body
    assert summary["count"] == 0 and summary["by_currency"] == summary["reversals"] == []
    assert both.ledgerd.get("/api/buckets").body["cells"] == []
    assert both.ledgerd.get("/api/viz/records").body["count"] == 0


def test_a_sync_with_the_vendor_down_is_502_vendor_unavailable(both: Golden) -> None:
    answer = both.ledgerd.post("/api/sync")
    assert answer.status == 502 and answer.code == "vendor_unavailable"
    assert both.ledgerd.get("/api/health").status == 200


def test_the_page_and_its_files_are_served_with_their_types(both: Golden) -> None:
    page = both.ledgerd.get("/")
    assert page.status == 200 and b'id="app-header"' in page.raw
    assert page.headers["Content-Type"].startswith("text/html")
    for name, family in (("styles.css", "css"), ("app.js", "javascript"), ("viz.js", "javascript")):
        asset = both.ledgerd.get(f"/{name}")
        assert asset.status == 200 and asset.raw and family in asset.headers["Content-Type"]


def test_the_four_web_files_fit_the_budget_and_reference_nothing_external() -> None:
    from sb7_reference_app import REFERENCE

    files = [REFERENCE / "app" / "web" / name for name in
             ("index.html", "styles.css", "app.js", "viz.js")]  # fmt: skip
    assert sum(path.stat().st_size for path in files) <= 150 * 1024
    for path in files:
        assert "http://" not in path.read_text() and "https://" not in path.read_text()


# -- the envelope and validation -------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "field", "code"),
    [
        ("/api/payments?limit=abc", "limit", "not_an_integer"),
        ("/api/payments?limit=-1", "limit", "not_positive"),
        ("/api/payments?offset=-3", "offset", "not_positive"),
        ("/api/payments?status=paid", "status", "unsupported"),
        ("/api/payments?currency=GBP", "currency", "unsupported"),
        ("/api/payments?sort=id", "sort", "unsupported"),
    ],
)
def test_bad_query_parameters_are_400_naming_the_parameter(
    both: Golden, path: str, field: str, code: str
) -> None:
    answer = both.ledgerd.get(path)
    assert answer.status == 400 and answer.code == "bad_request"
    assert answer.body["error"]["field_errors"] == [{"path": field, "code": code}]
    assert answer.headers["Content-Type"] == "application/json"


def test_unknown_paths_and_payments_are_404_envelopes(both: Golden) -> None:
    for path in ("/api/nothing-here", "/api/payments/pay_nope"):
        answer = both.ledgerd.get(path)
        assert answer.status == 404 and answer.code == "not_found"
        assert answer.body["error"]["message"]


def test_a_note_on_a_missing_payment_is_404_and_a_bad_note_400(both: Golden) -> None:
    assert both.ledgerd.post("/api/payments/pay_nope/note", {"note": "x"}).status == 404
    answer = both.ledgerd.post("/api/payments/pay_nope/note", {"note": "x" * 281})
    assert answer.status == 400
    assert answer.body["error"]["field_errors"] == [{"path": "note", "code": "too_long"}]


def test_the_limit_is_capped_at_200(both: Golden) -> None:
    assert both.ledgerd.get("/api/payments?limit=5000").body["limit"] == 200


# -- the drafts workflow: auth, four-eyes, states --------------------------------------


def test_drafts_need_a_known_bearer_token_of_the_right_role(both: Golden) -> None:
    assert both.ledgerd.post("/api/drafts", DRAFT).code == "unauthorized"
    assert both.ledgerd.post("/api/drafts", DRAFT, "f" * 32).status == 401
    assert both.ledgerd.post("/api/drafts", DRAFT, ADMIN).code == "forbidden"
    assert both.ledgerd.get("/api/drafts", ADMIN).status == 200
    assert both.ledgerd.get("/api/events").code == "unauthorized"
    for token in (MAKER, CHECKER, ADMIN):
        assert both.ledgerd.get("/api/events", token).status == 200


def test_invalid_drafts_name_every_bad_field(both: Golden) -> None:
    body = {"amount_minor": "12", "currency": "GBP", "counterparty": {"name": "", "country": "de"},
            "note": "n" * 281}  # fmt: skip
    answer = both.ledgerd.post("/api/drafts", body, MAKER)
    assert answer.status == 400
    assert answer.body["error"]["field_errors"] == [
        {"path": "amount_minor", "code": "not_an_integer"},
        {"path": "currency", "code": "unsupported"},
        {"path": "counterparty.name", "code": "required"},
        {"path": "counterparty.country", "code": "bad_format"},
        {"path": "note", "code": "too_long"},
    ]
    assert both.ledgerd.post("/api/drafts", {**DRAFT, "amount_minor": 0}, MAKER).body["error"][
        "field_errors"
    ] == [{"path": "amount_minor", "code": "not_positive"}]
    assert both.ledgerd.get("/api/drafts?state=lost", ADMIN).status == 400


def test_four_eyes_roles_and_the_state_machine(both: Golden) -> None:
    by_maker, by_checker = _draft(both), _draft(both, CHECKER)
    assert both.ledgerd.post(f"/api/drafts/{by_maker}/approve", token=CHECKER).code == "conflict"
    assert both.ledgerd.post(f"/api/drafts/{by_maker}/submit", token=MAKER).status == 200
    assert both.ledgerd.post(f"/api/drafts/{by_checker}/submit", token=CHECKER).status == 200
    # a maker may never approve; a checker may not approve what it submitted itself
    assert both.ledgerd.post(f"/api/drafts/{by_maker}/approve", token=MAKER).code == "forbidden"
    self_approval = both.ledgerd.post(f"/api/drafts/{by_checker}/approve", token=CHECKER)
    assert self_approval.status == 403 and self_approval.code == "approval_forbidden"
    self_reject = both.ledgerd.post(f"/api/drafts/{by_checker}/reject", token=CHECKER)
    assert self_reject.code == "approval_forbidden"
    states = {d["id"]: d["state"] for d in both.ledgerd.get("/api/drafts", ADMIN).body["data"]}
    assert states[by_checker] == "submitted"
    approved = both.ledgerd.post(f"/api/drafts/{by_maker}/approve", token=CHECKER)
    assert approved.status == 200 and approved.body["state"] == "approved"
    assert both.ledgerd.post(f"/api/drafts/{by_maker}/reject", token=CHECKER).code == "conflict"
    listed = both.ledgerd.get("/api/drafts?state=approved", MAKER).body
    assert [d["id"] for d in listed["data"]] == [by_maker] and listed["total"] == 1


def test_a_rejected_draft_is_terminal_d2(both: Golden) -> None:
    draft = _draft(both)
    both.ledgerd.post(f"/api/drafts/{draft}/submit", token=MAKER)
    assert both.ledgerd.post(f"/api/drafts/{draft}/reject", token=CHECKER).status == 200
    again = both.ledgerd.post(f"/api/drafts/{draft}/submit", token=MAKER)
    assert again.status == 409 and again.code == "conflict"
    decisions = Path(__file__).resolve().parents[3] / "suites/sb7/reference/DECISIONS.md"
    assert "409" in decisions.read_text().split("## D2")[1].split("## D3")[0]


def test_every_workflow_action_appends_one_event_contiguously(both: Golden) -> None:
    before = both.ledgerd.get("/api/events?limit=1000", ADMIN).body["latest_seq"]
    draft = _draft(both)
    both.ledgerd.post(f"/api/drafts/{draft}/submit", token=MAKER)
    both.ledgerd.post(f"/api/drafts/{draft}/approve", token=MAKER)  # 403: no event
    both.ledgerd.post(f"/api/drafts/{draft}/reject", token=CHECKER)
    page = both.ledgerd.get(f"/api/events?after={before}", ADMIN).body
    assert [(e["type"], e["source"], e["draft_id"]) for e in page["events"]] == [
        ("draft.created", "approval", draft),
        ("draft.submitted", "approval", draft),
        ("draft.rejected", "approval", draft),
    ]
    every = both.ledgerd.get("/api/events?limit=1000", ADMIN).body["events"]
    assert [e["seq"] for e in every] == list(range(1, len(every) + 1))


# -- the outbox, the relay and the notifier --------------------------------------------


def test_the_outbox_reaches_the_notifier_exactly_once(both: Golden) -> None:
    draft = _draft(both)
    both.ledgerd.post(f"/api/drafts/{draft}/submit", token=MAKER)
    crossing = _crossing_seqs(both)
    eventually(lambda: both.ledgerd.get("/api/outbox/status").body["pending"] == 0)
    processed = [row["seq"] for row in both.notifierd.get("/notify/processed").body["processed"]]
    assert processed == crossing
    status = both.ledgerd.get("/api/outbox/status").body
    assert status["notifier"] == "up" and status["last_delivered_seq"] == crossing[-1]
    feed = both.ledgerd.get("/api/notifications?limit=200").body
    assert [row["event_seq"] for row in feed["data"]] == sorted(crossing, reverse=True)


def test_the_notifier_dedupes_on_seq_and_materializes_four_kinds(golden: Golden) -> None:
    notifier = golden.notifierd.start()
    events = [{"seq": seq, "type": kind} for seq, kind in enumerate(
        ("draft.submitted", "draft.approved", "payment.sent", "draft.rejected",
         "reversal.created"), start=1)]  # fmt: skip
    first = notifier.post("/notify/events", {"events": events[:3]}).body
    assert first == {"accepted": [1, 2, 3], "duplicate": []}
    mixed = notifier.post("/notify/events", {"events": events[1:]}).body
    assert mixed == {"accepted": [4, 5], "duplicate": [2, 3]}
    notifier.kill()
    notifier.start()  # durable across SIGKILL: the processed set and the rows
    again = notifier.post("/notify/events", {"events": events}).body
    assert again == {"accepted": [], "duplicate": [1, 2, 3, 4, 5]}
    feed = notifier.get("/notify/notifications").body
    assert [(row["event_seq"], row["kind"]) for row in feed["data"]] == [
        (5, "reversal.created"), (4, "draft.rejected"), (2, "draft.approved"),
        (1, "draft.submitted"),
    ]  # fmt: skip
    assert feed["total"] == 4 and all(row["message"] for row in feed["data"])
    assert notifier.get("/notify/processed?after=3").body == {
        "processed": [{"seq": 4, "type": "draft.rejected"}, {"seq": 5, "type": "reversal.created"}],
        "latest_seq": 5,
    }
    health = notifier.get("/health").body  # counters are this process's
    assert health == {"status": "ok", "received": 5, "applied": 0, "duplicate": 5,
                      "notifications": 4}  # fmt: skip
    assert notifier.post("/notify/events", {"events": [{"seq": "x"}]}).status == 400


def test_writes_never_wait_on_a_dead_notifier_and_the_relay_catches_up_in_order(
    golden: Golden,
) -> None:
    golden.ledgerd.start()  # notifierd never started: the partition from the outset
    proxy = golden.ledgerd.get("/api/notifications")
    assert proxy.status == 502 and proxy.code == "notifier_unreachable"
    drafts = [_draft(golden) for _ in range(3)]
    for draft in drafts:
        assert golden.ledgerd.post(f"/api/drafts/{draft}/submit", token=MAKER).status == 200
    golden.ledgerd.post(f"/api/drafts/{drafts[0]}/reject", token=CHECKER)
    status = eventually(lambda: _down(golden))
    assert status["pending"] == 4 and status["delivered"] == 0
    golden.notifierd.start()
    eventually(lambda: golden.ledgerd.get("/api/outbox/status").body["pending"] == 0)
    processed = golden.notifierd.get("/notify/processed").body["processed"]
    assert [row["seq"] for row in processed] == _crossing_seqs(golden)
    assert golden.ledgerd.get("/api/notifications").status == 200


def _down(golden: Golden) -> dict | None:
    status = golden.ledgerd.get("/api/outbox/status").body
    return status if status["notifier"] == "down" else None


def test_a_kill_between_outbox_commit_and_delivery_loses_and_doubles_nothing(
    golden: Golden,
) -> None:
    golden.ledgerd.start()
    draft = _draft(golden)
    golden.ledgerd.post(f"/api/drafts/{draft}/submit", token=MAKER)
    assert golden.ledgerd.get("/api/outbox/status").body["pending"] == 1
    golden.ledgerd.kill()
    golden.ledgerd.start()
    submitted = golden.ledgerd.get("/api/drafts?state=submitted", ADMIN).body["data"]
    assert [d["id"] for d in submitted] == [draft]
    golden.notifierd.start()
    eventually(lambda: golden.ledgerd.get("/api/outbox/status").body["pending"] == 0)
    golden.ledgerd.kill()
    golden.ledgerd.start()  # a restart after delivery re-sends nothing
    processed = golden.notifierd.get("/notify/processed").body["processed"]
    assert [row["seq"] for row in processed] == _crossing_seqs(golden)
    assert golden.notifierd.get("/health").body["duplicate"] == 0


def test_an_approval_answers_at_once_and_survives_a_kill_while_the_vendor_is_away(
    golden: Golden,
) -> None:
    golden.notifierd.start()
    golden.ledgerd.start()
    draft = _draft(golden)
    golden.ledgerd.post(f"/api/drafts/{draft}/submit", token=MAKER)
    assert golden.ledgerd.post(f"/api/drafts/{draft}/approve", token=CHECKER).status == 200
    golden.ledgerd.kill()
    golden.ledgerd.start()
    [row] = golden.ledgerd.get("/api/drafts?state=approved", ADMIN).body["data"]
    assert row["id"] == draft and row["payment_id"] is None
    with sqlite3.connect(golden.db_dir / "ledger.db") as conn:
        [key] = conn.execute("SELECT idempotency_key FROM drafts WHERE id = ?", (draft,)).fetchone()
    assert key  # stored with the approval, before any send attempt


# -- the combined wrapper, the files, the stream -----------------------------------------


def test_python_m_app_boots_both_and_each_owns_its_own_file(golden: Golden) -> None:
    golden.combined()
    assert golden.notifierd.get("/health").status == 200
    draft = _draft(golden)
    golden.ledgerd.post(f"/api/drafts/{draft}/submit", token=MAKER)
    eventually(lambda: golden.ledgerd.get("/api/outbox/status").body["pending"] == 0)
    databases = sorted(path.name for path in golden.db_dir.glob("*.db"))
    assert databases == ["ledger.db", "notifier.db"]


def test_the_stream_is_an_event_stream_that_opens_with_a_heartbeat(both: Golden) -> None:
    with urllib.request.urlopen(both.ledgerd.base + "/api/stream", timeout=10) as stream:
        assert stream.headers["Content-Type"] == "text/event-stream"
        assert stream.readline() == b"event: heartbeat\n"
        assert stream.readline().startswith(b"data: {")
