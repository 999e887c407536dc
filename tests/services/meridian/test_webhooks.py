"""Registration handshake and the signed delivery script, against a real receiver."""

from __future__ import annotations

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


def test_no_registration_no_script(mock, client):
    with pytest.raises(NoWebhookRegistered, match="no webhook is registered"):
        mock.run_delivery_script()
    assert client.post("/admin/deliver-script").json() == {"error": "no_webhook_registered"}


def test_the_script_signs_genuine_deliveries_and_forges_one(mock, client, receiver):
    state, url = receiver
    state.secret = _register(client, url).json()["secret"]
    report = mock.run_delivery_script()
    kinds = [r["kind"] for r in report["results"]]
    assert report["delivered"] == 7
    assert kinds == ["apply", "apply", "stale", "duplicate", "forged", "apply", "apply"]
    assert [r["status"] for r in report["results"]] == [200, 200, 200, 200, 401, 200, 200]
    genuine = [verify(state.secret, header, body) for body, header in state.raw]
    assert genuine == [True, True, True, True, False, True, True]
    assert state.raw[3] == state.raw[0]  # the duplicate resends identical bytes and header
    assert report["expected_counters"] == state.counters == mock.fixture.webhook_counters
    assert report["expected_rows"] == mock.fixture.webhook_final_rows
    assert state.rows == {k: v for k, v in report["expected_rows"].items() if k != "pay_0030"}
    out = [x for x in mock.trace.lines() if x["method"] == "POST(out)"]
    assert [x["kind"] for x in out] == kinds and out[4]["delivery_status"] == 401


def test_the_script_moves_the_vendor_rows_except_the_forged_one(mock, client, receiver):
    state, url = receiver
    state.secret = _register(client, url).json()["secret"]
    client.post("/admin/deliver-script")
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
    assert statuses == [401, 401, 401, 401, 200, 401, 401]


def test_the_last_registration_wins(mock, client, receiver):
    state, url = receiver
    other = Receiver()
    with BackgroundServer(other.app()) as second:
        _register(client, url)
        other.secret = _register(client, second.base_url + "/hook").json()["secret"]
        mock.run_delivery_script()
    assert other.counters["received"] == 7 and state.counters["received"] == 0
