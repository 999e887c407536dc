"""`tracked`: the progress display counts as running what the executor is running."""

from __future__ import annotations

import io

from rich.console import Console

from benchwright.execution.executor import Job, LocalPool, SerialExecutor
from benchwright.execution.progress import ProgressDisplay
from benchwright.execution.tracked import tracked


def double(n: int) -> int:
    return 2 * n


def _running_after_each(executor, jobs: int) -> tuple[list[int], dict[str, int], str]:
    out = io.StringIO()
    display = ProgressDisplay(jobs, "jobs", Console(file=out), live=False)
    running, results = [], {}
    with display:
        for done in tracked(executor, double, [Job(f"j{n}", n) for n in range(jobs)], display):
            display.finished(done.key, done.ok)
            running.append(len(display.running))
            results[done.key] = done.result
    return running, results, out.getvalue()


def test_one_worker_runs_one_job_at_a_time_and_every_job_is_counted():
    running, results, printed = _running_after_each(SerialExecutor(), 3)
    assert running == [1, 1, 0]
    assert results == {"j0": 0, "j1": 2, "j2": 4}
    assert printed.splitlines()[-1] == "done j2 (3/3 jobs, 0 failed)"


def test_a_pool_never_shows_more_running_than_its_workers():
    running, results, _ = _running_after_each(LocalPool(2), 5)
    assert running == [2, 2, 2, 1, 0]
    assert results == {f"j{n}": 2 * n for n in range(5)}
