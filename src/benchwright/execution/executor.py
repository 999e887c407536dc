"""The one executor interface every caller (run, gate, audit, grade --many, calibrate,
ace selftest) hands its independent jobs to.

A job is a picklable payload and a top-level function to apply to it; an executor
yields each job's outcome *as it finishes*, in completion order, so the caller can
write it to disk at once (``--resume`` works with any executor) and show progress.
Order-sensitive output is the caller's business: it sorts by ``Done.key``, which is
how one worker and N workers give identical files.

Implementations: `SerialExecutor` (in this process, one at a time: the reference
behaviour, and what ``--workers 1`` means), `LocalPool` (a process pool on this
machine) and, in ``execution/ray_executor.py``, a Ray cluster. Each job must be
hermetic - its own workspace, ports from the port leases, its own vendor mock,
database and browser - because jobs of one run share nothing but the machine.

Cancellation: closing the iterator (``with`` / ``close()``, or a KeyboardInterrupt
raised while the caller iterates) cancels every job not yet started and stops the
running ones; outcomes already yielded stay the caller's.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Generic, Protocol, TypeVar

from benchwright.errors import SpecError

P = TypeVar("P")
R = TypeVar("R")

MAX_DEFAULT_WORKERS = 4
"""The default never exceeds this: most of a grading waits on its app, so more
workers than cores pays, but each holds an app, a vendor mock and a browser."""


@dataclass(frozen=True, slots=True)
class Resources:
    """What one job needs of a node, for schedulers that place work (Ray); the local
    pool treats every job as one slot (and may cap its browser jobs: ``browser_slots``)."""

    cpus: float = 1.0
    memory_mb: int = 0
    browser: bool = False
    """Drives a headless Chromium: Ray schedules it on a custom ``browser`` resource so
    browser-heavy gradings do not oversubscribe a node."""


@dataclass(frozen=True, slots=True)
class Job(Generic[P]):
    key: str
    """Unique within one submission: results are matched and sorted by it."""
    payload: P
    resources: Resources = Resources()


@dataclass(frozen=True, slots=True)
class Done(Generic[R]):
    """One job's outcome: its result, or the harness failure that prevented one."""

    key: str
    result: R | None
    error: str | None = None
    """``Type: message`` when the job raised: a harness fault, never a verdict."""
    node: str = ""
    """Where it ran (host name and process id, or the Ray node id)."""

    @property
    def ok(self) -> bool:
        return self.error is None


class Executor(Protocol):
    """Runs independent jobs; yields each outcome as it finishes."""

    name: str
    workers: int

    def run(self, fn: Callable[[P], R], jobs: Iterable[Job[P]]) -> Iterator[Done[R]]: ...


def default_workers() -> int:
    """min(cores, `MAX_DEFAULT_WORKERS`): documented in docs/scale.md."""
    return max(1, min(os.cpu_count() or 1, MAX_DEFAULT_WORKERS))


def here() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


_job_running = False
"""In a pool worker: a job is running, so an interrupt must unwind it (its cleanup ends
the agent and app it started) rather than end the process."""
_interrupted = False


def _apply(fn: Callable[[P], R], key: str, payload: P) -> Done[R]:
    """Run one job and turn an exception into a `Done` with the error, so one broken
    job never takes its siblings' results down with it."""
    global _job_running
    _job_running = True
    try:
        if _interrupted:  # stopped before it began (it was queued here already): do not start
            raise KeyboardInterrupt
        return Done(key, fn(payload), node=here())
    except Exception as exc:
        last = traceback.extract_tb(exc.__traceback__)[-1:] or None
        where = f" ({last[0].filename}:{last[0].lineno})" if last else ""
        return Done(key, None, f"{type(exc).__name__}: {exc}{where}", node=here())
    finally:
        _job_running = False


class SerialExecutor:
    """One job at a time in this process: ``--workers 1``."""

    name = "serial"
    workers = 1

    def run(self, fn: Callable[[P], R], jobs: Iterable[Job[P]]) -> Iterator[Done[R]]:
        for job in jobs:
            yield _apply(fn, job.key, job.payload)


BROWSER_READ_AHEAD = 256
"""Browser jobs a capped pool holds back while its slots are taken, reading on for a job
that needs none. It bounds what a stream of browser jobs puts in memory, not the workers:
when it was the worker count, a run of more browser jobs than workers (an audit's
browser controls listed together) held every other worker idle until the run was
nearly through. Only held browser jobs count; jobs that need no browser are never read
ahead."""


