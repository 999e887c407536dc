"""The executor interface: outcomes as they finish, errors kept per job, cancellation."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchwright.errors import SpecError
from benchwright.execution.executor import (
    Job,
    LocalPool,
    Resources,
    SerialExecutor,
    default_workers,
    fitted,
    make_executor,
)


def square(n: int) -> int:
    return n * n


def explode_on_three(n: int) -> int:
    if n == 3:
        raise ValueError("three is broken")
    return n


def sleep_then_pid(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def timed(seconds: float) -> tuple[float, float]:
    """(start, end) of a job that sleeps ``seconds``, on the wall clock all processes share."""
    started = time.time()
    time.sleep(seconds)
    return started, time.time()


def test_browser_jobs_never_overlap_and_the_others_fill_the_workers() -> None:
    """Three workers, one browser slot: the two browser jobs run one after the other (two
    Chromiums rendering on the CPU would contend), and the jobs behind them that need no
    browser start meanwhile instead of waiting their turn."""
    browser = Resources(browser=True)
    jobs = [Job("b1", 0.6, browser), Job("b2", 0.6, browser), Job("s1", 0.2), Job("s2", 0.2)]
    done = {d.key: d.result for d in LocalPool(3, browser_slots=1).run(timed, jobs)}
    b1, b2 = sorted((done["b1"], done["b2"]))
    assert b2[0] >= b1[1], "two browser jobs ran at once"
    assert max(done["s1"][0], done["s2"][0]) < b2[0], "a job without a browser waited for one"
    with pytest.raises(ValueError, match="browser_slots must be >= 1"):
        LocalPool(2, browser_slots=0)
    uncapped = {d.key: d.result for d in LocalPool(2).run(timed, jobs[:2])}  # no cap: at once
    assert max(s for s, _ in uncapped.values()) < min(e for _, e in uncapped.values())


def test_a_run_of_browser_jobs_longer_than_the_workers_holds_no_worker_idle() -> None:
    """Four browser jobs listed before the others, two workers, one slot (an audit's
    browser controls sorted first): the second worker takes the jobs behind the run at
    once, not after the browser jobs have drained down to the worker count."""
    browser = Resources(browser=True)
    jobs = [Job(f"b{n}", 1.0, browser) for n in range(4)] + [Job("s1", 0.1), Job("s2", 0.1)]
    done = {d.key: d.result for d in LocalPool(2, browser_slots=1).run(timed, jobs)}
    first_browser_end = min(done[f"b{n}"][1] for n in range(4))
    assert max(done["s1"][0], done["s2"][0]) < first_browser_end, done


def test_serial_runs_in_order_in_this_process() -> None:
    done = list(SerialExecutor().run(square, [Job(str(n), n) for n in range(4)]))
    assert [(d.key, d.result) for d in done] == [("0", 0), ("1", 1), ("2", 4), ("3", 9)]
    assert all(d.node.endswith(f":{os.getpid()}") for d in done)


def test_a_failing_job_is_an_error_outcome_and_its_siblings_still_finish() -> None:
    for executor in (SerialExecutor(), LocalPool(2)):
        done = {
            d.key: d for d in executor.run(explode_on_three, [Job(str(n), n) for n in (1, 3, 5)])
        }
        assert done["1"].result == 1 and done["5"].result == 5
        assert not done["3"].ok and done["3"].result is None
        assert done["3"].error is not None and done["3"].error.startswith(
            "ValueError: three is broken"
        )


def test_the_pool_yields_in_completion_order_from_other_processes() -> None:
    jobs = [Job("slow", 1.0), Job("fast", 0.05)]
    done = list(LocalPool(2).run(sleep_then_pid, jobs))
    assert [d.key for d in done] == ["fast", "slow"]
    assert {d.result for d in done}.isdisjoint({os.getpid()})


def test_closing_the_stream_cancels_jobs_not_yet_started() -> None:
    started: list[str] = []

    def jobs():
        for n in range(50):
            started.append(str(n))
            yield Job(str(n), 0.01)

    stream = LocalPool(2).run(sleep_then_pid, jobs())
    first = next(stream)
    stream.close()
    assert first.ok
    assert len(started) <= 4  # a stream of jobs is pulled as workers free up, never all at once


def test_a_local_pool_with_at_most_one_job_to_run_is_the_serial_executor() -> None:
    pool, serial = LocalPool(2), SerialExecutor()
    assert isinstance(fitted(pool, 1), SerialExecutor)
    assert isinstance(fitted(pool, 0), SerialExecutor)
    assert fitted(pool, 2) is pool and fitted(serial, 5) is serial


def test_make_executor_choices_and_bad_input() -> None:
    assert isinstance(make_executor("local", 1), SerialExecutor)
    assert isinstance(make_executor("local", 3), LocalPool)
    assert make_executor("local").workers == default_workers() <= 4
    with pytest.raises(SpecError, match="must be >= 1, got 0"):
        make_executor("local", 0)
    with pytest.raises(SpecError, match="unknown executor 'k8s'; known: local, ray"):
        make_executor("k8s", 2)


ROOT = Path(__file__).resolve().parents[2]
DRIVER = """
from benchwright.execution.executor import Job, LocalPool
from tests.execution.test_executor import sleep_then_pid

