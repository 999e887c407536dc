"""The vendorsync golden reference, run for real: its process, its SQLite file, its HTTP
API and page, against a Meridian v1 vendor on loopback.

The vendor is `fake_meridian1.FakeMeridian1`, a temporary stand-in until the Meridian v1
mock profile is merged (see that module). One app and one first sync serve the module;
the tests that need their own process or vendor start their own.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from email.utils import formatdate

import pytest
from fake_meridian1 import SUM_MINOR, TOTAL, FakeMeridian1, true_order
from reference_app import REFERENCE, ReferenceApp

PAYMENT_KEYS = {"id", "amount_minor", "currency", "created_at", "status"}
ISO_8601 = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


def _instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@pytest.fixture(scope="module")
def vendor() -> Iterator[FakeMeridian1]:
    fake = FakeMeridian1()
    fake.url = fake.start()
    yield fake
    fake.stop()


@pytest.fixture(scope="module")
def app(vendor: FakeMeridian1, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReferenceApp]:
    db = tmp_path_factory.mktemp("vendorsync") / "fresh" / "vendorsync.db"  # no such dir yet
    running = ReferenceApp(db, vendor.url).start()
    yield running
    running.close()


@pytest.fixture(scope="module")
def first_sync(app: ReferenceApp, vendor: FakeMeridian1) -> dict:
    """Health on the fresh db, then the first sync, and the vendor requests it made."""
    fresh = app.get("/api/health").body
    mark = len(vendor.trace)
    answer = app.post("/api/sync")
    assert answer.status == 200, answer.raw
    return {"fresh": fresh, "sync": answer.body, "lists": vendor.lists(mark)}


@pytest.fixture(scope="module")
def second_sync(app: ReferenceApp, vendor: FakeMeridian1, first_sync: dict) -> dict:
    mark = len(vendor.trace)
    answer = app.post("/api/sync")
    assert answer.status == 200, answer.raw
    return {"sync": answer.body, "lists": vendor.lists(mark)}


def _all_rows(app: ReferenceApp) -> list[dict]:
    rows: list[dict] = []
    for offset in range(0, TOTAL, 100):
        rows += app.get(f"/api/payments?limit=100&offset={offset}").body["data"]
    return rows


# -- boot and health ------------------------------------------------------------------------


def test_health_on_a_fresh_db_then_after_the_sync(app, first_sync):
    assert first_sync["fresh"] == {"status": "ok", "payments": 0, "last_sync": None}
    health = app.get("/api/health")
    assert health.headers["Content-Type"] == "application/json"
    assert health.body["payments"] == TOTAL
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", health.body["last_sync"])


# -- the vendor contract, read from the vendor's record -------------------------------------


def test_the_first_sync_walks_every_page_through_the_traps(first_sync):
    assert first_sync["sync"] == {"fetched": TOTAL, "inserted": TOTAL, "total": TOTAL}
    lists = first_sync["lists"]
    statuses = [e["status"] for e in lists]
    assert statuses == [200, 429, 410, 429, 304, 200, 200]  # the optimum: 7 requests
    assert all(e["query"].get("limit") == "100" for e in lists)
    assert not any({"page", "offset", "skip"} & set(e["query"]) for e in lists)
    assert all(e["authorization"] == "Bearer sk_test_meridian" for e in lists)
    assert lists[-1]["query"].get("cursor") and lists[-1]["status"] == 200


def test_retry_after_is_honoured_in_both_forms(first_sync):
    lists = first_sync["lists"]
    secs = next(i for i, e in enumerate(lists) if "retry_after" in e)
    assert lists[secs + 1]["t"] - lists[secs]["t"] >= int(lists[secs]["retry_after"]) - 0.15
    date = next(i for i, e in enumerate(lists) if "retry_at" in e)
    assert lists[date + 1]["t"] >= lists[date]["retry_at"] - 0.15


def test_an_expired_cursor_restarts_the_walk_and_is_never_sent_again(first_sync):
    lists = first_sync["lists"]
    expired = next(i for i, e in enumerate(lists) if e["status"] == 410)
    assert "cursor" not in lists[expired + 1]["query"]
    # The same cursor text may come back from the new walk's first page, never before it.
    dead = lists[expired]["dead_cursor"]
    resent = [i for i, e in enumerate(lists) if i > expired and e["query"].get("cursor") == dead]
    restarted = next(i for i, e in enumerate(lists) if i > expired and e["status"] in (200, 304))
    assert all(i > restarted for i in resent)


def test_a_resync_is_answered_304_and_duplicates_nothing(app, second_sync):
    assert second_sync["sync"] == {"fetched": TOTAL, "inserted": 0, "total": TOTAL}
    lists = second_sync["lists"]
    assert lists and all(e["if_none_match"] and e["status"] == 304 for e in lists)
    ids = [row["id"] for row in _all_rows(app)]
    assert len(ids) == len(set(ids)) == TOTAL


def test_a_resync_after_vendor_changes_updates_rows_in_place(app, vendor, second_sync):
    changed = vendor.mutate()
    answer = app.post("/api/sync").body
    assert answer == {"fetched": TOTAL, "inserted": 0, "total": TOTAL}
    assert sum(row["status"] == "refunded" for row in _all_rows(app)) == changed


def test_two_syncs_at_once_neither_duplicate_nor_lose(app, first_sync):
    answers: list = []
    threads = [threading.Thread(target=lambda: answers.append(app.post("/api/sync"))) for _ in "ab"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert [a.status for a in answers] == [200, 200]
    assert app.get("/api/health").body["payments"] == TOTAL


# -- the API --------------------------------------------------------------------------------


def test_payments_are_ordered_by_instant_with_exact_rows(app, first_sync):
    rows = _all_rows(app)
    assert [row["id"] for row in rows] == true_order()
    assert all(set(row) == PAYMENT_KEYS for row in rows)
    assert all(type(row["amount_minor"]) is int for row in rows)
    text_order = sorted(rows, key=lambda row: row["created_at"])
    assert text_order != rows  # the fixture's offsets make string order wrong


def test_limit_defaults_to_25_and_is_capped_at_100(app, first_sync):
    page = app.get("/api/payments").body
    assert (len(page["data"]), page["total"], page["limit"], page["offset"]) == (25, TOTAL, 25, 0)
    capped = app.get("/api/payments?limit=500").body
    assert (len(capped["data"]), capped["limit"]) == (100, 100)
    window = app.get("/api/payments?limit=5&offset=5").body
    assert [row["id"] for row in window["data"]] == true_order()[5:10]
    assert app.get("/api/payments?offset=99999999999999999999999").body["data"] == []


@pytest.mark.parametrize(
    ("path", "status", "error"),
    [
        ("/api/payments?limit=-1", 400, "bad_request"),
        ("/api/payments?limit=abc", 400, "bad_request"),
        ("/api/payments?limit=0", 400, "bad_request"),
        ("/api/payments?limit=2.5", 400, "bad_request"),
        ("/api/payments?offset=-5", 400, "bad_request"),
        ("/api/payments?offset=abc", 400, "bad_request"),
        ("/api/payments?offset=", 400, "bad_request"),
        ("/api/nope", 404, "not_found"),
        ("/api/payments/deep/unknown", 404, "not_found"),
        ("/favicon.ico", 404, "not_found"),
    ],
)
def test_bad_parameters_and_unknown_paths_answer_the_json_envelopes(app, path, status, error):
    answer = app.get(path)
    assert (answer.status, answer.body) == (status, {"error": error})
    assert answer.headers["Content-Type"] == "application/json"


def test_a_wrong_method_answers_405_in_json(app):
    assert app.get("/api/sync").status == 405
    answer = app.post("/api/health")
    assert (answer.status, answer.body) == (405, {"error": "method_not_allowed"})


def test_the_summary_is_integer_money_and_utc_bounds(app, first_sync):
    summary = app.get("/api/summary")
    assert summary.body == {
        "count": TOTAL,
        "total_minor": SUM_MINOR,
        "currency": "EUR",
        "oldest": "2026-03-01T12:00:00Z",
        "newest": "2026-03-07T08:36:00Z",
    }
    assert b"." not in summary.raw.split(b'"total_minor":')[1].split(b",")[0]


def test_the_page_is_served_as_three_local_files(app):
    page = app.get("/")
    assert page.status == 200 and page.headers["Content-Type"].startswith("text/html")
    html = page.raw.decode()
    assert 'href="/styles.css"' in html and 'src="/app.js"' in html
    assert not re.search(r"""(?:src|href)\s*=\s*["']https?://""", html)
    assert app.get("/styles.css").headers["Content-Type"].startswith("text/css")
    assert app.get("/app.js").headers["Content-Type"].startswith("text/javascript")
    web = REFERENCE / "vendorsync" / "web"
    assert sorted(p.name for p in web.iterdir()) == ["app.js", "index.html", "styles.css"]


