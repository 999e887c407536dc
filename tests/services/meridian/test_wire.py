"""The mock's exact bytes: what the public stdlib vendor would put on the wire, line by line.

Each test reads a raw socket, so a lower-case ``etag``, uvicorn's own
``server: uvicorn``, a compact JSON body or a header out of order fails here even
though every HTTP library would accept it.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Iterator
from email.utils import parsedate_to_datetime

import pytest

from benchwright.services.meridian import MeridianMock, Registration, verify

from .wire import RawReceiver, exchange

PAY_0000 = (
    b'{"id": "pay_0000", "amount_minor": 500, "currency": "EUR", '
    b'"created_at": "2026-03-23T00:00:00+01:00", "settled_at": "2026-03-22T23:45:00Z", '
    b'"status": "settled", "version": 1, "note": "", '
    b'"counterparty": {"name": "Aurora Freight", "country": "DE"}}'
)
FIRST_PAGE = b'{"data": [' + PAY_0000 + b'], "next_cursor": "7b226f223a20317d", "total": 1553}'
CURSOR_1 = json.dumps({"o": 1}).encode().hex()
STAMP = [("Server", "<server>"), ("Date", "<date>")]


def _json_fields(body: bytes) -> list[tuple[str, str]]:
    return [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]


@pytest.fixture(scope="module")
def served() -> Iterator[MeridianMock]:
    """The contract's own timing: the seconds-form ``Retry-After`` is then exactly ``2``."""
    with MeridianMock(0) as started:
        yield started


@pytest.fixture
def mock(served: MeridianMock) -> MeridianMock:
    served.reset()
    return served


def _etag(mock: MeridianMock, offset: int, take: int) -> str:
    seed = f"meridian2-{mock.store.generation}-{offset}-{take}".encode()
    return f'"{hashlib.sha256(seed).hexdigest()[:16]}"'


def _list(mock: MeridianMock, query: str = "limit=1", **fields: str):
    return exchange(mock.base_url, "GET", f"/v2/payments?{query}", fields)


def test_a_list_page_is_server_date_etag_type_length_then_default_json(mock):
    page = _list(mock)
    assert page.first_line == "HTTP/1.1 200 OK"
    etag = [("ETag", _etag(mock, 0, 1))]
    assert page.masked() == STAMP + etag + _json_fields(FIRST_PAGE)
    assert page.body == FIRST_PAGE
    assert "etag" not in [name for name, _ in page.fields]  # the sloppy client's dict lookup


def test_a_304_has_its_etag_and_a_zero_length_but_no_body_or_type(mock):
    tag = _etag(mock, 0, 1)
    cached = _list(mock, **{"If-None-Match": tag})
    assert cached.first_line == "HTTP/1.1 304 Not Modified"
    assert cached.masked() == [*STAMP, ("ETag", tag), ("Content-Length", "0")]
    assert cached.body == b""


def test_a_single_payment_has_no_etag(mock):
    one = exchange(mock.base_url, "GET", "/v2/payments/pay_0000")
    assert one.first_line == "HTTP/1.1 200 OK"
    assert one.masked() == STAMP + _json_fields(PAY_0000)
    assert one.body == PAY_0000


def test_the_seconds_429_puts_retry_after_before_the_body_fields(mock):
    _list(mock)
    limited = _list(mock)
    body = b'{"error": "rate_limited"}'
    assert limited.first_line == "HTTP/1.1 429 Too Many Requests"
    assert limited.masked() == [*STAMP, ("Retry-After", "2"), *_json_fields(body)]
    assert limited.body == body


def test_the_410_then_the_http_date_429(mock):
    _list(mock)
    _list(mock)  # the seconds-form 429
    gone = _list(mock, f"limit=1&cursor={CURSOR_1}")
    body = b'{"error": "cursor_expired"}'
    assert gone.first_line == "HTTP/1.1 410 Gone"
    assert (gone.masked(), gone.body) == (STAMP + _json_fields(body), body)
    before = time.time()
    limited = _list(mock)
    when = limited.value("Retry-After")
    body = b'{"error": "rate_limited"}'
    assert limited.first_line == "HTTP/1.1 429 Too Many Requests"
    assert limited.masked() == [*STAMP, ("Retry-After", when), *_json_fields(body)]
    assert limited.body == body
    assert when.endswith(" GMT") and parsedate_to_datetime(when).timestamp() >= before + 1


