"""The board database for a test: a fresh migrated SQLite file always, and a fresh
PostgreSQL schema too when ``BENCHWRIGHT_TEST_PG`` holds a URL
(``postgresql+psycopg://user:pw@127.0.0.1/db``); the schema is dropped afterwards."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from benchwright.board.migrate import upgrade
from benchwright.board.store import BoardStore

PG_URL = os.environ.get("BENCHWRIGHT_TEST_PG")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty (unmigrated) board database URL of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'board.sqlite'}"
        return
    if not PG_URL:
        pytest.skip("BENCHWRIGHT_TEST_PG is not set (.ci/run sets it)")
    schema = f"bw_test_{secrets.token_hex(6)}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in PG_URL else "?"
    try:
        yield f"{PG_URL}{sep}options=-csearch_path%3D{schema}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


@pytest.fixture
def store(db_url: str) -> Iterator[BoardStore]:
    """A migrated board store (schema + the sb-5.2 baselines)."""
    board = BoardStore(db_url)
    upgrade(board.engine)
    yield board
    board.engine.dispose()
