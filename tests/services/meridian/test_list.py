"""``GET /v2/payments`` over a real socket: paging, ETags, the half cap, single reads."""

from __future__ import annotations

from .walker import Walker, list_lines
from .walker import skip_traps as _past_traps


def test_first_page_defaults_to_25_and_clamps_limits(mock, client):
    first = client.get("/v2/payments")
    assert first.status_code == 200 and len(first.json()["data"]) == 25
    _past_traps(mock)
    assert len(client.get("/v2/payments", params={"limit": 500}).json()["data"]) == 100
    assert len(client.get("/v2/payments", params={"limit": 0}).json()["data"]) == 1
    assert len(client.get("/v2/payments", params={"limit": "x"}).json()["data"]) == 25
    body = first.json()
    assert body["total"] == 1553 and body["next_cursor"]
    assert [r["id"] for r in body["data"][:3]] == ["pay_0000", "pay_0619", "pay_1238"]
    assert "_instant" not in body["data"][0]


def test_short_page_at_300_is_not_the_end_and_the_walk_ends_with_null(mock):
    _past_traps(mock)
    walker = Walker(mock.base_url)
    rows = walker.walk()
    assert len(rows) == 1553
    served = [
        (x["offset"], x["returned"], x["last"])
        for x in list_lines(mock.trace.lines())
        if x["status"] == 200
    ]
    assert (300, 61, False) in served
    assert served[-1] == (1461, 92, True)


def test_bad_cursors_are_400(mock, client):
    _past_traps(mock)
    for cursor in ("zz", "7b7d", "7b226f223a2035303030307d"):  # not hex, no "o", out of range
        reply = client.get("/v2/payments", params={"cursor": cursor})
        assert (reply.status_code, reply.json()) == (400, {"error": "bad_cursor"})


def test_etag_gives_304_until_the_generation_moves(mock, client):
    _past_traps(mock)
    page = client.get("/v2/payments", params={"limit": 100})
    tag = page.headers["ETag"]
    again = client.get("/v2/payments", params={"limit": 100}, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b"" and again.headers["ETag"] == tag
    client.patch("/v2/payments/pay_0001", json={"note": "x"}, headers={"If-Match": "1"})
    changed = client.get("/v2/payments", params={"limit": 100}, headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    client.post("/v2/payments", json={}, headers={"Idempotency-Key": "k"})  # creates do not bump
    tag = changed.headers["ETag"]
    assert (
        client.get(
            "/v2/payments", params={"limit": 100}, headers={"If-None-Match": tag}
        ).status_code
        == 304
    )


def test_half_cap_serves_the_first_half_in_delivery_order(mock):
    mock.mark_phase("halfset")
    _past_traps(mock)
    rows = Walker(mock.base_url).walk()
    assert len(rows) == 776
    lines = [x for x in list_lines(mock.trace.lines()) if x["status"] == 200]
    assert all(x["halfset"] for x in lines)
    mock.clear_visible_cap()
    assert mock.store.visible == 1553


def test_get_one_finds_fixture_and_created_rows(mock, client):
    assert client.get("/v2/payments/pay_0042").json()["id"] == "pay_0042"
    assert client.get("/v2/payments/nope").json() == {"error": "not_found"}
    assert client.get("/v2/payments/bad-id!").status_code == 404
    created = client.post(
        "/v2/payments",
        headers={"Idempotency-Key": "one"},
        json={
            "amount": {"value_minor": 10, "currency": "JPY"},
            "counterparty": {"name": "A", "country": "JP"},
            "occurred_at": "2026-04-01T00:00:00Z",
        },
    )
    assert client.get(f"/v2/payments/{created.json()['id']}").status_code == 200
    assert client.get("/v2/payments").json()["total"] == 1553  # created rows are never listed


DOCS_MUST_MENTION = (
    "Retry-After", "HTTP-date", "If-None-Match", "If-Match", "Idempotency-Key", "cursor_expired",
    "webhook.verify", "Meridian-Signature", "HMAC-SHA256", "10 seconds", "next_cursor",
)  # fmt: skip


def test_docs_and_unknown_paths(client):
    for path in ("/v2/docs", "/docs"):
        docs = client.get(path)
        assert docs.status_code == 200 and docs.headers["content-type"].startswith("text/markdown")
        assert [n for n in DOCS_MUST_MENTION if n not in docs.text] == []
    assert client.get("/v3/nothing").json() == {"error": "not_found"}
    assert client.delete("/v2/payments").status_code == 404
