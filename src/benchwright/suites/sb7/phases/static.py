"""Phase ``tree``: the submitted tree on disk, read without importing or running anything."""

from __future__ import annotations

from pathlib import Path

from benchwright.suites.kit.source import text
from benchwright.suites.sb7.context import GradeContext
from benchwright.suites.sb7.observations import Observations, TreeObs

WEB_FILES = ("index.html", "styles.css", "app.js", "viz.js")
WEB_DIRS = ("app/web", "web")
"""Where the four web files may sit: inside the package (the golden's choice) or beside
it; the first holding any of them is the frontend."""
TEXT_LIMIT = 2_000_000
"""Bytes of one file read as text: an entrant's file is evidence, never a memory hog."""


def tree(ctx: GradeContext, obs: Observations) -> TreeObs:
    """Every file's path, the web files' sizes and text, DECISIONS.md, the backend source."""
    return observe_tree(ctx.tree)


def observe_tree(root: Path) -> TreeObs:
    files = frozenset(
        path.relative_to(root).as_posix()
        for path in root.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    )
    web = next((root / d for d in WEB_DIRS if any((root / d / n).is_file() for n in WEB_FILES)),
               root / WEB_DIRS[0])  # fmt: skip
    present = [name for name in WEB_FILES if (web / name).is_file()]
    backend = sorted(f for f in files if f.startswith("app/") and f.endswith(".py"))
    return TreeObs(
        files=files,
        web_bytes={name: (web / name).stat().st_size for name in present},
        web_text={name: _read(web / name) or "" for name in present},
        decisions=_read(root / "DECISIONS.md"),
        backend={path: _read(root / path) or "" for path in backend},
    )


def _read(path: Path) -> str | None:
    """The file's text, at most `TEXT_LIMIT` bytes of it; None when it is no file."""
    if not path.is_file() or path.stat().st_size <= TEXT_LIMIT:
        return text(path)
    with path.open("rb") as handle:
        return handle.read(TEXT_LIMIT).decode("utf-8", errors="replace")
