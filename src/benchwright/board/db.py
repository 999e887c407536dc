"""The board's tables (SQLAlchemy 2 declarative) and the engine for a database URL.

SQLite is the default, a file under the user's data directory
(``$XDG_DATA_HOME/benchwright/board.sqlite``, else ``~/.local/share/benchwright/...``);
PostgreSQL by URL (``postgresql+psycopg://user:pw@host/db``). The schema itself is
created by the Alembic migrations in ``board/migrations`` (``benchwright board
migrate``), never by ``create_all``, so a deployed board and a test database are
built the same way.

Times are stored as naive UTC (SQLite keeps no zone); `utc` attaches the zone again.
Neither the poster's install id nor the client address is stored in clear: only
HMAC-SHA256 digests (`keyed_digest`) under the board's own secret (`DIGEST_KEY` in
``settings``, made by the migration that creates it), enough to group and rate-limit
posts. A constant salt would not do: an IPv4 address is one of 2^32, so its salted hash
is reversed by trying them all once the salt is known, and a salt in the source is known.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    create_engine,
    event,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

DIGEST_KEY = "digest_key"
"""The ``settings`` row holding the board's digest secret (64 hex, random per board)."""


class Base(DeclarativeBase):
    pass


class RunRow(Base):
    """One board entry: a posted run or a seeded baseline."""

    __tablename__ = "runs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    scorer_version: Mapped[str] = mapped_column(String(64))
    score: Mapped[float] = mapped_column(Float)
    excellent: Mapped[bool] = mapped_column(Boolean)
    baseline: Mapped[bool] = mapped_column(Boolean, default=False)
    handle: Mapped[str] = mapped_column(String(64))
    model: Mapped[str] = mapped_column(String(256))
    nodes: Mapped[int] = mapped_column(Integer)
    tiers: Mapped[dict[str, float]] = mapped_column(JSON)
    composition: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    wall_secs: Mapped[float | None] = mapped_column(Float, nullable=True)
    started_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    engine_events: Mapped[int | None] = mapped_column(Integer, nullable=True)
    repair_rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    input_tokens: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """None when the poster's run measured no tokens, and on runs posted before (0003)."""
    output_tokens: Mapped[int | None] = mapped_column(Integer, nullable=True)
    cost_usd: Mapped[float | None] = mapped_column(Float, nullable=True)
    """None when no price was known for the model (tokens only)."""
    agent: Mapped[str | None] = mapped_column(String(256), nullable=True)
    suite: Mapped[str | None] = mapped_column(String(128), nullable=True)
    tree_sha256: Mapped[str | None] = mapped_column(String(128), nullable=True)
    posted_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    """None for a baseline (§04 gives no date)."""
    install_digest: Mapped[str | None] = mapped_column(String(64), nullable=True)

    checks: Mapped[list[CheckRowRow]] = relationship(
        order_by="CheckRowRow.position", cascade="all, delete-orphan", passive_deletes=True
    )
    screenshots: Mapped[list[ScreenshotRow]] = relationship(
        order_by="ScreenshotRow.position", cascade="all, delete-orphan", passive_deletes=True
    )

    __table_args__ = (Index("ix_runs_version_score", "scorer_version", "score"),)


class CheckRowRow(Base):
    """One per-check row of a run, in posted order."""

    __tablename__ = "check_rows"

    run_id: Mapped[str] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    check_id: Mapped[str] = mapped_column(String(128))
    tier: Mapped[str | None] = mapped_column(String(32), nullable=True)
    status: Mapped[str] = mapped_column(String(16))
    score: Mapped[float] = mapped_column(Float)
    detail: Mapped[str] = mapped_column(Text)
    weight: Mapped[float] = mapped_column(Float)
    severity_leg: Mapped[float | None] = mapped_column(Float, nullable=True)
    """The posted leg of a critical row (`payload.CheckRow.severity_leg`); None: none."""


class ScreenshotRow(Base):
    """A PNG of a run, numbered from 0 in posted order."""

    __tablename__ = "screenshots"

    run_id: Mapped[str] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(128))
    png: Mapped[bytes] = mapped_column(LargeBinary)


class PostRow(Base):
    """One accepted post, kept for the rolling rate-limit window (outlives a removed run)."""

    __tablename__ = "posts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    ip_digest: Mapped[str] = mapped_column(String(64))
    install_digest: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (
        Index("ix_posts_ip_at", "ip_digest", "at"),
        Index("ix_posts_install_at", "install_digest", "at"),
    )


class HandleRow(Base):
    """A claimed handle: the first post under it binds it to its poster's public key."""

    __tablename__ = "handles"

    handle: Mapped[str] = mapped_column(String(64), primary_key=True)
    public_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """Ed25519, 64 hex; None = reserved (no post may use it: ``baseline``)."""
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class NonceRow(Base):
    """A nonce of an accepted signed post, kept while its signature time is in the window."""

    __tablename__ = "nonces"

    public_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    nonce: Mapped[str] = mapped_column(String(64), primary_key=True)
    signed_at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (Index("ix_nonces_signed_at", "signed_at"),)


class SettingRow(Base):
    """One value the deployment made for itself (the digest secret)."""

    __tablename__ = "settings"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


def default_url() -> str:
    """``sqlite:///`` of ``board.sqlite`` under ``$XDG_DATA_HOME/benchwright`` (created)."""
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    folder = Path(data) / "benchwright"
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'board.sqlite'}"


def make_engine(url: str | None = None) -> Engine:
    """An engine for ``url`` (default: `default_url`); SQLite enforces foreign keys and
    waits for a busy writer instead of failing, so several workers can share one file."""
    url = url or default_url()
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def keyed_digest(secret: bytes, value: str) -> str:
    """The HMAC-SHA256 hex stored instead of an install id or a client address."""
    return hmac.new(secret, value.encode(), hashlib.sha256).hexdigest()


def naive_utc(moment: datetime) -> datetime:
    """``moment`` in UTC without its zone, as stored."""
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment


def utc(stored: datetime | None) -> datetime | None:
    """A stored (naive UTC) time with its zone again."""
    return stored.replace(tzinfo=UTC) if stored is not None else None
