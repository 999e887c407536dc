"""List paging: opaque cursors, the limit rule, the short page, and ETags.

Pure functions, so the mock and the simulated perfect walk share one definition.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Protocol

DEFAULT_LIMIT = 25
MAX_LIMIT = 100


class ShortPage(Protocol):
    """Where a fixture serves its short (not final) page, and how many rows it holds."""

    @property
    def short_offset(self) -> int: ...

    @property
    def short_take(self) -> int: ...


class BadCursor(ValueError):
    """The cursor does not decode to an offset inside the visible rows."""


def encode_cursor(offset: int) -> str:
    """Hex of a tiny JSON document; clients must treat it as opaque."""
    return json.dumps({"o": offset}).encode().hex()


def decode_cursor(cursor: str, visible: int) -> int:
    """The offset a cursor points at, or `BadCursor`."""
    try:
        offset = json.loads(bytes.fromhex(cursor).decode())["o"]
    except (ValueError, KeyError, TypeError) as exc:
        raise BadCursor(cursor) from exc
    if not isinstance(offset, int) or isinstance(offset, bool) or not 0 <= offset < visible:
        raise BadCursor(cursor)
    return offset


def parse_limit(raw: str | None) -> int:
    """Default 25, clamped to 1..100; a non-integer means the default."""
    try:
        value = int(raw) if raw is not None else DEFAULT_LIMIT
    except ValueError:
        value = DEFAULT_LIMIT
    return max(1, min(MAX_LIMIT, value))


@dataclass(frozen=True)
class Page:
    """One slice of the visible rows."""

    offset: int
    take: int
    visible: int

    @property
    def last(self) -> bool:
        """This page reaches the end of the visible rows."""
        return self.offset + self.take >= self.visible

    @property
    def next_cursor(self) -> str | None:
        return None if self.last else encode_cursor(self.offset + self.take)


def page(offset: int, limit: int, visible: int, short_offset: int, short_take: int) -> Page:
    """The slice served; at ``short_offset`` a large limit gets a short (not final) page."""
    take = min(limit, visible - offset)
    if offset == short_offset and limit > short_take:
        take = min(take, short_take)
    return Page(offset, max(take, 0), visible)


def etag(generation: int, offset: int, take: int, salt: str = "meridian2") -> str:
    """Quoted, changes with the collection generation and the slice; ``salt`` names the
    API version (each publication hashed its own prefix)."""
    digest = hashlib.sha256(f"{salt}-{generation}-{offset}-{take}".encode()).hexdigest()
    return f'"{digest[:16]}"'
