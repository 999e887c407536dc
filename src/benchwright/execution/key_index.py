"""The runs this machine sealed: ``<state dir>/run-keys/index.sqlite``, outside every run.

Each run benchwright creates here gets one row: its run id, its key, the directory it
was created in (resolved) and the MAC of the ``run.json`` it was created with. A reader
finds a run's row by the directory it reads (`lookup`: the one thing a copy cannot take
along), else by the run id its ``run.json`` claims; a run id with no row was never
sealed here, so nothing of that run can verify, whatever its files say. An agent can
write anything in a run directory, but nothing it writes there is ever read as a key or
as a row: the index is only ever this file, in the state dir (0700), itself 0600.

SQLite rather than a JSON file: two ``benchwright run`` at once each add a row, and a
transaction keeps both (a rewritten JSON file would keep the last writer's). Keys from
before the index (``run-keys/<run id>.key``) are moved into it the first time it is
opened, with no directory and no ``run.json`` MAC recorded.
"""

from __future__ import annotations

import os
import re
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from benchwright.errors import HarnessError, SpecError
from benchwright.execution.integrity import state_dir

INDEX = "index.sqlite"
_RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")
_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    key TEXT NOT NULL,
    path TEXT,
    run_json_mac TEXT,
    sealed_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_by_path ON runs (path);
"""


@dataclass(frozen=True)
class Entry:
    """A run this machine sealed."""

    run_id: str
    key: bytes
    path: Path | None
    """The run directory it was created in, resolved; None for a key from before the index."""
    run_json_mac: str | None
    """The MAC of the ``run.json`` it was sealed with; None for a key from before the index
    (whose ``run.json`` may predate sealed ``run.json`` files)."""


def index_path() -> Path:
    return state_dir() / "run-keys" / INDEX


def record(run_id: object, run_dir: Path, key: bytes, run_json_mac: str) -> None:
    """Make ``run_id`` (created in ``run_dir``) a run sealed here, replacing any earlier row
    for that id or that directory (whose files then no longer verify)."""
    if not isinstance(run_id, str) or not _RUN_ID.fullmatch(run_id):
        raise SpecError.single(str(run_dir / "run.json"), f"{run_id!r} is not a run id", "run_id")
    when = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    where = str(run_dir.resolve())
    with _open() as db:
        db.execute("DELETE FROM runs WHERE run_id = ? OR path = ?", (run_id, where))
        db.execute("INSERT INTO runs VALUES (?, ?, ?, ?, ?)",
                   (run_id, key.hex(), where, run_json_mac, when))  # fmt: skip


def lookup(run_dir: Path, run_id: object) -> Entry | None:
    """The row of the run created in ``run_dir``, else of the run id ``run.json`` claims
    (a copy of a run sealed here), else None: never sealed here."""
    if not _present():
        return None
    with _open() as db:
        row = db.execute("SELECT * FROM runs WHERE path = ?", (str(run_dir.resolve()),)).fetchone()
        if row is None and isinstance(run_id, str):
            row = db.execute("SELECT * FROM runs WHERE run_id = ?", (run_id,)).fetchone()
    if row is None:
        return None
    try:
        key = bytes.fromhex(row[1])
    except ValueError:
        return None
    path = Path(row[2]) if row[2] else None
    return Entry(row[0], key, path, row[3]) if len(key) == 32 else None


def forget(run_dir: Path) -> bool:
    """Drop the row of the run created in ``run_dir`` (or, for a key from before the index,
    named after it): a copy elsewhere never takes the original's key with it."""
    if not _present():
        return False
    with _open() as db:
        gone = db.execute(
            "DELETE FROM runs WHERE path = ? OR (path IS NULL AND run_id = ?)",
            (str(run_dir.resolve()), run_dir.name),
        )
        return gone.rowcount > 0


def _present() -> bool:
    """Whether there is an index, or keys to move into one (else a reader creates none)."""
    path = index_path()
    return path.exists() or bool(_legacy_keys(path.parent))


@contextmanager
def _open() -> Iterator[sqlite3.Connection]:
    """The index (created if need be, legacy keys moved in) in one transaction."""
    path = index_path()
    legacy = _legacy_keys(path.parent)
    try:
        _private_file(path)
        with closing(sqlite3.connect(path, timeout=30)) as db, db:
            db.executescript(_SCHEMA)
            imported = _import(db, legacy)
            yield db
    except (OSError, sqlite3.Error) as exc:
        raise HarnessError(f"cannot use the run index {path}: {exc}") from exc
    for key_file in imported:  # committed: the index holds them now
        key_file.unlink(missing_ok=True)


def _private_file(path: Path) -> None:
    """Create the directories 0700 and the index 0600 before SQLite opens it."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    for directory in (path.parent.parent, path.parent):
        if stat.S_IMODE(directory.stat().st_mode) & 0o077:
            directory.chmod(0o700)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    os.close(fd)


def _legacy_keys(directory: Path) -> list[Path]:
    """``<run id>.key`` files written before the index."""
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.glob("*.key") if _RUN_ID.fullmatch(p.stem))


def _import(db: sqlite3.Connection, keys: list[Path]) -> list[Path]:
    """Add each legacy key as a row (an id already there keeps its row); returns the
    files read."""
    imported = []
    when = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    for key_file in keys:
        try:
            fd = os.open(key_file, os.O_RDONLY | os.O_NOFOLLOW)
            with os.fdopen(fd) as file:
                key = file.read().strip()
            bytes.fromhex(key)
        except (OSError, ValueError):
            continue
        db.execute("INSERT OR IGNORE INTO runs VALUES (?, ?, NULL, NULL, ?)",
                   (key_file.stem, key, when))  # fmt: skip
        imported.append(key_file)
    return imported
