"""Phase ``under_stream``: the read API under a live stream burst (p_under_stream,
e_under_load_latency). A harness listener holds ``GET /api/stream`` open; the vendor
commits a paced burst of note changes, each delivered to the app as a signed webhook that
the app applies and fans out; 8 reader threads x 6 GETs of the payments page race it.
Every read and the burst are timestamped, so how many reads overlapped is measured.

It runs before ``final``: the burst is vendor history like any other, so quiescence waits
for it and the X and R rows grade the app having applied it. Its targets are payments no
earlier commit touched (never the forged event's), and a note change moves no money, no
status and no day, so no summary, bucket or refund-window figure depends on it."""

from __future__ import annotations

import random
import time

from benchwright.probes.host import window
from benchwright.probes.http import concurrent_reads
from benchwright.suites.sb7.context import GradeContext
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.perf_obs import LIST_50, UnderStreamObs
from benchwright.suites.sb7.phases._sse import Listener
from benchwright.suites.sb7.phases._waits import until

BURST = 48
"""Note changes in the burst."""
PACE_S = 0.05
"""Between two commits: the burst lands over ~2.4 s, longer than 48 reads take on an app
within budget, so their overlap is a fact and not a race."""
READERS, PER_READER = 8, 6
HEARD_BUDGET_S = 5.0
"""How long after the last delivery the listener may take to hear the burst (the stream's
own budget is 250 ms; the rest is slack for a loaded host)."""


def under_stream(ctx: GradeContext, obs: Observations) -> UnderStreamObs:
    """Listen, then race the readers against the burst inside one host window."""
    targets = burst_targets(ctx)
    ids = set(targets)
    timeout = ctx.settings.request_timeout_s
    ctx.mock.mark_phase("under-stream")

    with Listener(ctx.base_url, timeout) as listener:

        def burst() -> None:
            for n, pid in enumerate(targets):
                ctx.mock.commit_mutation(pid, note=f"stream burst {n + 1}/{len(targets)}")
                time.sleep(PACE_S)
            ctx.mock.wait_deliveries(ctx.settings.quiesce_budget_s)
            until(lambda: listener.heard(ids) == len(ids), HEARD_BUDGET_S, ctx.settings.poll_s)

        with window() as seen:
            wait_s = ctx.settings.quiesce_budget_s * 2
            load = concurrent_reads(ctx.base_url, LIST_50, burst, readers=READERS,
                                    per_reader=PER_READER, timeout_s=timeout,
                                    background_wait_s=wait_s)  # fmt: skip
        heard = listener.result(ids)
    total = len(ctx.mock.commit_ledger().rows_at())
    return UnderStreamObs(load, total, targets, heard, seen.state)


def burst_targets(ctx: GradeContext) -> tuple[str, ...]:
    """`BURST` payments drawn by the seed from those no commit has touched yet (the
    forged event's target stays untouched too)."""
    touched = {c.payment_id for c in ctx.mock.commit_ledger().commits}
    touched.add(ctx.mock.schedule.forged.payment_id)
    free = sorted(p["id"] for p in ctx.mock.fixture.payments if p["id"] not in touched)
    return tuple(sorted(random.Random(ctx.mock.seed).sample(free, min(BURST, len(free)))))
