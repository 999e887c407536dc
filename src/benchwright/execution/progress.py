"""The one progress display of every command that hands jobs to an executor.

Jobs finish out of order and several run at once, so the display counts rather than
follows one job: done/total, how many run now, how many failed, and an ETA. On a
terminal it is a Rich live bar (transient: the final report replaces it); anywhere
else (CI logs, pipes) it prints one plain line per finished job, because a redrawn
bar in a log file is noise and a silent command looks hung.

Usage::

    with ProgressDisplay(len(jobs), "trials") as progress:
        for job in jobs:
            progress.started(job.key)
        for done in executor.run(fn, jobs):
            progress.finished(done.key, done.ok)
"""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

SHOWN_RUNNING = 3
"""How many running keys the live bar names; more are counted, not listed."""


class ProgressDisplay:
    """Counts jobs as they start and finish and shows it live or as plain lines.

    Args:
        total: jobs expected (the bar's 100 %); finished jobs beyond it still count.
        label: what a job is, for the bar ("trials", "tasks", "gradings").
        console: where the display goes; default stderr, so stdout keeps only results.
        out: where a finished job's own ``line`` goes (a run's verdict lines: stdout);
            default ``console``.
        live: force the live bar on or off; default: on when ``console`` is a terminal.
        plain: off a terminal, print a line per finished job (default); False keeps
            quiet there (a gate's report already lists every task).
    """

    def __init__(
        self,
        total: int,
        label: str = "jobs",
        console: Console | None = None,
        *,
        out: Console | None = None,
        live: bool | None = None,
        plain: bool = True,
    ) -> None:
        self.console = console or Console(stderr=True)
        self.out = out or self.console
        self.total = total
        self.label = label
        self.live = self.console.is_terminal if live is None else live
        self.plain = plain
        self.done = 0
        self.failed = 0
        self.running: dict[str, str] = {}
        """Running keys and what each is doing now (a phase name), for the live bar."""
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def __enter__(self) -> ProgressDisplay:
        if self.live:
            self._bar = Progress(
                TextColumn("{task.description}", markup=False),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[counts]}"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=self.console,
                transient=True,
            )
            self._task = self._bar.add_task(self.label, total=self.total, counts="")
            self._bar.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def started(self, key: str) -> None:
        """A job began running (on any worker)."""
        self.running[key] = ""
        self._refresh()

    def doing(self, key: str, what: str) -> None:
        """A running job reached a step worth naming (a trial's phase, when it is known)."""
        if key in self.running:
            self.running[key] = what
            self._refresh()

    def finished(self, key: str, ok: bool, line: str | None = None) -> None:
        """A job ended; ``line`` is what to print for it (default: its key and state).

        ``ok`` is False for a job that failed (a failed verdict or a harness error):
        the caller decides which, the display only counts it.
        """
        self.running.pop(key, None)
        self.done += 1
        self.failed += not ok
        if line is not None:
            self.out.print(line, highlight=False, markup=False, soft_wrap=True)
        elif self._bar is None and self.plain:
            self.console.print(self._default_line(key, ok), highlight=False, markup=False)
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=self.done)
        self._refresh()

    def note(self, text: str) -> None:
        """One line for the user (why a resume re-runs a trial), above the bar if live."""
        self.console.print(text, highlight=False, markup=False, soft_wrap=True)

    def _default_line(self, key: str, ok: bool) -> str:
        state = "done" if ok else "FAILED"
        return f"{state} {key} ({self.done}/{self.total} {self.label}, {self.failed} failed)"

    def _refresh(self) -> None:
        if self._bar is None or self._task is None:
            return
        shown = list(self.running.items())[:SHOWN_RUNNING]
        names = ", ".join(f"{key} [{what}]" if what else key for key, what in shown)
        more = len(self.running) - SHOWN_RUNNING
        if more > 0:
            names += f" +{more}"
        counts = f"running {len(self.running)}  failed {self.failed}"
        description = f"{self.label}: {names}" if names else self.label
        self._bar.update(self._task, description=description, counts=counts)
