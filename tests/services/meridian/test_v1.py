"""The Meridian v1 mock (sb-5.2 ``vendorsync``'s vendor) over real sockets, driven by httpx.

Every expected number comes from docs/facts/meridian-v1.md (the published v1
fixture and contract), not from the code under test.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from email.utils import parsedate_to_datetime

import httpx
import pytest

from benchwright.services.meridian import MeridianMock, build_fixture_v1
from benchwright.services.vendors import vendor_profile

from .walker import Walker

LIST = "/v1/payments"


def _walker(mock: MeridianMock, **habits) -> Walker:
    return Walker(mock.base_url, path=LIST, **habits)


def _instant(row: dict) -> datetime:
    return datetime.fromisoformat(row["created_at"].replace("Z", "+00:00"))


def test_seed_0_is_the_published_fixture():
    f = build_fixture_v1(0)
    assert (f.total, f.sum_minor, f.optimal_requests) == (247, 4_409_197, 7)
    assert len({row["_instant"] for row in f.rows}) == 13  # 247 = 13 x 19: ties
    first = next(row for row in f.rows if row["id"] == "pay_0001")
    assert (first["amount_minor"], first["created_at"]) == (1137, "2026-03-01T18:43:00-05:00")
    assert (f.oldest, f.newest) == ("2026-03-01T12:00:00Z", "2026-03-07T08:36:00Z")
    assert sorted(f.mutation_map) == [f"pay_{i:04d}" for i in range(3, 247, 10)]


def test_other_seeds_differ_but_keep_the_trap_chain_reachable():
    fixtures = [build_fixture_v1(seed) for seed in (1, 2, 3)]
    assert len({(f.total, f.sum_minor) for f in fixtures}) == 3
    assert all(f.total > 200 and f.optimal_requests == 7 for f in fixtures)


def test_a_perfect_walk_gets_every_payment_and_meets_every_trap(mock_v1):
    rows = _walker(mock_v1).walk()
    assert len(rows) == 247 and set(rows) == {f"pay_{i:04d}" for i in range(247)}
    assert all(set(row) == {"id", "amount_minor", "currency", "created_at", "status"}
               for row in rows.values())  # fmt: skip
    oldest_first = sorted(rows.values(), key=lambda row: (_instant(row), row["id"]))
    assert [row["id"] for row in oldest_first] == mock_v1.fixture.true_order
    assert sum(row["amount_minor"] for row in rows.values()) == 4_409_197
    ledger = mock_v1.contract_ledger()
    assert (ledger.retry_seconds, ledger.retry_date, ledger.cursor_expiry) == (1.0, 1.0, 1.0)
    assert ledger.reached_end and ledger.list_requests == 7 and ledger.largest_limit == 100
    assert ledger.offset_style_requests == 0
    traps = mock_v1.trap_results()
    assert traps.instances == {"retry_after": 2, "cursor_expiry": 1, "stall": 0}


def test_pages_carry_the_whole_total_and_a_short_page_is_not_the_end(mock_v1, client_v1):
    first = client_v1.get(LIST).json()
    assert first["total"] == 247 and len(first["data"]) == 25
    mock_v1.mark_phase("plain")
    with mock_v1.store.lock:
        mock_v1.store.traps.nth = 10  # spend the phase's traps
    short = client_v1.get(LIST, params={"cursor": first["next_cursor"]}).json()
    assert len(short["data"]) == 5 and short["next_cursor"] is not None
    assert short["total"] == 247
    assert client_v1.get(LIST, params={"cursor": "zz"}).json() == {"error": "bad_cursor"}


def test_an_unchanged_page_is_304_without_a_body_until_the_data_changes(mock_v1, client_v1):
    page = client_v1.get(LIST)
    tag = page.headers["ETag"]
    salted = f"meridian-{mock_v1.store.generation}-0-25".encode()  # v1's own prefix
    assert tag == f'"{hashlib.sha256(salted).hexdigest()[:16]}"'
    mock_v1.mark_phase("sync2")  # a continuation: the traps are not re-armed
    with mock_v1.store.lock:
        mock_v1.store.traps.nth = 10
    again = client_v1.get(LIST, headers={"If-None-Match": tag})
    assert (again.status_code, again.content, again.headers["ETag"]) == (304, b"", tag)
    assert mock_v1.mutate_statuses() == dict.fromkeys(mock_v1.fixture.mutation_map, "refunded")
    changed = client_v1.get(LIST, headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    ledger = mock_v1.contract_ledger("sync2")
    assert (ledger.list_requests, ledger.conditional_requests, ledger.not_modified) == (2, 2, 1)


def test_429_in_both_forms_and_the_ledger_tells_early_from_honoured_retries(mock_v1):
    _walker(mock_v1, honour_seconds=False).walk()
    early = mock_v1.contract_ledger()
    assert (early.retry_seconds, early.retry_date) == (0.0, 1.0)
    mock_v1.reset()
    _walker(mock_v1, honour_date=False).walk()
    late = mock_v1.contract_ledger()
    assert (late.retry_seconds, late.retry_date) == (1.0, 0.0)
    answers = [line for line in mock_v1.trace.lines() if line["status"] == 429]
    seconds, date = (line["retry_after"] for line in answers)
    assert float(seconds) == mock_v1.timing.retry_after_secs
    assert parsedate_to_datetime(date).timestamp() > answers[1]["t"]  # a moment to come


def test_a_429_body_is_rate_limited_and_giving_up_scores_0(mock_v1, client_v1):
    client_v1.get(LIST)
    limited = client_v1.get(LIST)
    assert (limited.status_code, limited.json()) == (429, {"error": "rate_limited"})
    assert mock_v1.contract_ledger().retry_seconds == 0.0  # the next request never came


def test_410_must_be_answered_by_restarting_without_a_cursor(mock_v1):
    _walker(mock_v1).walk()
    gone = next(line for line in mock_v1.trace.lines() if line["status"] == 410)
    assert gone["query"].get("cursor") and gone["reason"] == "cursor_expired"
    mock_v1.reset()
    _walker(mock_v1, restart_on_410=False).walk()
    ledger = mock_v1.contract_ledger()
    assert ledger.cursor_expiry == 0.0 and ledger.retry_seconds == 1.0
    assert any("did not restart" in detail for detail in ledger.details)


def test_a_create_replayed_under_its_key_is_the_same_payment(mock_v1, client_v1):
    body, key = {"amount_minor": 4500, "currency": "EUR"}, {"Idempotency-Key": "k-1"}
    created = client_v1.post(LIST, json=body, headers=key)
    assert created.status_code == 201
    payment = created.json()
    assert (payment["id"], payment["status"], payment["amount_minor"]) == (
        "pay_new_0000", "pending", 4500)  # fmt: skip
    assert payment["created_at"].endswith("Z")
    replay = client_v1.post(LIST, json=body, headers=key)
    assert (replay.status_code, replay.json()) == (
        409, {"error": "duplicate", "payment_id": "pay_new_0000"})  # fmt: skip
    keyless = client_v1.post(LIST, json=body)
    assert (keyless.status_code, keyless.json()) == (400, {"error": "idempotency_key_required"})
    assert mock_v1.store.created.keys() == {"pay_new_0000"}  # no duplicate
    assert mock_v1.batch_trace().duplicate_creates == 0
    ledger = mock_v1.contract_ledger()
    assert (ledger.creates, ledger.keyed_creates, ledger.replayed_creates) == (3, 2, 1)
    assert len(client_v1.get(LIST).json()["data"]) == 25  # created payments are not listed


def test_the_same_payment_under_a_fresh_key_is_a_second_payment(mock_v1, client_v1):
    body = {"amount_minor": 4500, "currency": "EUR"}
    for key in ("a", "b"):
        assert client_v1.post(LIST, json=body, headers={"Idempotency-Key": key}).is_success
    assert mock_v1.batch_trace().duplicate_creates == 1


def test_a_wrong_key_is_served_but_traced_as_unauthorized(mock_v1, client_v1):
    good = {"Authorization": "Bearer sk_test_meridian"}
    assert client_v1.get(LIST, headers=good).status_code == 200
    bad = client_v1.get(LIST, headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 429  # served (the trap chain's 2nd request), not refused
    assert [line["authorized"] for line in mock_v1.trace.lines()] == [True, False]


def test_only_the_v1_routes_exist(client_v1):
    for method, path in (("GET", "/v1/payments/pay_0001"), ("GET", "/v2/payments"),
                         ("POST", "/v1/payments/batch"), ("POST", "/v2/webhooks"),
                         ("GET", "/admin/ledgers")):  # fmt: skip
        reply = client_v1.request(method, path)
        assert (reply.status_code, reply.json()) == (404, {"error": "not_found"}), path


def test_the_docs_page_is_served_and_rendered_with_this_mock_s_facts(mock_v1, client_v1):
    page = client_v1.get("/v1/docs")
    assert page.headers["Content-Type"] == "text/markdown; charset=utf-8"
    text = page.text
    assert text.startswith("# Meridian API v1") and "$" not in text
    assert f"`{mock_v1.base_url}`" in text and "Bearer sk_test_meridian" in text
    assert "default 25, at most 100" in text and "`Retry-After: 0.3`" in text
    for fact in ("cursor_expired", "If-None-Match", "Idempotency-Key", "idempotency_key_required",
                 '"duplicate"', "`next_cursor` is `null`", "bad_cursor"):  # fmt: skip
        assert fact in text, fact
    assert client_v1.get("/docs").text == text
    assert mock_v1.contract_ledger().docs_reads == 2


def test_a_phase_never_marked_is_refused_by_name(mock_v1):
    with pytest.raises(ValueError, match="no phase 'sync9'"):
        mock_v1.contract_ledger("sync9")


def test_the_profile_renders_and_serves_the_v1_mock():
    profile = vendor_profile("meridian-v1")
    spec = 'Docs at {DOCS_URL}. Base URL {BASE_URL}, API key {API_KEY}. {"limit": 25}'
    assert profile.render(spec) == (
        "Docs at http://127.0.0.1:8787/v1/docs. Base URL http://127.0.0.1:8787, "
        'API key sk_test_meridian. {"limit": 25}'
    )
    mock = profile.mock(0)
    try:
        base = mock.start()
        assert httpx.get(base + "/v1/payments", timeout=5).json()["total"] == 247
    finally:
        mock.stop()
    assert vendor_profile("meridian").mock(0).api.name == "v2"


def test_the_ledgers_control_reports_the_contract_ledger(mock_v1):
    auth = {"Authorization": f"Bearer {mock_v1.control_token}"}
    _walker(mock_v1).walk()
    body = httpx.post(mock_v1.control_url + "/admin/ledgers", headers=auth, timeout=5).json()
    assert body["contract_ledger"]["cursor_expiry"] == 1.0
    assert body["contract_ledger"]["retry_date"] == 1.0


def test_a_second_sync_marked_as_a_continuation_meets_no_trap_again(mock_v1, client_v1):
    """sb-5.2's ``second_sync_cost`` earns 1.0 only when every request of the re-sync is
    answered 304: a grader marks it ``sync2`` (a continuation), never a resetting name."""
    mock_v1.mark_phase("sync1")
    _walker(mock_v1).walk()
    mock_v1.mark_phase("sync2")
    statuses, cursor = [], None
    for _ in range(3):
        reply = client_v1.get(LIST, params={"limit": 100} | ({"cursor": cursor} if cursor else {}))
        statuses.append(reply.status_code)
        cursor = reply.json()["next_cursor"]
    assert (statuses, cursor) == ([200, 200, 200], None)
    mock_v1.mark_phase("resync")  # a resetting name re-arms the throttle
    assert [client_v1.get(LIST).status_code for _ in range(2)] == [200, 429]
