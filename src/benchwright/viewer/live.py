"""The viewer's listing, kept current: runs started, trials finished and scorecards
written after ``view`` started show up on the next page load, without a restart.

Listing again on every request would verify nothing more and cost a walk of every run;
instead each request takes a *fingerprint* of the given paths (the modification times of
the directories and files a listing depends on: a run directory, its ``run.json`` and
``summary.json``, ``trials/`` and every task and trial directory under it, each scorecard
file) and lists again only when it differs. A trial's ``result.json`` is renamed into
its directory last (`benchwright.execution.store`), so a finished trial changes its
directory's time; a new run changes its parent's.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

from benchwright.viewer.sources import Sources

Fingerprint = tuple[tuple[str, int], ...]


class LiveSources:
    """`Sources.scan` of ``paths``, listed again whenever their fingerprint changes."""

    def __init__(self, paths: Iterable[Path]) -> None:
        self.paths = tuple(paths)
        self._lock = threading.Lock()
        self._print = fingerprint(self.paths)
        self._sources = Sources.scan(self.paths)  # strict: a bad path is refused at start

    def current(self) -> Sources:
        """The listing as the paths are now: the last one when nothing changed."""
        now = fingerprint(self.paths)
        with self._lock:
            if now != self._print:
                # not strict: a directory emptied while serving lists nothing, it is no error
                self._sources, self._print = Sources.scan(self.paths, strict=False), now
            return self._sources


def fingerprint(paths: Iterable[Path]) -> Fingerprint:
    """Each directory and file a listing of ``paths`` depends on, with its time."""
    return tuple(_stamps(paths))


def _stamps(paths: Iterable[Path]) -> Iterator[tuple[str, int]]:
    for path in paths:
        yield from _stamp(path)
        if path.is_dir() and not (path / "run.json").is_file():
            for child in _children(path):
                if (child / "run.json").is_file():
                    yield from _run_stamps(child)
                elif child.suffix == ".json":
                    yield from _stamp(child)
        elif path.is_dir():
            yield from _run_stamps(path)


def _run_stamps(run: Path) -> Iterator[tuple[str, int]]:
    for name in ("", "run.json", "summary.json", "trials"):
        yield from _stamp(run / name)
    for task in _children(run / "trials"):
        yield from _stamp(task)
        for trial in _children(task):
            yield from _stamp(trial)


def _stamp(path: Path) -> Iterator[tuple[str, int]]:
    try:
        yield str(path), os.stat(path).st_mtime_ns
    except OSError:
        yield str(path), -1  # absent: its coming into being is a change


def _children(path: Path) -> list[Path]:
    try:
        return sorted(path.iterdir())
    except OSError:
        return []
