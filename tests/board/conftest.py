"""The board database for a test: a fresh migrated SQLite file always, and a fresh
PostgreSQL schema too when ``BENCHWRIGHT_TEST_PG`` holds a URL
(``postgresql+psycopg://user:pw@127.0.0.1/db``); the schema is dropped afterwards. A
served board on it, posted to with signed requests (``client``), and a served SQLite
board for ``publish`` (``board``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from benchwright.board.app import create_app
from benchwright.board.migrate import upgrade
from benchwright.board.store import BoardStore
from benchwright.services._server import BackgroundServer
from board._pg import PG_URL, pg_schema
from board._posts import Clock, Signer, serve_board


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


@pytest.fixture
def client(store: BoardStore) -> Iterator[httpx.Client]:
    clock = Clock()
    with (
        serve_board(store, clock) as url,
        httpx.Client(base_url=url, timeout=30, auth=Signer(clock)) as http,
    ):
        yield http


@pytest.fixture
def board(tmp_path: Path) -> Iterator[tuple[str, BoardStore]]:
    store = BoardStore(f"sqlite:///{tmp_path / 'board.sqlite'}")
    upgrade(store.engine)
    with BackgroundServer(create_app(store)) as server:
        yield server.base_url, store
    store.engine.dispose()