for done in LocalPool(2).run(sleep_then_pid, [Job(str(n), 0.3) for n in range(1000)]):
    print(done.result, flush=True)
"""


@pytest.mark.slow
def test_workers_exit_when_their_driver_is_killed() -> None:
    driver = subprocess.Popen(
        [sys.executable, "-c", DRIVER], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    assert driver.stdout is not None
    driver.stdout.readline()  # the pool is up and working
    ps = ["ps", "-o", "pid=", "--ppid", str(driver.pid)]
    workers = {int(p) for p in subprocess.run(ps, capture_output=True, text=True).stdout.split()}
    driver.send_signal(signal.SIGKILL)
    driver.wait()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.1)
    orphans = [pid for pid in workers if _alive(pid)]
    for pid in orphans:  # do not leave them behind when this fails
        os.kill(pid, signal.SIGKILL)
    assert workers and not orphans, "orphaned pool workers"


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def quick_or_linger(marker: str) -> str:
    """``quick`` returns at once; anything else sleeps far longer than any test waits
    unless interrupted, and writes to the file it names which happened."""
    from pathlib import Path

    if marker == "quick":
        return "quick"
    try:  # the marker appears (atomically) only once an interrupt would land in here
        staged = Path(marker + ".staged")
        staged.write_text("sleeping")
        staged.replace(marker)
        time.sleep(120)
    except KeyboardInterrupt:
        Path(marker).write_text("interrupted")
        raise
    return "slept"


def test_leaving_the_stream_early_interrupts_running_jobs(tmp_path) -> None:
    """A driver that stops (Ctrl-C, a kill, a closed stream) interrupts the jobs still
    running, so their cleanup runs now; it does not wait for them to finish."""
    marker = tmp_path / "lingerer"
    stream = LocalPool(2).run(quick_or_linger, [Job("slow", str(marker)), Job("q", "quick")])
    first = next(stream)
    assert first.key == "q" and first.result == "quick"
    deadline = time.monotonic() + 60  # a job never started is cancelled, not interrupted
    # (the marker's rename is inside the job's ``try``: a SIGINT sent once it exists
    # always unwinds through the handler, however late the worker is scheduled)
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    stream.close()  # returns once the slow job has unwound (not after its 120 s)
    assert marker.read_text() == "interrupted"


def test_a_worker_stopped_while_idle_starts_no_job_queued_to_it(monkeypatch) -> None:
    # The pool queues a job to a worker before it starts; a stop that reached the worker
    # between jobs must keep it from starting, or the driver waits for the whole job.
    from benchwright.execution import executor

    monkeypatch.setattr(executor, "_interrupted", False)
    monkeypatch.setattr(executor, "_job_running", False)
    executor._on_interrupt(signal.SIGTERM, None)  # idle: remembered, nothing raised
    started: list[int] = []
    with pytest.raises(KeyboardInterrupt):
        executor._apply(started.append, "queued", 1)
    assert started == []