def test_428_without_if_match_and_412_on_a_stale_one(mock):
    patch = b'{"note": "wire"}'
    missing = exchange(mock.base_url, "PATCH", "/v2/payments/pay_0001", body=patch)
    body = b'{"error": "precondition_required"}'
    assert missing.first_line == "HTTP/1.1 428 Precondition Required"
    assert (missing.masked(), missing.body) == (STAMP + _json_fields(body), body)
    stale = exchange(
        mock.base_url, "PATCH", "/v2/payments/pay_0001", {"If-Match": '"7"'}, body=patch
    )
    body = b'{"error": "version_conflict"}'
    assert stale.first_line == "HTTP/1.1 412 Precondition Failed"
    assert (stale.masked(), stale.body) == (STAMP + _json_fields(body), body)


def test_bodies_escape_non_ascii_as_json_dumps_does(mock):
    create = {
        "amount": {"value_minor": 700, "currency": "EUR"},
        "counterparty": {"name": "Zoë Ståhl", "country": "SE"},
        "occurred_at": "2026-04-01T10:00:00Z",
    }
    made = exchange(
        mock.base_url,
        "POST",
        "/v2/payments",
        {"Idempotency-Key": "wire-1", "Content-Type": "application/json"},
        json.dumps(create, ensure_ascii=False).encode(),
    )
    assert made.first_line == "HTTP/1.1 201 Created"
    assert b'"counterparty": {"name": "Zo\\u00eb St\\u00e5hl", "country": "SE"}}' in made.body
    assert made.body == json.dumps(json.loads(made.body)).encode()
    assert made.masked() == STAMP + _json_fields(made.body)


def test_a_batch_numbers_creates_from_pay_new_0000_and_words_errors_as_the_public_vendor(mock):
    """Per-item results in input order; the public vendor's first id and error messages."""
    good = {
        "amount": {"value_minor": 500, "currency": "EUR"},
        "counterparty": {"name": "Alpha GmbH", "country": "DE"},
        "occurred_at": "2026-04-01T10:00:00Z",
    }
    items = [
        good | {"idempotency_key": "b-1"},
        good | {"amount": {"value_minor": 5_000_001, "currency": "USD"}, "idempotency_key": "b-2"},
        good | {"amount": {"value_minor": 5, "currency": "GBP"}, "idempotency_key": "b-3"},
        good | {"counterparty": {"name": "", "country": "DE"}, "idempotency_key": "b-4"},
        good | {"occurred_at": "nope", "idempotency_key": "b-5"},
        good,
        good | {"idempotency_key": "b-1"},
        good | {"amount": {"value_minor": 0, "currency": "EUR"}, "idempotency_key": "b-8"},
    ]
    batch = exchange(
        mock.base_url,
        "POST",
        "/v2/payments/batch",
        {"Content-Type": "application/json"},
        json.dumps({"items": items}).encode(),
    )
    want = (
        b'{"results": [{"index": 0, "status": "created", "id": "pay_new_0000"}, '
        b'{"index": 1, "status": "error", "error": {"code": "amount_over_limit", '
        b'"message": "per-payment limit is 5000000 minor units"}}, '
        b'{"index": 2, "status": "error", "error": {"code": "unsupported_currency", '
        b'"message": "currency not supported"}}, '
        b'{"index": 3, "status": "error", "error": {"code": "invalid_counterparty", '
        b'"message": "counterparty name/country invalid"}}, '
        b'{"index": 4, "status": "error", "error": {"code": "bad_format", '
        b'"message": "occurred_at must be RFC 3339"}}, '
        b'{"index": 5, "status": "error", "error": {"code": "idempotency_key_required", '
        b'"message": "each item needs a non-empty idempotency_key"}}, '
        b'{"index": 6, "status": "created", "id": "pay_new_0000", "duplicate": true}, '
        b'{"index": 7, "status": "error", "error": {"code": "invalid_amount", '
        b'"message": "amount.value_minor must be a positive integer"}}], '
        b'"succeeded": 2, "failed": 6}'
    )
    assert batch.first_line == "HTTP/1.1 200 OK"
    assert (batch.masked(), batch.body) == (STAMP + _json_fields(want), want)


