"""The vendorsync golden reference, run for real: its process, its SQLite file, its HTTP
API and page, against the Meridian v1 mock on loopback.

Every expected number is the mock's own ground truth (`MeridianMock.fixture`) and every
reading of the client's vendor habits is the mock's `contract_ledger()`, with the
phases marked as a grader marks them (``sync1`` resets the traps, ``sync2`` continues).
One app and one first sync serve the module; tests that need their own process or
vendor start their own.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from email.utils import formatdate, parsedate_to_datetime

import pytest
from meridian_v1 import list_lines
from reference_app import REFERENCE, ReferenceApp

from benchwright.services.meridian import MeridianMock

PAYMENT_KEYS = {"id", "amount_minor", "currency", "created_at", "status"}
ISO_8601 = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")
PUBLIC_GRACE_S = 0.15
"""How early the public scorer lets a retry arrive (docs/facts/meridian-v1.md §8)."""


@pytest.fixture(scope="module")
def app(vendor: MeridianMock, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReferenceApp]:
    db = tmp_path_factory.mktemp("vendorsync") / "fresh" / "vendorsync.db"  # no such dir yet
    running = ReferenceApp(db, vendor.base_url).start()
    yield running
    running.close()


def _sync(app: ReferenceApp, vendor: MeridianMock, phase: str) -> dict:
    """Mark ``phase``, sync once, and return the answer, the list requests and the ledger."""
    vendor.mark_phase(phase)
    mark = len(vendor.trace.lines())
    answer = app.post("/api/sync")
    assert answer.status == 200, answer.raw
    ledger = vendor.contract_ledger(phase)
    return {"sync": answer.body, "lists": list_lines(vendor, mark), "ledger": ledger}


@pytest.fixture(scope="module")
def first_sync(app: ReferenceApp, vendor: MeridianMock) -> dict:
    """Health on the fresh db, then the first sync (traps armed afresh)."""
    fresh = app.get("/api/health").body
    return {"fresh": fresh, **_sync(app, vendor, "sync1")}


@pytest.fixture(scope="module")
def second_sync(app: ReferenceApp, vendor: MeridianMock, first_sync: dict) -> dict:
    """The re-sync of the unchanged vendor, a continuation of the first sync's phase."""
    return _sync(app, vendor, "sync2")


def _all_rows(app: ReferenceApp, total: int) -> list[dict]:
    rows: list[dict] = []
    for offset in range(0, total, 100):
        rows += app.get(f"/api/payments?limit=100&offset={offset}").body["data"]
    return rows


# -- boot and health ------------------------------------------------------------------------


def test_health_on_a_fresh_db_then_after_the_sync(app, vendor, first_sync):
    assert first_sync["fresh"] == {"status": "ok", "payments": 0, "last_sync": None}
    health = app.get("/api/health")
    assert health.headers["Content-Type"] == "application/json"
    assert health.body["payments"] == vendor.fixture.total
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", health.body["last_sync"])


# -- the vendor contract, read from the vendor's record -------------------------------------


def test_the_first_sync_walks_every_page_through_the_traps_at_the_optimum(vendor, first_sync):
    total = vendor.fixture.total
    assert first_sync["sync"] == {"fetched": total, "inserted": total, "total": total}
    lists = first_sync["lists"]
    assert [e["status"] for e in lists] == [200, 429, 410, 429, 304, 200, 200]
    ledger = first_sync["ledger"]
    assert ledger.list_requests == len(lists) == vendor.fixture.optimal_requests
    assert (ledger.largest_limit, ledger.offset_style_requests, ledger.reached_end) == (
        100, 0, True)  # fmt: skip
    assert all(e["query"].get("limit") == "100" for e in lists)
    assert all(e["authorized"] for e in lists)
    assert lists[-1]["query"].get("cursor") and lists[-1]["last"]


def test_retry_after_is_honoured_in_both_forms(first_sync):
    ledger = first_sync["ledger"]
    assert (ledger.retry_seconds, ledger.retry_date) == (1.0, 1.0), ledger.details
    # Also within the public scorer's stricter grace (0.15 s), read from the same trace.
    lists = first_sync["lists"]
    secs = next(i for i, e in enumerate(lists) if e.get("form") == "seconds")
    assert lists[secs + 1]["t"] - lists[secs]["t"] >= float(lists[secs]["retry_after"]) - 0.15
    date = next(i for i, e in enumerate(lists) if e.get("form") == "date")
    moment = parsedate_to_datetime(lists[date]["retry_after"]).timestamp()
    assert lists[date + 1]["t"] >= moment - PUBLIC_GRACE_S


def test_an_expired_cursor_restarts_the_walk_and_is_never_sent_again(first_sync):
    assert first_sync["ledger"].cursor_expiry == 1.0, first_sync["ledger"].details
    lists = first_sync["lists"]
    expired = next(i for i, e in enumerate(lists) if e["status"] == 410)
    assert lists[expired]["reason"] == "cursor_expired"
    assert "cursor" not in lists[expired + 1]["query"]
    # The same cursor text may come back from the new walk's first page, never before it.
    dead = lists[expired]["query"]["cursor"]
    resent = [i for i, e in enumerate(lists) if i > expired and e["query"].get("cursor") == dead]
    restarted = next(i for i, e in enumerate(lists) if i > expired and e["status"] in (200, 304))
    assert all(i > restarted for i in resent)


