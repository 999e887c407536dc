"""Grading phases as they run, on stderr: a live line on a terminal, one line per phase else.

A grading runs for a minute with nothing to print until its scorecard; this says which
phase is running and how each ended, without touching stdout, which stays the
scorecard (a pipe or ``> card.txt`` gets exactly what it got before).

``grade --many`` grades trees in pool workers, whose listeners cannot reach the
driver's terminal: each worker appends its phases to a file (`PhaseFeed`) that the
driver reads (`TreePhases`), showing each running tree's phase and how long it has run
on the shared progress bar, and each finished phase as the one-tree line, prefixed
with the tree (``reference: phase boot: ok in 3.21s``).
"""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path
from typing import Any, TextIO

from benchwright.execution.progress import ProgressDisplay

POLL_S = 0.5
"""How often the driver reads the workers' phase files (and refreshes the elapsed time)."""


def phase_line(name: str, record: Any) -> str:
    """A finished phase: ``phase boot: ok in 3.21s``."""
    return f"phase {name}: {record.outcome} in {record.seconds:.2f}s"


class PhaseProgress:
    """The grader's phase listener (``on_phase``), and a context manager that ends the
    live line however the grading ends.

    On a terminal a Rich status line shows the running phase while it runs; it is gone
    before anything else prints, so it never mixes with the scorecard on stdout. Each
    finished phase is one line (``phase boot: ok in 3.21s``) on a terminal and off it,
    so CI logs show progress too.
    """

    def __init__(self, stream: TextIO | None = None, live: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty() if live is None else live
        self._status: Any = None
        self._done = 0

    def __enter__(self) -> PhaseProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop()

    def __call__(self, name: str, record: Any) -> None:
        """``(name, None)``: the phase started; ``(name, record)``: it is over."""
        if record is None:
            if self.live:
                from rich.console import Console

                console = Console(file=self.stream)
                self._status = console.status(f"grading: phase {name} ({self._done} done)")
                self._status.start()
            return
        self._stop()
        self._done += 1
        print(phase_line(name, record), file=self.stream, flush=True)

    def _stop(self) -> None:
        if self._status is not None:
            self._status.stop()
            self._status = None


class PhaseFeed:
    """A grading's phase listener in a pool worker: each start and end, one JSON line
    appended to ``path`` for the driver. Picklable (a path); a feed that cannot be
    written (a Ray node without the driver's folder) is silent: progress never fails a
    grading."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __call__(self, name: str, record: Any) -> None:
        event: dict[str, Any] = {"phase": name, "at": time.time()}
        if record is not None:
            event |= {"outcome": record.outcome, "seconds": record.seconds}
        try:
            with self.path.open("a", encoding="utf-8") as feed:
                feed.write(json.dumps(event) + "\n")
        except OSError:
            pass


class _Ended:
    """A finished phase read back from a feed, shaped as `phase_line` reads a record."""

    def __init__(self, event: dict[str, Any]) -> None:
        self.outcome = event["outcome"]
        self.seconds = float(event["seconds"])


class TreePhases:
    """The driver's side of the feeds in ``folder`` (one ``<tree>.jsonl`` each): a thread
    reads them every `POLL_S`, shows each running tree's phase and elapsed seconds on
    ``display`` (``reference [phase browser 12s]``) and prints each finished phase as a
    line (on a terminal above the bar, else plain, so CI logs show progress too).

    The caller says `finished` before the display hears the tree end, so a tree's
    phase lines all come before its row, and a finished tree is never shown running.
    """

    def __init__(self, folder: Path, display: ProgressDisplay) -> None:
        self.folder = folder
        self.display = display
        self._read: dict[str, int] = {}
        self._running: dict[str, tuple[str, float]] = {}
        self._done: set[str] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="tree-phases", daemon=True)

    def __enter__(self) -> TreePhases:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def feed(self, tree: str) -> Path:
        """Where the worker grading ``tree`` writes its phases."""
        return self.folder / f"{tree}.jsonl"

    def finished(self, tree: str) -> None:
        """``tree`` is graded: print the phases it finished since the last read."""
        with self._lock:
            self._take(tree)
            self._done.add(tree)
            self._running.pop(tree, None)

    def poll(self) -> None:
        """Read every feed once and refresh each running tree's phase and elapsed time."""
        with self._lock:
            for path in sorted(self.folder.glob("*.jsonl")):
                if path.stem not in self._done:
                    self._take(path.stem)
            now = time.time()
            for tree, (phase, since) in self._running.items():
                self.display.doing(tree, f"phase {phase} {max(0.0, now - since):.0f}s")

    def _loop(self) -> None:
        while not self._stop.wait(POLL_S):
            self.poll()

    def _take(self, tree: str) -> None:
        """Handle the whole lines ``tree``'s feed gained since the last read."""
        try:
            with self.feed(tree).open("rb") as feed:
                feed.seek(self._read.get(tree, 0))
                chunk = feed.read()
        except OSError:
            return
        whole = chunk[: chunk.rfind(b"\n") + 1]
        self._read[tree] = self._read.get(tree, 0) + len(whole)
        for line in whole.decode("utf-8", "replace").splitlines():
            event = json.loads(line)
            if "outcome" in event:
                self._running.pop(tree, None)
                self.display.note(f"{tree}: {phase_line(event['phase'], _Ended(event))}")
            else:
                self._running[tree] = (event["phase"], float(event["at"]))
