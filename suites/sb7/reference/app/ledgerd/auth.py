"""Bearer tokens for the approval workflow: maker, checker, admin (``--tokens-file``).

A missing or unknown token is 401 ``unauthorized``; a known token whose role may not do
the thing is 403 ``forbidden``. Tokens are compared in constant time, and the workflow
remembers who submitted a draft by a digest of the token, never the token itself.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from pathlib import Path

from app.httpkit import ApiError, Request

ROLES = ("maker", "checker", "admin")


@dataclass(frozen=True)
class Caller:
    role: str
    fingerprint: str
    """SHA-256 of the bearer token: enough to tell "the same token" apart."""


class Tokens:
    """The three tokens the harness wrote before boot."""

    def __init__(self, path: Path) -> None:
        raw = json.loads(path.read_text())
        self._tokens = {role: str(raw[role]) for role in ROLES}

    def caller(self, request: Request, *allowed: str) -> Caller:
        """Who is calling, if one of ``allowed`` roles; 401/403 envelopes otherwise."""
        header = request.header("Authorization") or ""
        scheme, _, token = header.partition(" ")
        token = token.strip()
        role = None
        if scheme.lower() == "bearer" and token:
            for name, known in self._tokens.items():
                if hmac.compare_digest(known.encode(), token.encode()):
                    role = name
        if role is None:
            raise ApiError(401, "unauthorized", "A valid bearer token is required.")
        if role not in allowed:
            raise ApiError(403, "forbidden", f"The {role} role may not do this.")
        return Caller(role, hashlib.sha256(token.encode()).hexdigest())