def test_a_resync_is_answered_304_throughout_and_duplicates_nothing(app, vendor, second_sync):
    total = vendor.fixture.total
    assert second_sync["sync"] == {"fetched": total, "inserted": 0, "total": total}
    ledger = second_sync["ledger"]
    pages = -(-total // 100)
    assert (ledger.list_requests, ledger.conditional_requests, ledger.not_modified) == (
        pages, pages, pages)  # fmt: skip
    assert [e["status"] for e in second_sync["lists"]] == [304] * pages  # no trap fired again
    ids = [row["id"] for row in _all_rows(app, total)]
    assert len(ids) == len(set(ids)) == total


def test_a_resync_after_vendor_changes_updates_rows_in_place(app, vendor, second_sync):
    changed = vendor.mutate_statuses()
    assert len(changed) == 25
    total = vendor.fixture.total
    answer = app.post("/api/sync").body
    assert answer == {"fetched": total, "inserted": 0, "total": total}
    refunded = {row["id"] for row in _all_rows(app, total) if row["status"] == "refunded"}
    assert refunded == set(changed)
    filtered = app.get("/api/payments?status=refunded&limit=100").body  # the page's filter
    assert {row["id"] for row in filtered["data"]} == refunded and filtered["total"] == 25


def test_two_syncs_at_once_neither_duplicate_nor_lose(app, vendor, first_sync):
    answers: list = []
    threads = [threading.Thread(target=lambda: answers.append(app.post("/api/sync"))) for _ in "ab"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert [a.status for a in answers] == [200, 200]
    assert app.get("/api/health").body["payments"] == vendor.fixture.total


# -- the API --------------------------------------------------------------------------------


def test_payments_are_ordered_by_instant_with_exact_rows(app, vendor, first_sync):
    rows = _all_rows(app, vendor.fixture.total)
    assert [row["id"] for row in rows] == vendor.fixture.true_order  # ties by id
    assert all(set(row) == PAYMENT_KEYS for row in rows)
    assert all(type(row["amount_minor"]) is int for row in rows)
    text_order = sorted(rows, key=lambda row: row["created_at"])
    assert text_order != rows  # the fixture's offsets make string order wrong


def test_limit_defaults_to_25_and_is_capped_at_100(app, vendor, first_sync):
    total = vendor.fixture.total
    page = app.get("/api/payments").body
    assert (len(page["data"]), page["total"], page["limit"], page["offset"]) == (25, total, 25, 0)
    capped = app.get("/api/payments?limit=500").body
    assert (len(capped["data"]), capped["limit"]) == (100, 100)
    window = app.get("/api/payments?limit=5&offset=5").body
    assert [row["id"] for row in window["data"]] == vendor.fixture.true_order[5:10]
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


def test_the_summary_is_integer_money_and_utc_bounds(app, vendor, first_sync):
    summary = app.get("/api/summary")
    truth = vendor.fixture
    assert summary.body == {
        "count": truth.total,
        "total_minor": truth.sum_minor,
        "currency": "EUR",
        "oldest": truth.oldest,
        "newest": truth.newest,
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
    running = ReferenceApp(tmp_path / "restart.db", vendor.base_url).start()
    try:
        assert running.post("/api/sync").body["total"] == vendor.fixture.total
        running.kill()
        running.start()
        health = running.get("/api/health").body
        assert health["payments"] == vendor.fixture.total and health["last_sync"]
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


def test_the_client_reports_the_total_and_creates_idempotently(meridian, own_vendor, monkeypatch):
    real_urlopen, lost = meridian.urlopen, []

    def loses_the_first_create_answer(request, timeout):
        """The vendor creates the payment, but its answer never reaches the client."""
        response = real_urlopen(request, timeout=timeout)
        if request.get_method() == "POST" and not lost:
            lost.append(response.read())
            response.close()
            raise TimeoutError("timed out")
        return response

    monkeypatch.setattr(meridian, "urlopen", loses_the_first_create_answer)
    client = meridian.MeridianClient(own_vendor.base_url, "sk_test_meridian")
    assert client.total_count() == own_vendor.fixture.total
    first = client.create_payment(1299, "EUR", "order-42")  # retried under the same key
    assert client.create_payment(1299, "EUR", "order-42") == first
    assert list(own_vendor.store.created) == [first]  # one payment, never a second
    ledger = own_vendor.contract_ledger()
    assert (ledger.creates, ledger.keyed_creates, ledger.replayed_creates) == (3, 3, 2)
    creates = [line for line in own_vendor.trace.lines() if line["method"] == "POST"]
    assert {line["idempotency_key"] for line in creates} == {"order-42"}
    assert own_vendor.batch_trace().duplicate_creates == 0
    with pytest.raises(ValueError):
        client.create_payment(12.99, "EUR", "order-43")


def test_fetch_all_payments_is_complete_and_oldest_first(meridian, own_vendor):
    client = meridian.MeridianClient(own_vendor.base_url, "sk_test_meridian")
    rows = client.fetch_all_payments()
    assert [row["id"] for row in rows] == own_vendor.fixture.true_order
    assert sum(row["amount_minor"] for row in rows) == own_vendor.fixture.sum_minor
    ledger = own_vendor.contract_ledger()
    assert (ledger.retry_seconds, ledger.retry_date, ledger.cursor_expiry) == (1.0, 1.0, 1.0)
    assert ledger.list_requests == own_vendor.fixture.optimal_requests


def test_no_raw_iso_timestamps_reach_the_page_source(app):
    for name in ("index.html", "app.js"):
        text = (REFERENCE / "vendorsync" / "web" / name).read_text()
        assert not ISO_8601.search(text), name
