"""The HTTP control surface and the JSONL trace file's fields."""

from __future__ import annotations

import json

import httpx
import pytest

from benchwright.services.meridian import MeridianMock

COMMON = {"seq", "t", "method", "path", "query", "status", "if_none_match", "if_match",
          "idempotency_key", "authorized", "ua"}  # fmt: skip


def test_cap_phase_and_stall_controls(mock, client, control):
    assert control.post("/admin/halfset", json={"on": True}).json() == {
        "ok": True,
        "visible_rows": 776,
    }
    assert client.get("/v2/payments").json()["total"] == 776
    assert control.post("/admin/halfset", json={"on": False}).json()["visible_rows"] == 1553
    assert control.post("/admin/stall", json={"on": True, "secs": 0.1}).json()["ok"]
    assert mock.store.traps.stall_armed and mock.store.traps.stall_secs == 0.1
    assert control.post("/admin/phase", json={"name": "sync1"}).json() == {"ok": True}
    assert [x["__phase__"] for x in mock.trace.lines() if "__phase__" in x] == ["sync1"]


def test_conflict_mode_control(mock, client, control):
    assert control.post("/admin/conflict", json={"mode": "sometimes"}).json() == {
        "error": "bad_mode"
    }
    assert control.post("/admin/conflict", json={"mode": "off"}).json() == {
        "ok": True,
        "mode": "off",
    }
    assert (
        client.patch(
            "/v2/payments/pay_0000", json={"note": "a"}, headers={"If-Match": "1"}
        ).status_code
        == 200
    )


def test_mutate_and_unmutate_flip_twelve_statuses_and_versions(mock, client, control):
    tag = client.get("/v2/payments").headers["ETag"]
    assert control.post("/admin/mutate").json()["mutated"] == mock.fixture.mutation_map
    row = client.get("/v2/payments/pay_0100").json()
    assert (row["status"], row["version"]) == ("failed", 2)
    mock.mark_phase("again")
    assert client.get("/v2/payments", headers={"If-None-Match": tag}).status_code == 200
    assert set(control.post("/admin/unmutate").json()["restored"].values()) == {"settled"}
    row = client.get("/v2/payments/pay_0100").json()
    assert (row["status"], row["version"]) == ("settled", 3)


def test_ledgers_over_http(control):
    body = control.post("/admin/ledgers").json()
    assert set(body) == {"trap_results", "batch_trace", "conflict_trace", "contract_ledger"}
    assert body["trap_results"]["retry_after"] == 0.0


def test_the_controls_answer_only_their_token_and_only_on_their_own_listener(mock, client):
    """Without the token (or with the vendor's API key) nothing runs and nothing is said;
    with it, only POST; and the API's listener has no ``/admin`` at all."""
    url = mock.control_url + "/admin/phase"
    for headers in ({}, {"Authorization": "Bearer sk_test_meridian"},
                    {"Authorization": f"Bearer {mock.control_token}x"},
                    {"Authorization": mock.control_token}):  # fmt: skip
        refused = httpx.post(url, json={"name": "x"}, headers=headers)
        assert (refused.status_code, refused.json()) == (401, {"error": "unauthorized"})
    auth = {"Authorization": f"Bearer {mock.control_token}"}
    assert httpx.get(url, headers=auth).json() == {"error": "method_not_allowed"}
    assert httpx.post(mock.control_url + "/admin/nope", headers=auth).status_code == 404
    assert httpx.post(mock.control_url + "/v2/payments", headers=auth).status_code == 404
    public = client.post("/admin/phase", json={"name": "x"}, headers=auth)
    assert (public.status_code, public.json()) == (404, {"error": "not_found"})
    assert not any("__phase__" in x for x in mock.trace.lines())
    refusals = [x for x in mock.trace.lines() if x["path"] == "/admin/phase"]
    assert [(x["status"], x.get("control"), x.get("admin")) for x in refusals] == [
        (401, True, None)] * 4 + [(405, True, None), (404, None, None)]  # fmt: skip
    assert [x["status"] for x in mock.trace.lines() if x.get("control")
            and x["path"] == "/v2/payments"] == [404]  # fmt: skip


def test_a_second_mock_draws_another_token():
    assert MeridianMock().control_token != MeridianMock().control_token


def test_the_controls_are_served_once(mock):
    with pytest.raises(RuntimeError, match="served already"):
        mock.start_control()


def test_trace_file_carries_the_documented_fields(mock, client, control):
    auth = {"Authorization": "Bearer sk_test_meridian"}
    first = client.get("/v2/payments", params={"limit": 100}, headers=auth)
    cursor = first.json()["next_cursor"]
    client.get("/v2/payments", params={"cursor": cursor})
    client.get("/v2/payments", params={"cursor": cursor})
    for _ in range(2):  # the first one meets the HTTP-date 429
        client.get(
            "/v2/payments", params={"limit": 100}, headers={"If-None-Match": first.headers["ETag"]}
        )
    client.get("/v2/payments/pay_0001")
    client.post("/v2/payments", json={}, headers={"Idempotency-Key": "k"})
    client.post("/v2/payments/batch", json={"items": [{}]})
    client.patch("/v2/payments/pay_0001", json={"note": "n"}, headers={"If-Match": "1"})
    control.post("/admin/phase", json={"name": "p"})
    lines = [json.loads(text) for text in mock.trace.path.read_text().splitlines()]
    requests = [x for x in lines if x["method"] != "-"]
    assert all(set(x) >= COMMON for x in requests)
    assert requests[0]["authorized"] is True and requests[1]["authorized"] is False
    by_status = {(x["path"], x["method"], x["status"]): x for x in requests}
    assert {"offset", "returned", "limit", "last", "halfset"} <= set(
        by_status["/v2/payments", "GET", 200]
    )
    assert {"retry_after", "form"} <= set(by_status["/v2/payments", "GET", 429])
    assert by_status["/v2/payments", "GET", 410]["reason"] == "cursor_expired"
    assert {"offset", "halfset"} <= set(by_status["/v2/payments", "GET", 304])
    assert by_status["/v2/payments/pay_0001", "GET", 200]["version"] == 1
    assert by_status["/v2/payments", "POST", 400]["reason"] == "invalid_amount"
    batch = by_status["/v2/payments/batch", "POST", 200]
    assert (batch["batch_items"], batch["succeeded"], batch["failed"]) == (1, 0, 1)
    patch = by_status["/v2/payments/pay_0001", "PATCH", 412]  # the one-shot injection at start
    assert {
        "payment_id",
        "current_version",
        "injected_412",
        "mode",
        "applied_fields",
        "new_version",
    } <= set(patch)
    assert by_status["/admin/phase", "POST", 200]["admin"] == "phase"
    marker = next(x for x in lines if x.get("__phase__") == "p")
    assert (marker["method"], marker["path"], marker["status"], marker["query"]) == (
        "-",
        "-",
        0,
        {},
    )
