"""The hermetic work directory of one grading: made fresh, deleted when the grading ends.

It holds the fresh copy of the tree the app runs from (``tree``) and the app's database
directory (``db``): sandboxed, the only two places the app may write. The app's log, the
vendor trace and the browser's screenshots sit beside them, invisible to the app, and
are copied out (`evidence`) before the directory goes.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from benchwright.suites.kit.tree import fresh_copy

DB_DIR = "db"
"""The app's database directory under the work directory: the only one it may write there."""
BROWSER = "browser"
"""The browser phase's name; the PNGs its observation lists (``screenshots``) are under
``<work>/browser``."""


@dataclass(frozen=True)
class Workspace:
    work: Path
    tree: Path
    """The fresh copy the app runs from."""

    @property
    def app_log(self) -> Path:
        return self.work / "app.log"

    @property
    def vendor_trace(self) -> Path:
        return self.work / "vendor-trace.jsonl"

    @property
    def shots(self) -> Path:
        return self.work / BROWSER

    def db(self, name: str) -> Path:
        """The app's database file ``name`` in its database directory."""
        return self.work / DB_DIR / name


@contextmanager
def workspace(suite: str, root: Path) -> Iterator[Workspace]:
    """A fresh work directory (``benchwright-<suite>-*`` under the temporary directory,
    which the CLI's signal handling cleans up) holding a fresh copy of ``root``."""
    with tempfile.TemporaryDirectory(prefix=f"benchwright-{suite}-") as tmp:
        work = Path(tmp)
        yield Workspace(work, fresh_copy(root, work))
