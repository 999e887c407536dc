"""The v3 list and reads over HTTP: auth, fixed pages, opaque cursors and their errors,
ETags with true 304s, reversals and the docs page."""

from __future__ import annotations

import httpx
from v3_client import AUTH, client, serving

from benchwright.services.meridian_v3.paging import encode_cursor

KEYS = {"id", "amount_minor", "currency", "created_at", "settled_at", "status", "version",
        "note", "counterparty"}  # fmt: skip
"""The documented keys of a payment."""


def test_every_route_but_the_docs_needs_the_bearer_key():
    with serving() as mock, httpx.Client(base_url=mock.base_url) as anon:
        assert anon.get("/v3/payments").status_code == 401
        assert anon.get("/v3/payments/pay_00001").status_code == 401
        assert (
            anon.get("/v3/reversals", headers={"Authorization": "Bearer nope"}).status_code == 401
        )
        docs = anon.get("/v3/docs")
        assert docs.status_code == 200 and "generation" in docs.text and mock.base_url in docs.text
        assert anon.get("/admin/down", headers=AUTH).status_code == 404


def test_pages_hold_64_with_etag_and_generation_and_a_cursor_to_the_next():
    with serving(seed=2) as mock, client(mock) as http:
        first = http.get("/v3/payments")
        body = first.json()
        assert [r["id"] for r in body["data"]] == [f"pay_{i:05d}" for i in range(1, 65)]
        assert body["total"] == 12_288 and body["next_cursor"]
        assert first.headers["etag"].startswith('"') and first.headers["x-collection-generation"]
        second = http.get("/v3/payments", params={"cursor": body["next_cursor"]}).json()
        assert second["data"][0]["id"] == "pay_00065"
        assert set(body["data"][0]) == KEYS


def test_an_unchanged_page_answers_304_with_the_same_generation_a_changed_one_200():
    with serving(seed=2) as mock, client(mock) as http:
        first = http.get("/v3/payments")
        tag, generation = first.headers["etag"], first.headers["x-collection-generation"]
        again = http.get("/v3/payments", headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.headers["x-collection-generation"] == generation
        mock.commit_mutation("pay_00003", note="moved", announce=False)
        changed = http.get("/v3/payments", headers={"If-None-Match": tag})
        assert changed.status_code == 200 and changed.headers["etag"] != tag
        assert changed.headers["x-collection-generation"] == generation
        assert changed.json()["data"][2]["version"] == 2


def test_bad_and_expired_cursors():
    with serving(seed=2) as mock, client(mock) as http:
        cursor = http.get("/v3/payments").json()["next_cursor"]
        for bad in (
            "garbage",
            cursor[:-1] + ("0" if cursor[-1] != "0" else "1"),
            encode_cursor(65, 12_288, 1).split(".")[0] + ".00000000",
        ):
            answer = http.get("/v3/payments", params={"cursor": bad})
            assert (answer.status_code, answer.json()) == (400, {"error": "bad_cursor"})
        mock.expire_cursors()
        expired = http.get("/v3/payments", params={"cursor": cursor})
        assert (expired.status_code, expired.json()) == (410, {"error": "cursor_expired"})
        fresh = http.get("/v3/payments").json()["next_cursor"]
        assert http.get("/v3/payments", params={"cursor": fresh}).status_code == 200


def test_one_payment_and_the_reversals():
    with serving(seed=6) as mock, client(mock) as http:
        row = http.get("/v3/payments/pay_00007").json()
        assert row == mock.fixture.payments[6]
        assert http.get("/v3/payments/pay_99999").json() == {"error": "not_found"}
        reversals = http.get("/v3/reversals").json()
        assert reversals["total"] == len(mock.fixture.reversals) == len(reversals["data"])
        assert reversals["data"] == list(mock.fixture.reversals)
