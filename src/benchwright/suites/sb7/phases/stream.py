"""The read stream: the harness's own reads of ledgerd, polled through the live run.

From the boot to the final reads a thread reads, every `GradeSettings.sample_interval_s`:
``GET /api/summary``, the refund's payment, one more payment the schedule touches (in
turn), and every fourth tick a page of ``GET /api/payments``. The consistency checks
replay these against the vendor's commits: a version served that the vendor never
committed (x_l1), a version going back (x_l3), an amount that changed (x_m1), a summary
showing half the refund group (x_l5, x_m2). A read that got no JSON is not kept: a killed
ledgerd served nothing, which is not a read. Phase ``stream`` hands the reads over.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from benchwright.probes.http import JsonRead, read_json
from benchwright.services.meridian_v3 import Commit, Schedule
from benchwright.suites.kit.wire import body, integer, rows_of
from benchwright.suites.sb7.context import GradeContext
from benchwright.suites.sb7.observations import (
    Observations,
    ReadStream,
    RowSeen,
    StreamRead,
)

PAGE_EVERY = 4
"""Ticks between two reads of a payments page."""
PAGE_LIMIT = 50


class ReadSampler:
    """The polling thread; ``window(True)`` marks the reads that follow as inside the
    refund's window (the first walk, when the vendor commits the group) until
    ``window(False)``."""

    def __init__(
        self, base_url: Callable[[], str], focus: str, ids: Sequence[str], *,
        offsets: Sequence[int], interval_s: float, timeout_s: float,
    ) -> None:  # fmt: skip
        self._base_url, self._focus = base_url, focus
        self._ids = itertools.cycle(ids or [focus])
        self._offsets = itertools.cycle(offsets or [0])
        self._interval_s, self._timeout_s = interval_s, timeout_s
        self._reads: list[StreamRead] = []
        self.walls: list[float] = []
        """``time.time()`` at each kept read's start (the vendor stamps its commits so)."""
        self._in_window = False
        self._halt = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sb7-read-stream", daemon=True)

    def start(self) -> ReadSampler:
        self._thread.start()
        return self

    def window(self, on: bool) -> None:
        self._in_window = on

    def stop(self) -> None:
        """Stop polling (bounded: one read's timeout); idempotent."""
        self._halt.set()
        if self._thread.is_alive():
            self._thread.join(self._timeout_s + 5)

    @property
    def reads(self) -> tuple[StreamRead, ...]:
        return tuple(self._reads)

    def baseline(self, t: float) -> int | None:
        """The index of the last summary read that ENDED before ``t`` (``time.time()``),
        or None: the app's state just before something the vendor did at ``t``. A read
        that merely started before ``t`` may have been answered after the app applied
        what the vendor did (the webhook lands in milliseconds, a read on a busy host
        takes longer): taken as the baseline, it made every later snapshot look like the
        group's other half, a confirmed half state the app never showed."""
        pairs = enumerate(zip(self.walls, self._reads, strict=False))
        found = [i for i, (wall, read) in pairs
                 if read.summary is not None and wall + read.ended - read.started < t]  # fmt: skip
        return found[-1] if found else None

    def _run(self) -> None:
        for tick in itertools.count():
            started = time.monotonic()
            self._summary()
            self._payment(self._focus)
            self._payment(next(self._ids))
            if tick % PAGE_EVERY == 0:
                self._page(next(self._offsets))
            if self._halt.wait(max(0.0, self._interval_s - (time.monotonic() - started))):
                return

    def _get(self, path: str) -> tuple[float, float, float, JsonRead]:
        wall, started = time.time(), time.monotonic()
        read = read_json(self._base_url(), path, timeout_s=self._timeout_s)
        return wall, started, time.monotonic(), read

    def _keep(self, wall: float, read: StreamRead) -> None:
        self.walls.append(wall)
        self._reads.append(read)

    def _summary(self) -> None:
        wall, started, ended, read = self._get("/api/summary")
        if (found := body(read)) is not None:
            self._keep(wall, StreamRead(started, ended, summary=found,
                                        in_refund_window=self._in_window))  # fmt: skip

    def _payment(self, payment_id: str) -> None:
        wall, started, ended, read = self._get(f"/api/payments/{payment_id}")
        if (found := body(read)) is not None and found.get("id") == payment_id:
            self._keep(wall, StreamRead(started, ended, rows=(row_seen(found),),
                                        in_refund_window=self._in_window))  # fmt: skip

    def _page(self, offset: int) -> None:
        wall, started, ended, read = self._get(f"/api/payments?limit={PAGE_LIMIT}&offset={offset}")
        rows = tuple(row_seen(r) for r in rows_of(read) or () if isinstance(r, dict) and "id" in r)
        if rows:
            self._keep(wall, StreamRead(started, ended, rows=rows,
                                        in_refund_window=self._in_window))  # fmt: skip


