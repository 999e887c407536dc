"""Grading phases as they run, on stderr: a live line on a terminal, one line per phase else.

A grading runs for a minute with nothing to print until its scorecard; this says which
phase is running and how each ended, without touching stdout, which stays the
scorecard (a pipe or ``> card.txt`` gets exactly what it got before).
"""

from __future__ import annotations

import sys
from typing import Any, TextIO


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
        print(f"phase {name}: {record.outcome} in {record.seconds:.2f}s", file=self.stream,
              flush=True)  # fmt: skip

    def _stop(self) -> None:
        if self._status is not None:
            self._status.stop()
            self._status = None
