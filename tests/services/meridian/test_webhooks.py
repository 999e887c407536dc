"""Registration handshake and the signed delivery script, against a real receiver."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from benchwright.services._server import BackgroundServer
from benchwright.services.meridian import NoWebhookRegistered, Registration, verify

from .receiver import Receiver


@pytest.fixture
def receiver() -> Iterator[tuple[Receiver, str]]:
    state = Receiver()
    with BackgroundServer(state.app()) as server:
        yield state, server.base_url + "/hook"


def _register(client, url):
    return client.post("/v2/webhooks", json={"url": url})


def test_registration_derives_id_and_secret_and_is_idempotent(mock, client, receiver):
    _, url = receiver
    first = _register(client, url)
    expected = Registration.for_url(url)
    assert first.status_code == 200 and first.json() == {
        "id": expected.id,
        "secret": expected.secret,
    }
    assert expected.id.startswith("wh_") and len(expected.secret) == len("whsec_") + 32
    assert _register(client, url).json() == first.json()
    line = next(x for x in mock.trace.lines() if x["path"] == "/v2/webhooks")
    assert (line["webhook_url"], line["webhook_id"], line["handshake"]) == (url, expected.id, "ok")


def test_a_failed_handshake_or_bad_url_is_400(mock, client, receiver):
    state, url = receiver
    state.echo_challenge = False
    assert _register(client, url).json() == {"error": "verification_failed"}
    assert _register(client, "ftp://x").json() == {"error": "bad_url"}
    assert _register(client, "http://127.0.0.1:9/hook").json() == {"error": "verification_failed"}
    assert mock.store.webhook is None


def test_no_registration_no_script(mock, client, control):
    with pytest.raises(NoWebhookRegistered, match="no webhook is registered"):
        mock.run_delivery_script()
    assert control.post("/admin/deliver-script").json() == {"error": "no_webhook_registered"}


KINDS = ["apply", "apply", "stale", "duplicate", "forged", "apply", "apply", "repeat-newer",
         "apply", "late", "apply-raw", "apply-raw"]  # fmt: skip


def test_the_script_signs_genuine_deliveries_and_forges_one(mock, client, receiver):
    state, url = receiver
    state.secret = _register(client, url).json()["secret"]
    report = mock.run_delivery_script()
    kinds = [r["kind"] for r in report["results"]]
    assert report["delivered"] == 12
    assert kinds == KINDS
    assert [r["status"] for r in report["results"]] == [200] * 4 + [401] + [200] * 7
    genuine = [verify(state.secret, header, body) for body, header in state.raw]
    assert genuine == [True] * 4 + [False] + [True] * 7
    assert state.raw[3] == state.raw[0]  # the duplicate resends identical bytes and header
    assert report["expected_counters"] == state.counters == mock.fixture.webhook_counters
    assert state.counters == {"received": 12, "applied": 7, "ignored": 4, "rejected": 1}
    assert report["expected_rows"] == mock.fixture.webhook_final_rows
    assert state.rows == {k: v for k, v in report["expected_rows"].items() if k != "pay_0030"}
    out = [x for x in mock.trace.lines() if x["method"] == "POST(out)"]
    assert [x["kind"] for x in out] == kinds and out[4]["delivery_status"] == 401
    assert "§8.3" in report["results"][4]["duty"] and "newer" in report["results"][7]["duty"]


def test_a_repeated_event_id_carries_a_newer_version_and_a_pair_arrives_out_of_order(
    mock, client, receiver
):
    state, url = receiver
    state.secret = _register(client, url).json()["secret"]
    results = mock.run_delivery_script()["results"]
    events = [json.loads(body) for body, _ in state.raw]
    original, repeat = events[6], events[7]
    assert repeat["id"] == original["id"] == results[7]["event_id"] == "evt_0006"
    assert repeat["data"]["version"] == original["data"]["version"] + 1
    assert mock.fixture.webhook_final_rows["pay_0040"] == {"version": 2, "note": "wh-d-1"}
    newer, older = events[8], events[9]
    assert (newer["id"], older["id"]) == ("evt_0008", "evt_0007")  # created 7 then 8, sent 8, 7
    assert newer["data"]["version"] > older["data"]["version"]
    assert mock.fixture.webhook_final_rows["pay_0050"] == {"version": 3, "note": "wh-e-2"}


def test_raw_bodies_differ_from_every_re_serialisation(mock, client, receiver):
    state, url = receiver
    state.secret = _register(client, url).json()["secret"]
    mock.run_delivery_script()
    for body, header in state.raw[10:]:
        event = json.loads(body)
        again = [
            json.dumps(event).encode(),
            json.dumps(event, ensure_ascii=False).encode(),
            json.dumps(event, separators=(",", ":"), ensure_ascii=False).encode(),
            json.dumps(event, sort_keys=True).encode(),
        ]
        assert body not in again
        assert verify(state.secret, header, body)
        assert not any(verify(state.secret, header, b) for b in again)
    assert state.raw[10][0].startswith(b'{"type":"payment.updated"')
    escaped = state.raw[11][0]
    assert b"\\u00fc" in escaped and "Zürich".encode() in escaped and b"\n" in escaped
    assert state.rows["pay_0070"]["note"] == "wh-g-1 über Zürich, été"


def test_the_script_moves_the_vendor_rows_except_the_forged_one(mock, client, control, receiver):
    state, url = receiver
    state.secret = _register(client, url).json()["secret"]
    control.post("/admin/deliver-script")
    rows = {
        pid: client.get(f"/v2/payments/{pid}").json() for pid in mock.fixture.webhook_final_rows
    }
    assert {pid: {"version": r["version"], "note": r["note"]} for pid, r in rows.items()} == (
        mock.fixture.webhook_final_rows
    )


def test_a_receiver_that_skips_verification_is_visible_in_the_results(mock, client, receiver):
    state, url = receiver
    _register(client, url)
    state.secret = "whsec_not_the_secret"  # accepts only the forgery
    statuses = [r["status"] for r in mock.run_delivery_script()["results"]]
    assert statuses == [401] * 4 + [200] + [401] * 7


def test_the_last_registration_wins(mock, client, receiver):
    state, url = receiver
    other = Receiver()
    with BackgroundServer(other.app()) as second:
        _register(client, url)
        other.secret = _register(client, second.base_url + "/hook").json()["secret"]
        mock.run_delivery_script()
    assert other.counters["received"] == 12 and state.counters["received"] == 0


def test_deliver_update_moves_the_vendor_row_and_sends_it_signed(mock, client, receiver):
    state, url = receiver
    with pytest.raises(NoWebhookRegistered):
        mock.deliver_update("pay_0005", {"note": "x"}, "evt_9001")
    state.secret = _register(client, url).json()["secret"]
    party = {"name": "<img src onerror=__bwx=1>", "country": "GB"}
    sent = mock.deliver_update("pay_0005", {"counterparty": party}, "evt_9001")
    assert (sent["status"], sent["event_id"], sent["data"]["version"]) == (200, "evt_9001", 2)
    body, header = state.raw[0]
    assert verify(state.secret, header, body) and json.loads(body)["data"]["counterparty"] == party
    row = client.get("/v2/payments/pay_0005").json()
    assert (row["version"], row["counterparty"]) == (2, party)
    out = [x for x in mock.trace.lines() if x["method"] == "POST(out)"]
    assert [(x["webhook_delivery"], x["kind"], x["delivery_status"]) for x in out] == [
        ("evt_9001", "update", 200)
    ]


def test_an_armed_register_fault_refuses_the_next_registration_once(
    mock, client, control, receiver
):
    state, url = receiver
    port = int(url.split(":")[2].split("/")[0])
    assert control.post("/admin/register-fault", json={"port": port + 1}).json()["ok"]
    assert _register(client, url).status_code == 200  # another port's fault: not this URL's
    mock.reset()
    mock.arm_register_fault(port)
    refused = _register(client, url)
    assert (refused.status_code, refused.json()) == (400, {"error": "verification_failed"})
    assert mock.store.webhook is None and state.raw == []  # no handshake was sent either
    accepted = _register(client, url)  # one-shot: the retry goes through the real handshake
    assert accepted.status_code == 200 and mock.store.webhook.url == url
    lines = [x for x in mock.trace.lines() if x["path"] == "/v2/webhooks"]
    assert [(x["status"], x.get("register_fault", False)) for x in lines] == [
        (400, True),
        (200, False),
    ]
    assert lines[0]["webhook_url"] == url and lines[0]["handshake"].startswith("failed: ")
    armed = [x for x in mock.trace.lines() if x.get("admin") == "register-fault"]
    assert armed[-1]["port"] == port and armed[-1]["on"] is True


def test_a_register_fault_without_a_port_refuses_any_url_and_can_be_disarmed(
    mock, client, control, receiver
):
    _, url = receiver
    assert control.post("/admin/register-fault", json={}).json() == {"ok": True, "on": True,
                                                                     "port": None}  # fmt: skip
    assert _register(client, url).json() == {"error": "verification_failed"}
    mock.arm_register_fault()
    mock.arm_register_fault(on=False)
    assert _register(client, url).status_code == 200
    mock.arm_register_fault()
    mock.reset()  # a fresh start forgets an armed fault
    assert _register(client, url).status_code == 200
    assert control.post("/admin/register-fault", json={"port": "x"}).json() == {
        "error": "bad_request"
    }
