"""The board database for a test: a fresh migrated SQLite file always, and a fresh
PostgreSQL schema too when ``BENCHWRIGHT_TEST_PG`` holds a URL
(``postgresql+psycopg://user:pw@127.0.0.1/db``); the schema is dropped afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from benchwright.board.migrate import upgrade
from benchwright.board.store import BoardStore
from board._pg import PG_URL, pg_schema


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty (unmigrated) board database URL of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'board.sqlite'}"
        return
    if not PG_URL:
        pytest.skip("BENCHWRIGHT_TEST_PG is not set (.ci/run sets it)")
    with pg_schema(PG_URL) as url:
        yield url


@pytest.fixture
def store(db_url: str) -> Iterator[BoardStore]:
    """A migrated board store (schema + the sb-5.2 baselines)."""
    board = BoardStore(db_url)
    upgrade(board.engine)
    yield board
    board.engine.dispose()
