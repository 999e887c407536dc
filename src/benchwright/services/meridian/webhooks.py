"""Webhook registration (challenge handshake, derived secret) and signed deliveries.

The secret is derived from the URL, so registering the same URL again is
idempotent; there is one slot and the last successful registration wins.
Deliveries are signed ``Meridian-Signature: t=<unix>,v1=<hex>`` with
HMAC-SHA256(secret, ``"<t>." + raw body``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from benchwright.services.meridian._http import error, json_object, reply
from benchwright.services.meridian._outbound import post_json

if TYPE_CHECKING:
    from benchwright.services.meridian.control import MeridianMock


SIGNATURE_HEADER = "Meridian-Signature"
FAULT_HANDSHAKE = "failed: refused by the armed register fault (not sent)"
"""The trace's ``handshake`` for a registration the armed fault refused."""


@dataclass(frozen=True)
class Registration:
    """What the URL derives: the webhook id, its secret and the handshake challenge."""

    url: str
    id: str
    secret: str
    challenge: str

    @classmethod
    def for_url(cls, url: str, salt: str = "") -> Registration:
        """``salt`` (a run's seed, say) makes the secret one nobody can derive from the URL
        alone; the v2 mock leaves it empty, as the public vendor did."""
        sha = hashlib.sha256(f"meridian-wh-{salt}{url}".encode()).hexdigest()
        challenge = hashlib.sha256(f"challenge-{sha}".encode()).hexdigest()[:32]
        return cls(url, f"wh_{sha[:12]}", f"whsec_{sha[12:44]}", challenge)


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The ``Meridian-Signature`` header value for ``body`` sent at ``timestamp``."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def verify(secret: str, header: str, body: bytes) -> bool:
    """What a correct receiver does: recompute over the raw bytes, compare in constant time."""
    try:
        fields = dict(part.split("=", 1) for part in header.split(","))
        expected = sign(secret, int(fields["t"]), body)
    except (ValueError, KeyError):
        return False
    return hmac.compare_digest(expected, header)


async def register(mock: MeridianMock, request: Request, line: dict) -> Response:
    url = (await json_object(request)).get("url")
    if not isinstance(url, str) or not url.startswith("http"):
        return error(400, "bad_url")
    reg = Registration.for_url(url)
    line.update(webhook_url=url, webhook_id=reg.id)
    if mock.store.take_register_fault(url_port(url)):
        line.update(handshake=FAULT_HANDSHAKE, register_fault=True)
        return error(400, "verification_failed")
    handshake = await send_handshake(reg, mock.timing.handshake_timeout)
    line["handshake"] = handshake
    if handshake != "ok":
        return error(400, "verification_failed")
    with mock.store.lock:
        mock.store.webhook = reg
    return reply({"id": reg.id, "secret": reg.secret})


def url_port(url: str) -> int | None:
    """The URL's port (None when it names none or an invalid one)."""
    try:
        return urlsplit(url).port
    except ValueError:
        return None


async def send_handshake(reg: Registration, timeout: float) -> str:
    """POST the unsigned challenge; "ok" when it is echoed back, else why not."""
    body = json.dumps({"type": "webhook.verify", "challenge": reg.challenge}).encode()
    answer = await run_in_threadpool(post_json, reg.url, body, timeout)
    if answer.error is not None:
        return f"failed: {answer.error}"
    try:
        echoed = json.loads(answer.body).get("challenge") if answer.status == 200 else None
    except (ValueError, AttributeError):
        echoed = None
    return "ok" if echoed == reg.challenge else f"failed: status {answer.status}"


def event_body(event_id: str, data: dict) -> bytes:
    """The delivery body, serialised with default `json.dumps` settings."""
    created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    document = {"id": event_id, "type": "payment.updated", "created_at": created, "data": data}
    return json.dumps(document).encode()
