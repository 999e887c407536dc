"""Concurrent readers racing a background operation, with the overlap measured.

"Fast under load" means nothing unless the load was there: every read is
timestamped, the background operation (a sync, a stream burst) is timestamped,
and the fraction of reads whose interval intersects the operation's is
reported as a fact. A check can then refuse to grade unproven load.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from benchwright.errors import HarnessError
from benchwright.probes.http._latency import MIN_SUCCESSES, p95
from benchwright.probes.http._observe import DEFAULT_TIMEOUT_S, HttpObservation, client, fetch

_JOIN_SLACK_S = 5.0


@dataclass(frozen=True, slots=True)
class Interval:
    """Seconds since the probe started; ``end`` None means still running at the end."""

    start: float
    end: float | None

    def overlaps(self, other: Interval) -> bool:
        inf = float("inf")
        mine = inf if self.end is None else self.end
        theirs = inf if other.end is None else other.end
        return self.start < theirs and other.start < mine


@dataclass(frozen=True, slots=True)
class LoadSample:
    reader: int
    index: int
    when: Interval
    response: HttpObservation


@dataclass(frozen=True, slots=True)
class LoadObservation:
    """All reads, the background operation's window and outcome, and the overlap."""

    path: str
    samples: tuple[LoadSample, ...]
    background: Interval
    background_error: str | None
    """The operation's exception, or "still running" if it outlived the wait."""
    overlap_fraction: float
    """Reads whose interval intersects the operation's, over all reads (0 if none)."""
    p95_ms: float | None
    """Over the 2xx reads, as in ``sample_latency``."""


def concurrent_reads(
    base_url: str,
    path: str,
    background: Callable[[], object],
    *,
    readers: int = 8,
    per_reader: int = 6,
    start_after_s: float = 0.4,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    background_wait_s: float = 240.0,
) -> LoadObservation:
    """Start ``background`` in a thread, then after ``start_after_s`` let ``readers``
    threads each GET ``path`` ``per_reader`` times. Defaults are the seed's (8 x 6).

    ``background`` should bound itself (e.g. an HTTP call with a timeout): a thread
    cannot be killed, so after ``background_wait_s`` it is left running and reported.
    """
    if readers < 1 or per_reader < 1:
        raise HarnessError(f"need at least one reader and one read, got {readers} x {per_reader}")
    t0 = time.perf_counter()
    run = _Background(background, t0)
    results: list[LoadSample] = []
    lock = threading.Lock()
    gate = threading.Barrier(readers)

    def read(reader: int) -> None:
        with client(base_url, timeout_s) as http:
            with contextlib.suppress(threading.BrokenBarrierError):
                gate.wait(timeout=timeout_s)  # release the readers together
            for index in range(per_reader):
                obs = fetch(http, path)
                when = Interval(obs.started_at - t0, obs.ended_at - t0)
                with lock:
                    results.append(LoadSample(reader, index, when, obs))

    run.thread.start()
    time.sleep(start_after_s)  # the seed's head start for the operation, not a readiness wait
    threads = [threading.Thread(target=read, args=(r,), daemon=True) for r in range(readers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(per_reader * timeout_s + _JOIN_SLACK_S)
    run.thread.join(max(0.0, background_wait_s - (time.perf_counter() - t0)))
    with lock:
        samples = tuple(sorted(results, key=lambda s: s.when.start))
    span = Interval(run.start, run.end)
    overlapping = sum(1 for s in samples if s.when.overlaps(span))
    ok_ms = [s.response.elapsed_ms for s in samples if s.response.succeeded]
    return LoadObservation(
        path=path,
        samples=samples,
        background=span,
        background_error=run.error if run.end is not None else "still running",
        overlap_fraction=overlapping / len(samples) if samples else 0.0,
        p95_ms=p95(ok_ms, MIN_SUCCESSES),
    )


class _Background:
    """The operation under which the reads happen, timed from the probe's start."""

    def __init__(self, operation: Callable[[], object], t0: float) -> None:
        self._operation, self._t0 = operation, t0
        self.start = 0.0
        self.end: float | None = None
        self.error: str | None = None
        self.thread = threading.Thread(target=self._run, name="load-background", daemon=True)

    def _run(self) -> None:
        self.start = time.perf_counter() - self._t0
        try:
            self._operation()
        except Exception as exc:  # an instrument reports the failure, it does not raise it
            self.error = f"{type(exc).__name__}: {exc}"
        self.end = time.perf_counter() - self._t0
