"""Jobs through an executor with the shared progress display kept up to date.

Executors say when a job *finishes*, not when it starts; but every executor runs at
most ``workers`` jobs at once and starts the next one as one finishes, so the display
marks the first ``workers`` keys running and one more per finished job. The caller
still calls `ProgressDisplay.finished`, since only it knows what a job's result means
(a failed verdict counts as failed as much as a harness error).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from typing import TypeVar

from benchwright.execution.executor import Done, Executor, Job
from benchwright.execution.progress import ProgressDisplay

P = TypeVar("P")
R = TypeVar("R")


def tracked(
    executor: Executor, fn: Callable[[P], R], jobs: Sequence[Job[P]], progress: ProgressDisplay
) -> Iterator[Done[R]]:
    """Yield ``executor.run(fn, jobs)``'s outcomes, marking jobs running as they start.

    Closing this iterator closes the executor's (cancelling what has not finished).
    """
    waiting = iter(jobs)
    for job in [job for _, job in zip(range(executor.workers), waiting, strict=False)]:
        progress.started(job.key)
    with closing(executor.run(fn, jobs)) as outcomes:
        for done in outcomes:
            following = next(waiting, None)
            if following is not None:
                progress.started(following.key)
            yield done
