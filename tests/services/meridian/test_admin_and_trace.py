"""The HTTP control surface and the JSONL trace file's fields."""

from __future__ import annotations

import asyncio
import json

import httpx

from benchwright.services.meridian.app import build_app

COMMON = {"seq", "t", "method", "path", "query", "status", "if_none_match", "if_match",
          "idempotency_key", "authorized", "ua"}  # fmt: skip


def test_cap_phase_and_stall_controls(mock, client):
    assert client.post("/admin/halfset", json={"on": True}).json() == {
        "ok": True,
        "visible_rows": 776,
    }
    assert client.get("/v2/payments").json()["total"] == 776
    assert client.post("/admin/halfset", json={"on": False}).json()["visible_rows"] == 1553
    assert client.post("/admin/stall", json={"on": True, "secs": 0.1}).json()["ok"]
    assert mock.store.traps.stall_armed and mock.store.traps.stall_secs == 0.1
    assert client.post("/admin/phase", json={"name": "sync1"}).json() == {"ok": True}
    assert [x["__phase__"] for x in mock.trace.lines() if "__phase__" in x] == ["sync1"]


def test_conflict_mode_control(mock, client):
    assert client.post("/admin/conflict", json={"mode": "sometimes"}).json() == {
        "error": "bad_mode"
    }
    assert client.post("/admin/conflict", json={"mode": "off"}).json() == {
        "ok": True,
        "mode": "off",
    }
    assert (
        client.patch(
            "/v2/payments/pay_0000", json={"note": "a"}, headers={"If-Match": "1"}
        ).status_code
        == 200
    )


def test_mutate_and_unmutate_flip_twelve_statuses_and_versions(mock, client):
    tag = client.get("/v2/payments").headers["ETag"]
    assert client.post("/admin/mutate").json()["mutated"] == mock.fixture.mutation_map
    row = client.get("/v2/payments/pay_0100").json()
    assert (row["status"], row["version"]) == ("failed", 2)
    mock.mark_phase("again")
    assert client.get("/v2/payments", headers={"If-None-Match": tag}).status_code == 200
    assert set(client.post("/admin/unmutate").json()["restored"].values()) == {"settled"}
    row = client.get("/v2/payments/pay_0100").json()
    assert (row["status"], row["version"]) == ("settled", 3)


def test_ledgers_over_http(client):
    body = client.post("/admin/ledgers").json()
    assert set(body) == {"trap_results", "batch_trace", "conflict_trace"}
    assert body["trap_results"]["retry_after"] == 0.0


def test_admin_is_post_and_localhost_only(mock, client):
    assert client.get("/admin/phase").json() == {"error": "forbidden"}
    assert client.post("/admin/nope").json() == {"error": "not_found"}
    remote = httpx.ASGITransport(app=build_app(mock), client=("10.1.2.3", 5555))

    async def from_afar() -> httpx.Response:
        async with httpx.AsyncClient(transport=remote, base_url="http://meridian") as far:
            return await far.post("/admin/phase", json={"name": "x"})

    assert asyncio.run(from_afar()).status_code == 403


def test_trace_file_carries_the_documented_fields(mock, client):
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
    client.post("/admin/phase", json={"name": "p"})
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
