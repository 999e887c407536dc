"""The delivery worker: signed webhook POSTs in order, one at a time, and their ledger.

Deliveries go out from one thread in the order they were queued, so the schedule's
orderings (v+2 before v+1, a duplicate right after its original, a refund's parts in
the seeded order) are what the app receives. A genuine delivery the app does not
acknowledge is retried (a bounded number of attempts, the same bytes); a duplicate or
a forged one is sent once. While the vendor is down, deliveries wait.
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from benchwright.services.meridian._outbound import post_json
from benchwright.services.meridian.config import FORGED_SECRET
from benchwright.services.meridian.trace import Trace
from benchwright.services.meridian.webhooks import SIGNATURE_HEADER, Registration, sign
from benchwright.services.meridian_v3.config import V3Timing
from benchwright.services.meridian_v3.records import Delivery
from benchwright.services.meridian_v3.state import Event

GENUINE, DUPLICATE, FORGED, UNREGISTERED = "genuine", "duplicate", "forged", "unregistered"
STOP_WAIT_S = 5.0


@dataclass(frozen=True)
class Job:
    """One event to deliver, as ``kind`` (`GENUINE`, `DUPLICATE` or `FORGED`)."""

    event: Event
    kind: str = GENUINE
    race_page: int | None = None


@dataclass
class Batch:
    jobs: list[Job]
    done: threading.Event = field(default_factory=threading.Event)


class Courier:
    """Delivers queued batches from a daemon thread; `ledger` lists every attempt."""

    def __init__(
        self,
        timing: V3Timing,
        trace: Trace,
        webhook: Callable[[], Registration | None],
        down: Callable[[], bool],
    ) -> None:
        self.timing = timing
        self.trace = trace
        self._webhook = webhook
        self._down = down
        self._queue: queue.Queue[Batch | None] = queue.Queue()
        self._lock = threading.Lock()
        self._ledger: list[Delivery] = []
        self._seq = itertools.count(1)
        self._sent: dict[str, str] = {}
        """event id -> the signature header its first attempt carried (duplicates reuse it)."""
        self._pending = 0
        self._idle = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    def start(self) -> None:
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="meridian-v3-courier", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._queue.put(None)
        if self._thread is not None:
            self._thread.join(STOP_WAIT_S)
        self._thread = None

    def reset(self) -> None:
        with self._lock:
            self._ledger.clear()
            self._sent.clear()

    def send(self, jobs: list[Job]) -> threading.Event:
        """Queue ``jobs`` as one batch; the returned event is set once all are attempted."""
        batch = Batch(jobs)
        with self._lock:
            self._pending += 1
        self._queue.put(batch)
        return batch.done

    def wait_idle(self, timeout: float) -> bool:
        with self._lock:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def ledger(self) -> tuple[Delivery, ...]:
        with self._lock:
            return tuple(self._ledger)

    def _run(self) -> None:
        while (batch := self._queue.get()) is not None:
            try:
                for job in batch.jobs:
                    self._deliver(job)
            finally:
                batch.done.set()
                with self._lock:
                    self._pending -= 1
                    self._idle.notify_all()

    def _deliver(self, job: Job) -> None:
        while self._down() and not self._stopping.is_set():
            time.sleep(self.timing.down_poll_secs)
        reg = self._webhook()
        if reg is None or self._stopping.is_set():
            self._record(job, UNREGISTERED, 1, 0, "no webhook registered", 0.0, None)
            return
        attempts = self.timing.delivery_attempts if job.kind == GENUINE else 1
        for attempt in range(1, attempts + 1):
            header = self._header(job, reg)
            answer = post_json(
                reg.url, job.event.body, self.timing.delivery_timeout, {SIGNATURE_HEADER: header}
            )
            self._record(job, job.kind, attempt, answer.status, answer.error, answer.ms, reg.url)
            if 200 <= answer.status < 300 or attempt == attempts or self._stopping.is_set():
                return
            time.sleep(self.timing.delivery_backoff_secs)

    def _header(self, job: Job, reg: Registration) -> str:
        """The signature: a forged one never verifies; a duplicate repeats its original's
        exact header; anything else is signed now with the registered secret."""
        if job.kind == FORGED:
            return sign(FORGED_SECRET, int(time.time()), job.event.body)
        with self._lock:
            known = self._sent.get(job.event.id)
            if known is None:
                known = sign(reg.secret, int(time.time()), job.event.body)
                self._sent[job.event.id] = known
        return known

    def _record(
        self,
        job: Job,
        kind: str,
        attempt: int,
        status: int,
        error: str | None,
        ms: float,
        url: str | None,
    ) -> None:
        event = job.event
        delivery = Delivery(
            next(self._seq),
            event.id,
            kind,
            event.type,
            event.payment_id,
            event.version,
            event.txn,
            attempt,
            status,
            error,
            ms,
            time.time(),
            job.race_page,
        )
        with self._lock:
            self._ledger.append(delivery)
        line = self.trace.begin("POST(out)", url or "-", {}, {})
        line.update(
            status=status,
            webhook_delivery=event.id,
            kind=kind,
            attempt=attempt,
            event_type=event.type,
            payment_id=event.payment_id,
            version=event.version,
            delivery_error=error,
            ms=ms,
            race_page=job.race_page,
        )
        self.trace.write(line)
