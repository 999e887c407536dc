"""One SQLite file per service: WAL, one serialized writer, a pool of readers.

WAL lets reads run while a write commits, so a browsing user never waits on a sync or
a webhook; writes are short transactions behind one lock (SQLite allows one writer at a
time anyway, and a Python lock queues them without busy-retries). Every write commits
with ``synchronous=FULL``: what a 200 acknowledged survives a SIGKILL and a power cut.
The schema is ``CREATE ... IF NOT EXISTS`` throughout, so a restart on an existing file
is a no-op migration.
"""

from __future__ import annotations

import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA busy_timeout=10000")
    return conn


class Database:
    """The file at ``path`` with ``schema`` applied (idempotently) on open."""

    def __init__(self, path: Path, schema: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._write_lock = threading.Lock()
        self._writer = _connect(path)
        with self._write_lock:
            self._writer.executescript(schema)
        self._readers: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """A connection holding one read snapshot for the block (consistent multi-query
        answers: a summary never mixes two states)."""
        try:
            conn = self._readers.get_nowait()
        except queue.Empty:
            conn = _connect(self.path)
        conn.execute("BEGIN")
        try:
            yield conn
        finally:
            conn.execute("COMMIT")
            self._readers.put(conn)

    @contextmanager
    def write(self, after_commit: Callable[[], None] | None = None) -> Iterator[sqlite3.Connection]:
        """The writer inside one ``BEGIN IMMEDIATE`` transaction: committed when the block
        ends, rolled back if it raises. ``after_commit`` runs once committed, still under
        the write lock, so what it announces is announced in commit order."""
        with self._write_lock:
            self._writer.execute("BEGIN IMMEDIATE")
            try:
                yield self._writer
            except BaseException:
                self._writer.execute("ROLLBACK")
                raise
            self._writer.execute("COMMIT")
            if after_commit is not None:
                after_commit()
