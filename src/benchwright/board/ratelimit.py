"""Five accepted posts per rolling 24 hours per client address AND per install id.

The window is kept in the database (``posts``), not in a process, so it survives a
restart and holds across several workers. `admit` runs inside the transaction that
stores the post: it first serializes concurrent posts of the same keys (PostgreSQL:
transaction-scoped advisory locks; SQLite: the insert below takes the single write
lock, and the count that follows sees every committed post), records this post,
then counts; a count over the limit raises and the whole transaction rolls back.
Only accepted posts count: a rejected payload never uses up the poster's day.

The client address is the socket peer, unless that peer is a configured trusted proxy:
then it is the right-most ``X-Forwarded-For`` entry that is not itself a trusted proxy
(entries left of it were written by the client and prove nothing).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from ipaddress import ip_address, ip_network
from math import ceil

from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from benchwright.board.db import PostRow

LIMIT = 5
WINDOW = timedelta(hours=24)


@dataclass
class RateLimited(Exception):
    """Over the limit; ``retry_after`` seconds until the oldest post leaves the window."""

    key: str
    """``client address`` or ``install id``: which limit was hit."""
    retry_after: int

    def __str__(self) -> str:
        return (
            f"rate limit: {LIMIT} posts per rolling 24 h per {self.key}; "
            f"retry after {self.retry_after} s"
        )


def admit(session: Session, ip_digest: str, install_digest: str, now: datetime) -> None:
    """Record a post at ``now`` (naive UTC) or raise `RateLimited` (the caller rolls back)."""
    if session.get_bind().dialect.name == "postgresql":
        for key in sorted({ip_digest, install_digest}):
            session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": int(key[:15], 16)})
    session.add(PostRow(ip_digest=ip_digest, install_digest=install_digest, at=now))
    session.flush()
    since = now - WINDOW
    for key, column, value in (
        ("client address", PostRow.ip_digest, ip_digest),
        ("install id", PostRow.install_digest, install_digest),
    ):
        count, oldest = session.execute(
            select(func.count(), func.min(PostRow.at)).where(column == value, PostRow.at > since)
        ).one()
        if count > LIMIT:
            raise RateLimited(key, max(1, ceil((oldest + WINDOW - now).total_seconds())))


def client_address(peer: str | None, forwarded_for: str | None, trusted: Collection[str]) -> str:
    """The address a post is counted against.

    Args:
        peer: the socket peer's address.
        forwarded_for: the ``X-Forwarded-For`` header, if any.
        trusted: proxy addresses or networks (``10.0.0.0/8``) whose header is believed.
    """
    address = peer or "unknown"
    if not trusted or not _is_trusted(address, trusted) or not forwarded_for:
        return address
    hops = [h.strip() for h in forwarded_for.split(",") if h.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop, trusted):
            return hop
    return hops[0] if hops else address


def _is_trusted(address: str, trusted: Collection[str]) -> bool:
    try:
        ip = ip_address(address)
    except ValueError:
        return False
    return any(ip in ip_network(net, strict=False) for net in trusted)