# -- restart and the vendor down ------------------------------------------------------------


def test_a_killed_app_restarts_on_its_db_with_every_payment(vendor, tmp_path):
    running = ReferenceApp(tmp_path / "restart.db", vendor.url).start()
    try:
        assert running.post("/api/sync").body["total"] == TOTAL
        running.kill()
        running.start()
        health = running.get("/api/health").body
        assert health["payments"] == TOTAL and health["last_sync"]
    finally:
        running.close()


def test_a_vendor_that_is_down_answers_502_and_keeps_the_app_up(tmp_path):
    running = ReferenceApp(tmp_path / "down.db", "http://127.0.0.1:9").start()
    try:
        answer = running.post("/api/sync")
        assert (answer.status, answer.body) == (502, {"error": "vendor_unavailable"})
        assert running.get("/api/health").body["payments"] == 0
    finally:
        running.close()


# -- the client, called directly ------------------------------------------------------------


@pytest.fixture
def meridian(monkeypatch):
    """The reference's ``vendorsync.meridian`` module, imported from its tree."""
    monkeypatch.syspath_prepend(str(REFERENCE))
    for name in [n for n in sys.modules if n == "vendorsync" or n.startswith("vendorsync.")]:
        monkeypatch.delitem(sys.modules, name)
    import vendorsync.meridian

    return vendorsync.meridian


