"""Creates and batches over a real socket, and `batch_trace()` read in both directions."""

from __future__ import annotations

import pytest


def _payment(
    value=5000, currency="EUR", name="Alpha GmbH", country="DE", at="2026-04-01T10:00:00+02:00"
):
    return {"amount": {"value_minor": value, "currency": currency},
            "counterparty": {"name": name, "country": country}, "occurred_at": at}  # fmt: skip


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        (_payment(value="5000"), "invalid_amount"),
        (_payment(value=True), "invalid_amount"),
        (_payment(value=0), "invalid_amount"),
        (_payment(currency="GBP"), "unsupported_currency"),
        (_payment(value=5_000_001), "amount_over_limit"),
        (_payment(value=5_000_001, currency="GBP"), "unsupported_currency"),  # order matters
        (_payment(name=""), "invalid_counterparty"),
        (_payment(country="deu"), "invalid_counterparty"),
        (_payment(at="nope"), "bad_format"),
        ([1, 2], "invalid_amount"),  # a body that is not an object is {}
    ],
)
def test_create_validation_codes_in_order(client, payload, code):
    reply = client.post("/v2/payments", json=payload, headers={"Idempotency-Key": "k"})
    assert (reply.status_code, reply.json()) == (400, {"error": code})


def test_create_needs_a_key_and_replays_it_as_409(client):
    assert client.post("/v2/payments", json=_payment()).json() == {
        "error": "idempotency_key_required"
    }
    first = client.post(
        "/v2/payments", json=_payment(value=5_000_000), headers={"Idempotency-Key": "a"}
    )
    assert first.status_code == 201
    body = first.json()
    assert body["id"] == "pay_new_0000" and body["status"] == "pending" and body["version"] == 1
    assert body["created_at"] == "2026-04-01T10:00:00+02:00" and body["settled_at"] is None
    again = client.post(
        "/v2/payments", json=_payment(value=5_000_000), headers={"Idempotency-Key": "a"}
    )
    assert (again.status_code, again.json()) == (
        409,
        {"error": "duplicate", "payment_id": "pay_new_0000"},
    )


def test_the_idempotency_store_resets_per_phase(mock, client):
    client.post("/v2/payments", json=_payment(), headers={"Idempotency-Key": "a"})
    mock.mark_phase("next")
    assert (
        client.post("/v2/payments", json=_payment(), headers={"Idempotency-Key": "a"}).status_code
        == 201
    )


def test_batch_outcomes_in_input_order(client):
    items = [
        _payment() | {"idempotency_key": "b1"},
        _payment(value=5_000_001, currency="USD") | {"idempotency_key": "b2"},
        _payment(value=900, currency="JPY") | {"idempotency_key": "b3"},
        _payment(),
        _payment() | {"idempotency_key": "b1"},
    ]
    body = client.post("/v2/payments/batch", json={"items": items}).json()
    assert [(r["index"], r["status"]) for r in body["results"]] == [
        (0, "created"), (1, "error"), (2, "created"), (3, "error"), (4, "created"),
    ]  # fmt: skip
    assert body["results"][1]["error"]["code"] == "amount_over_limit"
    assert body["results"][3]["error"]["code"] == "idempotency_key_required"
    assert body["results"][4] == {
        "index": 4,
        "status": "created",
        "id": body["results"][0]["id"],
        "duplicate": True,
    }
    assert (body["succeeded"], body["failed"]) == (3, 2)


def test_batch_limits(client):
    assert client.post("/v2/payments/batch", json={}).json() == {"error": "no_items"}
    assert client.post("/v2/payments/batch", json={"items": []}).json() == {"error": "no_items"}
    many = [_payment() | {"idempotency_key": str(n)} for n in range(21)]
    assert client.post("/v2/payments/batch", json={"items": many}).json() == {
        "error": "too_many_items"
    }
    assert client.post("/v2/payments/batch", json={"items": many[:20]}).json()["succeeded"] == 20


SCORER_BATCH = [
    _payment(5000, "EUR", "Alpha GmbH", "DE") | {"idempotency_key": "sb6-b1"},
    _payment(5_000_001, "USD", "Over Limit LLC", "US") | {"idempotency_key": "sb6-b2"},
    _payment(900, "JPY", "Kappa KK", "JP") | {"idempotency_key": "sb6-b3"},
]


def test_a_clean_batch_reads_zero_on_every_counter(mock, client):
    client.post("/v2/payments/batch", json={"items": SCORER_BATCH})
    client.post("/v2/payments/batch", json={"items": SCORER_BATCH[:1]})  # same-key replay is fine
    trace = mock.batch_trace()
    assert (trace.duplicate_creates, trace.retries_of_failed_item, trace.fresh_key_retries) == (
        0,
        0,
        0,
    )
    assert [op["outcome"] for op in trace.ops] == [
        "created",
        "amount_over_limit",
        "created",
        "duplicate",
    ]


def test_a_retried_failed_item_is_counted(mock, client):
    client.post("/v2/payments/batch", json={"items": SCORER_BATCH})
    client.post("/v2/payments/batch", json={"items": SCORER_BATCH[1:2]})
    assert mock.batch_trace().retries_of_failed_item == 1


def test_a_fresh_key_resubmission_is_counted_even_when_it_fails_again(mock, client):
    client.post("/v2/payments/batch", json={"items": SCORER_BATCH})
    client.post(
        "/v2/payments/batch", json={"items": [SCORER_BATCH[1] | {"idempotency_key": "new"}]}
    )
    trace = mock.batch_trace()
    assert trace.fresh_key_retries == 1 and trace.retries_of_failed_item == 0


def test_a_duplicate_create_under_a_fresh_key_is_counted(mock, client):
    client.post("/v2/payments/batch", json={"items": SCORER_BATCH})
    client.post(
        "/v2/payments",
        json=_payment(5000, "EUR", "Alpha GmbH", "DE"),
        headers={"Idempotency-Key": "x"},
    )
    assert mock.batch_trace().duplicate_creates == 1