def row_seen(row: dict) -> RowSeen:
    """One payment as served (fields that are not what the contract says read as None)."""
    status, currency = row.get("status"), row.get("currency")
    return RowSeen(str(row.get("id")), integer(row, "version"), integer(row, "amount_minor"),
                   currency if isinstance(currency, str) else None,
                   status if isinstance(status, str) else None)  # fmt: skip


def start_sampler(ctx: GradeContext) -> ReadSampler:
    """The read stream over ``ctx``'s ledgerd, attached to its services (stopped with them
    however the grading ends): the refund's payment every tick, the other payments the
    vendor's schedule touches in turn, pages spread over the collection."""
    vendor = ctx.mock.schedule
    touched = sorted(targets(vendor))
    total = ctx.mock.fixture.total
    offsets = [(total * k) // 8 for k in range(8)]
    sampler = ReadSampler(lambda: ctx.base_url, vendor.refund.payment_id, touched,
                          offsets=offsets, interval_s=ctx.settings.sample_interval_s,
                          timeout_s=ctx.settings.request_timeout_s)  # fmt: skip
    ctx.app.attach(sampler)
    ctx.sampler = sampler
    return sampler.start()


def targets(vendor: Schedule) -> set[str]:
    """Every payment the vendor's schedule commits to (races, the out-of-order pair, the
    refund, the rows masked behind B5), and the forged event's (it must stay untouched)."""
    ids = {m.payment_id for race in vendor.race_pages for m in race.mutations}
    ids |= {m.payment_id for m in vendor.stale.mutations}
    return ids | {vendor.out_of_order.payment_id, vendor.refund.payment_id,
                  vendor.forged.payment_id}  # fmt: skip


def stream(ctx: GradeContext, obs: Observations) -> ReadStream:
    """Stop the read stream (if the final reads have not) and hand over what it read, the
    refund's window narrowed to start at the baseline summary (`refund_baseline`): what
    the app served before it, while the first walk was still filling the store, is no
    state of the refund group."""
    sampler = ctx.sampler
    if sampler is None:
        return ReadStream(())
    sampler.stop()
    start = refund_baseline(ctx)
    return ReadStream(tuple(
        replace(read, in_refund_window=read.in_refund_window and (start is None or i >= start))
        for i, read in enumerate(sampler.reads)
    ))  # fmt: skip


def refund_baseline(ctx: GradeContext) -> int | None:
    """The read stream's index of the last summary read before the vendor committed the
    refund group (None: no commit, or no summary before it)."""
    commit = refund_commit(ctx)
    return ctx.sampler.baseline(commit.t) if commit and ctx.sampler else None


def refund_commit(ctx: GradeContext) -> Commit | None:
    """The vendor's commit refunding the schedule's refund target (None: never made)."""
    refund = ctx.mock.schedule.refund.payment_id
    return next((c for c in ctx.mock.commit_ledger().commits if c.payment_id == refund
                 and c.row.get("status") == "refunded"), None)  # fmt: skip