def test_retry_after_reads_seconds_and_http_dates(meridian):
    now = datetime(2026, 4, 1, 10, 0, 0, tzinfo=UTC)
    assert meridian.retry_after_seconds("2", now) == 2.0
    later = formatdate(now.timestamp() + 3, usegmt=True)
    assert meridian.retry_after_seconds(later, now) == 3.0
    assert meridian.retry_after_seconds("Wed, 01 Apr 2026 09:59:00 GMT", now) == 0.0
    assert meridian.retry_after_seconds("soon", now) == 1.0


def test_the_client_reports_the_total_and_creates_idempotently(meridian):
    fake = FakeMeridian1(create_stalls=1)
    url = fake.start()
    try:
        fake.nth = 5  # past the list traps: this test is about creates
        client = meridian.MeridianClient(url, "sk_test_meridian", timeout=0.3)
        assert client.total_count() == TOTAL
        first = client.create_payment(1299, "EUR", "order-42")  # times out once, retried
        assert client.create_payment(1299, "EUR", "order-42") == first
        creates = [e for e in fake.trace if e["method"] == "POST"]
        assert len(creates) == 3 and {e["idempotency_key"] for e in creates} == {"order-42"}
        assert [e["status"] for e in creates] == [201, 409, 409]
        with pytest.raises(ValueError):
            client.create_payment(12.99, "EUR", "order-43")
    finally:
        fake.stop()


def test_fetch_all_payments_is_complete_and_oldest_first(meridian):
    fake = FakeMeridian1(retry_secs=0)
    url = fake.start()
    try:
        rows = meridian.MeridianClient(url, "sk_test_meridian").fetch_all_payments()
        assert [row["id"] for row in rows] == true_order()
        assert {row["currency"] for row in rows} == {"EUR"}
    finally:
        fake.stop()


def test_no_raw_iso_timestamps_reach_the_page_source(app):
    for name in ("index.html", "app.js"):
        text = (REFERENCE / "vendorsync" / "web" / name).read_text()
        assert not ISO_8601.search(text), name
