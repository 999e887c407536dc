"""Webhooks and availability against the real v3 mock over HTTP: registration with the
unsigned challenge, signed deliveries and their ledger, refund groups, and set_down."""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import datetime
from zoneinfo import ZoneInfo

import httpx
from v3_client import Consumer, Store, client, consumer_for, serving

from benchwright.services._server import BackgroundServer


def test_registration_echoes_the_challenge_and_is_idempotent_by_url():
    with serving(seed=1) as mock, client(mock) as http:
        state = Consumer(Store())
        with BackgroundServer(state.app()) as server:
            url = server.base_url + "/hook"
            first = http.post("/v3/webhooks", json={"url": url})
            again = http.post("/v3/webhooks", json={"url": url})
            assert first.status_code == 200 and first.json() == again.json()
            assert first.json()["id"].startswith("wh_")
            assert first.json()["secret"].startswith("whsec_")
            state.echo_challenge = False
            refused = http.post("/v3/webhooks", json={"url": server.base_url + "/other"})
            assert (refused.status_code, refused.json()) == (400, {"error": "verification_failed"})
        assert http.post("/v3/webhooks", json={"url": "ftp://x"}).status_code == 400
        assert mock.webhook.url == url
    line = next(x for x in mock.trace.lines() if x.get("handshake") == "ok")
    assert line["webhook_url"] == url


def test_another_run_gives_the_same_url_another_secret():
    secrets = []
    with BackgroundServer(Consumer(Store()).app()) as server:
        for seed in (1, 2):
            with serving(seed) as mock, client(mock) as http:
                answer = http.post("/v3/webhooks", json={"url": server.base_url + "/hook"})
                secrets.append(answer.json()["secret"])
    assert secrets[0] != secrets[1]


def test_a_delivery_is_signed_over_the_raw_body_and_its_answer_is_ledgered():
    with serving(seed=1) as mock, consumer_for(mock) as consumer:
        mock.commit_mutation("pay_00005", status="failed", note="chargeback")
        assert mock.wait_deliveries(5)
    ((_, event, body, header),) = consumer.arrivals
    stamp, mac = (part.split("=", 1)[1] for part in header.split(","))
    want = hmac.new(consumer.secret.encode(), f"{stamp}.".encode() + body, hashlib.sha256)
    assert mac == want.hexdigest()
    assert set(json.loads(body)) == {"id", "type", "created_at", "txn", "data"}
    assert event["type"] == "payment.updated" and event["txn"] is None
    assert (event["data"]["version"], event["data"]["status"]) == (2, "failed")
    (delivery,) = mock.delivery_ledger()
    assert delivery.acked and delivery.kind == "genuine" and delivery.ms >= 0
    assert consumer.store.rows["pay_00005"]["note"] == "chargeback"


def test_an_unacknowledged_delivery_is_retried_and_each_attempt_ledgered():
    with serving(seed=1) as mock, consumer_for(mock) as consumer:
        consumer.answer = 503
        mock.commit_mutation("pay_00005", note="x")
        assert mock.wait_deliveries(5)
    assert [(d.attempt, d.status, d.acked) for d in mock.delivery_ledger()] == [
        (1, 503, False),
        (2, 503, False),
    ]


def test_a_refund_is_one_group_of_two_parts_and_moves_the_truth_atomically():
    with serving(seed=1) as mock, consumer_for(mock) as consumer, client(mock) as http:
        target = next(r["id"] for r in mock.fixture.payments if r["status"] == "settled")
        before = mock.truth()
        commit, reversal = mock.commit_refund(target, first_part=2)
        assert mock.wait_deliveries(5)
        assert http.get(f"/v3/payments/{target}").json()["status"] == "refunded"
        assert reversal.reversal in http.get("/v3/reversals").json()["data"]
    kinds = [event["type"] for _t, event, _b, _h in consumer.arrivals]
    assert kinds == ["reversal.created", "payment.updated"]
    txns = {event["txn"]["id"] for _t, event, _b, _h in consumer.arrivals}
    assert len(txns) == 1 and consumer.store.rows[target]["status"] == "refunded"
    after, currency = mock.truth(), reversal.reversal["currency"]
    assert after.reversals[currency][0] == before.reversals[currency][0] + 1
    assert mock.truth(commit.seq - 1) == before and reversal.seq == commit.seq
    assert mock.truth(commit.seq) == after  # never half of the group at any point


def test_while_down_every_connection_is_dropped_and_deliveries_wait():
    with serving(seed=1) as mock, consumer_for(mock) as consumer, client(mock) as http:
        assert http.get("/v3/payments/pay_00001").status_code == 200  # a kept-alive connection
        mock.set_down(True)
        for _ in range(2):
            try:
                http.get("/v3/payments/pay_00001")
            except httpx.TransportError:
                pass
            else:
                raise AssertionError("a request was answered while the vendor was down")
        mock.commit_mutation("pay_00002", note="while down")
        assert not mock.wait_deliveries(0.3) and consumer.arrivals == []
        mock.set_down(False)
        assert mock.wait_deliveries(5) and len(consumer.arrivals) == 1
        assert http.get("/v3/payments/pay_00002").json()["note"] == "while down"
    refused = [x for x in mock.trace.lines() if x.get("refused") == "down"]
    assert refused  # (a request already on the kept-alive connection is simply cut off)
    assert [x["on"] for x in mock.trace.lines() if x.get("admin") == "down"] == [True, False]


def test_a_vendor_side_create_is_served_announced_and_value_dated_into_a_headroom_day():
    """The control plane's create (the viz probe's streamed create): a new payment under
    the key, its signed ``payment.created`` delivered, dated on a day the vendor keeps
    below the fullest (the 3D layout basis never has to move), and the same key twice
    creates once."""
    with serving(seed=1) as mock, consumer_for(mock) as consumer, client(mock) as http:
        made = mock.commit_create("probe-create-1")
        assert mock.wait_deliveries(5)
        assert mock.commit_create("probe-create-1") == made
        served = http.get(f"/v3/payments/{made}").json()
    (arrival,) = [e for _t, e, _b, _h in consumer.arrivals if e["type"] == "payment.created"]
    assert arrival["data"]["id"] == made and served["status"] == "pending"
    at = datetime.fromisoformat(served["created_at"].replace("Z", "+00:00"))
    assert at.astimezone(ZoneInfo("Europe/Berlin")).date() in mock.fixture.headroom_days()
