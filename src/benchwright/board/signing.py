"""Signed posts: the proof that a post comes from the install that owns its handle.

Every ``POST /api/benchmark-runs`` carries four headers:

- ``X-Benchwright-Key``: the poster's Ed25519 public key, 64 hex digits;
- ``X-Benchwright-Time``: when it was signed, Unix seconds;
- ``X-Benchwright-Nonce``: 16 to 64 random characters ``[0-9A-Za-z_-]``;
- ``X-Benchwright-Signature``: 128 hex digits, Ed25519 over the UTF-8 of
  ``benchwright-board-post/1\\n{time}\\n{nonce}\\n{sha256 hex of the exact body bytes}``.

`verify` checks them against the body and the board's clock (at most `WINDOW` apart either
way) and returns the `Proof`; the store then binds the handle to the key and records the
nonce (`benchwright.board.claims`), so the same signed post is accepted once. Refusals are
403 with a code naming why: ``unsigned``, ``bad_signature_header``, ``signature_expired``,
``bad_signature``.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from benchwright.board.errors import Rejected

KEY_HEADER = "X-Benchwright-Key"
TIME_HEADER = "X-Benchwright-Time"
NONCE_HEADER = "X-Benchwright-Nonce"
SIGNATURE_HEADER = "X-Benchwright-Signature"
WINDOW = timedelta(minutes=5)
"""How far the signing time may be from the board's clock, either way."""
_DOMAIN = "benchwright-board-post/1"
_SHAPES = {
    KEY_HEADER: (re.compile(r"[0-9a-f]{64}"), "64 lowercase hex digits"),
    TIME_HEADER: (re.compile(r"[0-9]{1,12}"), "Unix seconds"),
    NONCE_HEADER: (re.compile(r"[0-9A-Za-z_-]{16,64}"), "16 to 64 characters [0-9A-Za-z_-]"),
    SIGNATURE_HEADER: (re.compile(r"[0-9a-f]{128}"), "128 lowercase hex digits"),
}


@dataclass(frozen=True, slots=True)
class Proof:
    """What a valid signature proves: ``public_key`` signed this body at ``signed_at``."""

    public_key: str
    nonce: str
    signed_at: datetime


def new_private_key() -> bytes:
    """A fresh Ed25519 private key, its 32 raw bytes."""
    return Ed25519PrivateKey.generate().private_bytes_raw()


def public_key_of(private_key: bytes) -> str:
    """The public key (64 hex) of a raw private key."""
    public = Ed25519PrivateKey.from_private_bytes(private_key).public_key()
    return public.public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def sign(body: bytes, private_key: bytes, now: datetime) -> dict[str, str]:
    """The four headers that prove ``body`` comes from ``private_key``'s install."""
    at, nonce = str(int(now.timestamp())), secrets.token_hex(16)
    signature = Ed25519PrivateKey.from_private_bytes(private_key).sign(_message(at, nonce, body))
    return {
        KEY_HEADER: public_key_of(private_key),
        TIME_HEADER: at,
        NONCE_HEADER: nonce,
        SIGNATURE_HEADER: signature.hex(),
    }


def verify(headers: Mapping[str, str], body: bytes, now: datetime) -> Proof:
    """The `Proof` the headers give for ``body`` at ``now``, or `Rejected` (403) naming why."""
    missing = [name for name in _SHAPES if name not in headers]
    if missing:
        raise Rejected(
            403,
            "unsigned",
            f"the post is not signed: {', '.join(missing)} missing (posts are signed by "
            "`benchwright publish` with the key of the install that owns the handle)",
        )
    for name, (shape, wanted) in _SHAPES.items():
        if not shape.fullmatch(headers[name]):
            raise Rejected(403, "bad_signature_header", f"{name}: expected {wanted}")
    at, nonce = headers[TIME_HEADER], headers[NONCE_HEADER]
    skew = abs(int(at) - now.timestamp())
    if skew > WINDOW.total_seconds():
        raise Rejected(
            403,
            "signature_expired",
            f"{TIME_HEADER} is {skew:.0f} s from the board's clock; at most "
            f"{WINDOW.total_seconds():.0f} s either way (check this machine's clock)",
        )
    try:
        public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(headers[KEY_HEADER]))
        public.verify(bytes.fromhex(headers[SIGNATURE_HEADER]), _message(at, nonce, body))
    except (InvalidSignature, ValueError):
        raise Rejected(
            403,
            "bad_signature",
            f"{SIGNATURE_HEADER} does not verify with {KEY_HEADER} over this body, time and nonce",
        ) from None
    signed_at = datetime.fromtimestamp(int(at), UTC)
    return Proof(public_key=headers[KEY_HEADER], nonce=nonce, signed_at=signed_at)


def _message(at: str, nonce: str, body: bytes) -> bytes:
    return f"{_DOMAIN}\n{at}\n{nonce}\n{hashlib.sha256(body).hexdigest()}".encode()