class LocalPool:
    """A process pool on this machine (``--workers N``).

    Processes start with ``spawn``: a forked child would inherit the parent's threads
    (uvicorn servers, Playwright) in whatever state they were, and the pool must not
    depend on what the caller happened to have running. At most ``workers`` jobs are
    submitted at a time, so a stream of jobs (``gate`` over thousands of task files)
    is never materialized in memory.
    """

    name = "local"

    def __init__(self, workers: int, browser_slots: int | None = None) -> None:
        """``browser_slots``: at most that many browser jobs at once (None: no cap). A suite
        whose browser grading keeps the CPU busy (sb-7's field renders in SwiftShader)
        asks for 1: two side by side would contend, every timed row of both would come
        back UNAVAILABLE and each would retake its scenarios alone; the other workers
        take the jobs that need no browser meanwhile."""
        if workers < 1:
            raise SpecError.single("--workers", f"must be >= 1, got {workers}")
        if browser_slots is not None and browser_slots < 1:  # no slot: held back for ever
            raise ValueError(f"browser_slots must be >= 1, got {browser_slots}")
        self.workers = workers
        self.browser_slots = browser_slots

    def run(self, fn: Callable[[P], R], jobs: Iterable[Job[P]]) -> Iterator[Done[R]]:
        pending: dict[Future[Done[R]], Job[P]] = {}
        queue = _BrowserQueue(iter(jobs), BROWSER_READ_AHEAD)
        pool = ProcessPoolExecutor(
            self.workers,
            mp_context=get_context("spawn"),
            initializer=_exit_with_driver,
            initargs=(os.getpid(),),
        )
        try:
            while True:
                while len(pending) < self.workers:
                    browsers = sum(j.resources.browser for j in pending.values())
                    cap = self.browser_slots
                    job = queue.next(browser_free=cap is None or browsers < cap)
                    if job is None:
                        break
                    pending[pool.submit(_apply, fn, job.key, job.payload)] = job
                if not pending:
                    return
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    key = pending.pop(future).key
                    yield _outcome(future, key)
        finally:
            for future in pending:
                future.cancel()
            if pending:  # left early: an interrupt, or the caller closed the stream
                _interrupt_workers(pool)
            pool.shutdown(wait=True, cancel_futures=True)


class _BrowserQueue(Generic[P]):
    """The jobs in their order, except that a browser job waits (held back, at most
    ``hold`` of them, so a stream is never read far ahead) while the browser slots are
    taken, and the jobs behind it that need no browser go first."""

    def __init__(self, source: Iterator[Job[P]], hold: int) -> None:
        self.source, self.hold = source, hold
        self.held: deque[Job[P]] = deque()

    def next(self, browser_free: bool) -> Job[P] | None:
        """The next job to start now; None when none may (or none is left)."""
        if browser_free and self.held:
            return self.held.popleft()
        while len(self.held) < self.hold:
            job = next(self.source, None)
            if job is None or not job.resources.browser or browser_free:
                return job
            self.held.append(job)
        return None


def _interrupt_workers(pool: ProcessPoolExecutor) -> None:
    """SIGINT to every worker, so running jobs unwind now (a trial's cleanup ends its
    agent's processes) instead of running to their budget while the driver waits.

    A terminal's Ctrl-C reaches the workers by itself (one process group); a signal
    sent to the driver alone (``kill``, a CI runner cancelling) does not. The pool has
    no public list of its processes; ``_processes`` is where CPython keeps them.
    """
    for process in list(getattr(pool, "_processes", {}).values()):
        with contextlib.suppress(ProcessLookupError, TypeError):
            os.kill(process.pid, signal.SIGINT)


DRIVER_POLL_S = 1.0
"""How often a pool worker checks its driver is alive."""


def _exit_with_driver(driver: int) -> None:
    """In each pool worker: exit when the driver is gone (killed with SIGKILL, so its
    ``finally`` never ran). An orphaned worker would otherwise wait on its job queue
    forever, since every worker holds that queue's write end too. Also installs the
    worker's interrupt handling (`_on_interrupt`) for SIGINT, and for SIGTERM and SIGHUP
    too: a stop sent to the whole process group (``timeout``, a CI runner) reaches the
    workers as well, and must unwind their jobs rather than end them where they stand."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _on_interrupt)

    def watch() -> None:
        while os.getppid() == driver:
            time.sleep(DRIVER_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="driver-watch", daemon=True).start()


def _on_interrupt(signum: int, frame: object) -> None:
    """A pool worker's SIGINT: unwind the running job once (a second signal - Ctrl-C
    reaches the worker and the driver forwards one - must not cut the first one's
    cleanup short). An idle worker only remembers it: it may hold the job queue's lock,
    and ending there would leave its siblings waiting on that lock forever (the pool's
    shutdown ends it), but a job already queued to it must then not start (`_apply`),
    or the driver would wait for that whole job."""
    global _interrupted
    if _interrupted:
        return
    _interrupted = True
    if _job_running:
        raise KeyboardInterrupt


def _outcome(future: Future[Done[R]], key: str) -> Done[R]:
    """The job's own `Done`, or the pool's failure (a worker killed by a signal or OOM)."""
    try:
        return future.result()
    except Exception as exc:
        return Done(key, None, f"worker lost: {type(exc).__name__}: {exc}")


def fitted(executor: Executor, jobs: int) -> Executor:
    """``executor``, or the serial one when it is a local pool with at most one job to run:
    a pool would start a process that imports everything again for that one job."""
    return SerialExecutor() if isinstance(executor, LocalPool) and jobs <= 1 else executor


def make_executor(
    name: str = "local",
    workers: int | None = None,
    ray_address: str | None = None,
    browser_slots: int | None = None,
) -> Executor:
    """The executor a command's ``--executor``/``--workers``/``--ray-address`` ask for.

    ``local`` with one worker is the serial executor (no pool, no pickling), so a
    single-worker run behaves exactly as before executors existed. ``browser_slots``:
    the local pool's cap on browser jobs (a suite's ``BROWSER_SLOTS``; Ray places them
    by its ``browser`` resource instead).
    """
    count = default_workers() if workers is None else workers
    if count < 1:
        raise SpecError.single("--workers", f"must be >= 1, got {count}")
    if name == "local":
        return SerialExecutor() if count == 1 else LocalPool(count, browser_slots)
    if name == "ray":
        from benchwright.execution.ray_executor import RayExecutor

        # Unset, Ray's cap is the cluster's CPU count, known only once connected.
        return RayExecutor(address=ray_address or "auto", workers=workers)
    raise SpecError.single("--executor", f"unknown executor {name!r}; known: local, ray")
