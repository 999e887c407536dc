"""Writes against the real v3 mock over HTTP: PATCH under If-Match, creates under an
Idempotency-Key (replays, validation, value dates, the held-open create) and the commit
ledger that counts what they did."""

from __future__ import annotations

import threading

import httpx
import pytest
from v3_client import client, serving

from benchwright.services.meridian_v3 import berlin_day

DRAFT = {
    "amount_minor": 4500,
    "currency": "EUR",
    "note": "rent",
    "counterparty": {"name": "Smoke Co", "country": "DE"},
}


def test_patch_needs_if_match_a_valid_note_and_the_current_version():
    with serving(seed=1) as mock, client(mock) as http:
        url = "/v3/payments/pay_00010"
        assert http.patch(url, json={"note": "x"}).status_code == 428
        for note in ("", "n" * 281, 7, None):
            answer = http.patch(url, json={"note": note}, headers={"If-Match": '"1"'})
            assert (answer.status_code, answer.json()) == (400, {"error": "invalid_note"})
        stale = http.patch(url, json={"note": "x"}, headers={"If-Match": '"2"'})
        assert (stale.status_code, stale.json()) == (412, {"error": "version_conflict"})
        done = http.patch(
            url, json={"note": "call them", "amount_minor": 1}, headers={"If-Match": '"1"'}
        )
        assert done.status_code == 200 and done.json()["version"] == 2
        assert done.json()["amount_minor"] == mock.fixture.payments[9]["amount_minor"]
        assert http.patch(url, json={"note": "again"}, headers={"If-Match": "2"}).status_code == 200
        assert http.patch(url, json={"note": "x"}, headers={"If-Match": '"2"'}).status_code == 412
        assert (
            http.patch(
                "/v3/payments/pay_99999", json={"note": "x"}, headers={"If-Match": "1"}
            ).status_code
            == 404
        )
        commits = mock.commit_ledger().commits
    assert [(c.payment_id, c.version, c.source, c.row["note"]) for c in commits] == [
        ("pay_00010", 2, "patch", "call them"),
        ("pay_00010", 3, "patch", "again"),
    ]


@pytest.mark.parametrize(("change", "code"), [
    ({"amount_minor": 0}, "invalid_amount"),
    ({"amount_minor": 12.5}, "invalid_amount"),
    ({"amount_minor": True}, "invalid_amount"),
    ({"currency": "GBP"}, "unsupported_currency"),
    ({"counterparty": {"name": "", "country": "DE"}}, "invalid_counterparty"),
    ({"counterparty": {"name": "A", "country": "de"}}, "invalid_counterparty"),
    ({"counterparty": "A"}, "invalid_counterparty"),
    ({"note": "n" * 281}, "invalid_note"),
])  # fmt: skip
def test_a_create_is_validated(change, code):
    with serving() as mock, client(mock) as http:
        answer = http.post("/v3/payments", json=DRAFT | change, headers={"Idempotency-Key": "k"})
        assert (answer.status_code, answer.json()) == (400, {"error": code})
        assert mock.commit_ledger().creates[-1].outcome == code


def test_a_key_creates_once_and_replays_the_same_payment_whatever_the_body():
    with serving(seed=2) as mock, client(mock) as http:
        missing = http.post("/v3/payments", json=DRAFT)
        assert (missing.status_code, missing.json()) == (400, {"error": "idempotency_key_required"})
        first = http.post("/v3/payments", json=DRAFT, headers={"Idempotency-Key": "draft-1"})
        replay = http.post("/v3/payments", json={"junk": 1}, headers={"Idempotency-Key": "draft-1"})
        assert first.status_code == 201 and replay.status_code == 200
        assert first.json() == replay.json()
        row = first.json()
        assert row["id"] == "pay_12289" and row["version"] == 1 and row["status"] == "pending"
        assert (row["amount_minor"], row["currency"], row["note"]) == (4500, "EUR", "rent")
        assert berlin_day(row["created_at"]) in mock.fixture.headroom_days()
        assert http.get("/v3/payments/pay_12289").json() == row
        # the duplicate-payment bug: a fresh key per retry
        http.post("/v3/payments", json=DRAFT, headers={"Idempotency-Key": "draft-1-retry"})
        ledger = mock.commit_ledger()
    assert ledger.created_per_key() == {"": 0, "draft-1": 1, "draft-1-retry": 1}
    assert ledger.created_per_amount() == {(4500, "EUR"): 2}
    assert [a.outcome for a in ledger.creates] == [
        "idempotency_key_required",
        "created",
        "replayed",
        "created",
    ]
    assert ledger.truth().total == 12_290


def test_a_held_create_is_committed_before_the_client_gives_up_and_a_replay_returns_it():
    with serving(seed=2) as mock, client(mock) as http:
        mock.hold_creates(1.0)
        seen: list = []
        waiter = threading.Thread(target=lambda: seen.append(mock.wait_for_create(0, 60)))
        waiter.start()  # waiting before the create arrives: woken by it, not by the bound
        with pytest.raises(httpx.ReadTimeout):
            http.post("/v3/payments", json=DRAFT, headers={"Idempotency-Key": "a2"}, timeout=0.3)
        waiter.join(10)
        assert not waiter.is_alive()
        (attempt,) = seen
        assert attempt is not None and attempt.outcome == "created"
        mock.hold_creates(on=False)
        retry = http.post("/v3/payments", json=DRAFT, headers={"Idempotency-Key": "a2"})
        assert retry.status_code == 200 and retry.json()["id"] == attempt.payment_id
        assert mock.wait_for_create(2, timeout=0.1) is None
        assert mock.commit_ledger().created_per_key() == {"a2": 1}
    held = next(x for x in mock.trace.lines() if x.get("held_secs") is not None)
    assert held["client_gone"] is True and held["idempotency_key"] == "a2"