def test_the_docs_page_is_markdown_with_the_same_stamp(mock):
    docs = exchange(mock.base_url, "GET", "/v2/docs")
    assert docs.first_line == "HTTP/1.1 200 OK"
    fields = [
        ("Content-Type", "text/markdown; charset=utf-8"),
        ("Content-Length", str(len(docs.body))),
    ]
    assert docs.masked() == STAMP + fields


OUTBOUND = ["Accept-Encoding", "Content-Length", "Host", "User-Agent", "Content-Type"]


def test_handshake_and_deliveries_are_urllib_posts_of_default_json_signed_as_sent(mock):
    with RawReceiver() as receiver:
        registered = exchange(
            mock.base_url, "POST", "/v2/webhooks", body=json.dumps({"url": receiver.url}).encode()
        )
        reg = Registration.for_url(receiver.url)
        assert registered.body == f'{{"id": "{reg.id}", "secret": "{reg.secret}"}}'.encode()
        mock.run_delivery_script()
    handshake, first, *rest = receiver.received
    host = receiver.url.split("/")[2]
    assert handshake.first_line == "POST /hook HTTP/1.1"
    assert (
        handshake.body == f'{{"type": "webhook.verify", "challenge": "{reg.challenge}"}}'.encode()
    )
    assert [name for name, _ in handshake.fields] == [*OUTBOUND, "Connection"]
    for delivery in (first, *rest):
        assert delivery.first_line == "POST /hook HTTP/1.1"
        assert [name for name, _ in delivery.fields] == [
            *OUTBOUND,
            "Meridian-Signature",
            "Connection",
        ]
        values = dict(delivery.fields)
        assert values["Accept-Encoding"] == "identity" and values["Host"] == host
        assert values["User-Agent"].startswith("Python-urllib/3.")
        assert values["Content-Type"] == "application/json" and values["Connection"] == "close"
        assert values["Content-Length"] == str(len(delivery.body))
    created = json.loads(first.body)["created_at"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", created), created
    row = next(r for r in mock.fixture.rows if r["id"] == "pay_0010")
    data = {k: v for k, v in row.items() if not k.startswith("_")} | {
        "version": 2,
        "note": "wh-a-1",
    }
    event = {"id": "evt_0001", "type": "payment.updated", "created_at": created, "data": data}
    assert first.body == json.dumps(event).encode()
    assert verify(reg.secret, first.value("Meridian-Signature"), first.body)
    assert not verify(
        reg.secret, first.value("Meridian-Signature"), first.body.replace(b", ", b",")
    )


def test_an_armed_register_fault_answers_the_bytes_of_a_genuine_failed_handshake(mock):
    """The fault stands for a handshake that found no server: the same answer, line for line."""
    payload = json.dumps({"url": "http://127.0.0.1:9/hook"}).encode()  # nothing listens on 9
    genuine = exchange(mock.base_url, "POST", "/v2/webhooks", body=payload)
    mock.arm_register_fault(9)
    armed = exchange(mock.base_url, "POST", "/v2/webhooks", body=payload)
    assert armed.first_line == genuine.first_line == "HTTP/1.1 400 Bad Request"
    assert armed.masked() == genuine.masked()
    assert armed.body == genuine.body == b'{"error": "verification_failed"}'
    handshakes = [x["handshake"] for x in mock.trace.lines() if x["path"] == "/v2/webhooks"]
    assert handshakes[0].startswith("failed: ") and "register fault" in handshakes[1]
