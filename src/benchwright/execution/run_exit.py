"""Why a suite run ended as it did, in the one line its exit code is printed with.

Two endings needed more than a code (issue #26): an interrupt, which must say what was
running (a Ctrl-C after 9 s with two workers had finished nothing, and said only that)
and how to go on (the real run directory, ready to paste); and trials that all ran out
of their budget, which is the agent's failure (exit 1), not the harness's (exit 3).
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchwright.execution.records import TrialResult

SHOWN_STOPPED = 4
"""How many stopped trials the interrupt line names; more are counted."""


@dataclass(frozen=True, slots=True)
class Stopped:
    """A trial that was running when the run was interrupted (it runs again on resume)."""

    task_id: str
    iteration: int
    elapsed_s: float
    phase: str = ""
    """The agent phase it was in, when known (trials run in this process)."""

    def text(self) -> str:
        phase = f", phase {self.phase}" if self.phase else ""
        return f"{self.task_id} #{self.iteration} ({self.elapsed_s:.1f}s{phase})"


class RunningTrials:
    """A run's listener in front of the caller's: remembers which trials are running,
    since when, and the phase of the latest (phases are heard only from trials running
    in this process, one at a time), so an interrupt can name them."""

    def __init__(self, forward: Callable[[str, Any], None]) -> None:
        self.forward = forward
        self.started = time.monotonic()
        self._running: dict[tuple[str, int], tuple[float, str]] = {}
        self._latest: tuple[str, int] | None = None

    def __call__(self, event: str, payload: Any) -> None:
        if event == "start":
            self._latest = tuple(payload)  # type: ignore[assignment]
            self._running[self._latest] = (time.monotonic(), "")  # type: ignore[index]
        elif event == "phase" and self._latest in self._running:
            self._running[self._latest] = (self._running[self._latest][0], str(payload))  # type: ignore[index]
        elif event == "result":
            self._running.pop((payload.task_id, payload.iteration), None)
        self.forward(event, payload)

    def stopped(self) -> tuple[Stopped, ...]:
        """The trials running now, oldest first."""
        now = time.monotonic()
        return tuple(Stopped(task, n, now - since, phase)
                     for (task, n), (since, phase) in self._running.items())  # fmt: skip

    def elapsed_s(self) -> float:
        return time.monotonic() - self.started


def interrupt_message(
    run_dir: Path, finished: int, total: int, stopped: Sequence[Stopped], elapsed_s: float
) -> str:
    """``interrupted after 9.2s: 0 of 34 trials finished (kept on disk); stopped while
    running (they run again on resume): a #1 (9.1s), b #1 (9.1s); continue with: benchwright
    run --resume runs/X``."""
    line = f"interrupted after {elapsed_s:.1f}s: {finished} of {total} trials finished"
    line += " (kept on disk)"
    if stopped:
        names = ", ".join(s.text() for s in stopped[:SHOWN_STOPPED])
        more = len(stopped) - SHOWN_STOPPED
        names += f" and {more} more" if more > 0 else ""
        line += f"; stopped while running (they run again on resume): {names}"
    return f"{line}; continue with: benchwright run --resume {shlex.quote(str(run_dir))}"


def over_budget(result: TrialResult) -> bool:
    """The agent ran out of a phase's budget (its trial errored for that, and only that)."""
    return any(phase.timed_out for phase in result.phases)


def budget_message(results: Iterable[TrialResult]) -> str | None:
    """The line for a run in which every trial errored and some ran out of budget: the
    agent's failure (exit 1), named with the budget; None when none did."""
    results = list(results)
    over = [r for r in results if over_budget(r)]
    if not over:
        return None
    every = len(over) == len(results)
    share = (
        "every trial ran out of its"
        if every
        else f"{len(over)} of {len(results)} trials ran out of their"
    )
    return (
        f"{share} budget, the agent's failure ({over[0].error}); give it more with --budget SECONDS"
    )
