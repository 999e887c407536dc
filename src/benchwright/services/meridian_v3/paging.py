"""Opaque cursors and page validators of the v3 list.

A cursor carries the walk's bound (the collection size when the walk began), the
offset of the next page and the epoch it was issued in; a checksum makes a mangled one
a ``400 bad_cursor`` rather than a wrong page. A page's ETag hashes what the page holds
(ids and versions), whether it ends the walk and the cursor epoch, and nothing else: a
payment created since leaves the validators of the pages before it true (a resync
following its stored cursors stays cheap), and a rebuild (new epoch) invalidates them
all, so a client never 304s its way back onto an expired cursor.
"""

from __future__ import annotations

import base64
import hashlib
import json

from benchwright.services.meridian_v3.config import PAGE_SIZE


class BadCursor(ValueError):
    """Not a cursor this vendor issued, or one pointing outside the collection."""


class ExpiredCursor(ValueError):
    """A cursor issued before the collection was rebuilt (``410 cursor_expired``)."""


def _check(payload: str) -> str:
    return hashlib.sha256(f"meridian-v3-cursor-{payload}".encode()).hexdigest()[:8]


def encode_cursor(offset: int, bound: int, epoch: int) -> str:
    payload = json.dumps({"o": offset, "b": bound, "e": epoch}, separators=(",", ":"))
    token = base64.urlsafe_b64encode(payload.encode()).decode().rstrip("=")
    return f"{token}.{_check(payload)}"


def decode_cursor(cursor: str, size: int, epoch: int) -> tuple[int, int]:
    """``(offset, bound)`` of ``cursor``, against a collection of ``size`` payments now.

    Raises:
        BadCursor: malformed, tampered, or pointing outside the collection.
        ExpiredCursor: issued in an earlier epoch.
    """
    try:
        token, check = cursor.rsplit(".", 1)
        payload = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
        fields = json.loads(payload)
        offset, bound, issued = fields["o"], fields["b"], fields["e"]
    except (ValueError, KeyError, TypeError) as exc:
        raise BadCursor(cursor) from exc
    if check != _check(payload) or not all(type(v) is int for v in (offset, bound, issued)):
        raise BadCursor(cursor)
    if issued != epoch:
        raise ExpiredCursor(cursor)
    if not (0 < offset < bound <= size and offset % PAGE_SIZE == 0):
        raise BadCursor(cursor)
    return offset, bound


def page_etag(offset: int, last: bool, epoch: int, rows: list[dict]) -> str:
    """Quoted; the same for the same page, different once any of its rows changes."""
    content = ",".join(f"{row['id']}:{row['version']}" for row in rows)
    digest = hashlib.sha256(f"v3-{offset}-{last}-{epoch}-{content}".encode()).hexdigest()
    return f'"{digest[:20]}"'
