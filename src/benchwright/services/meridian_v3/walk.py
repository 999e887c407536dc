"""The first walk's schedule: which list request is dropped or failed, which served page
fires its race, and the barrier that holds the next page behind page-first deliveries.

The first walk is every list request from the first page served until the first page
served with ``next_cursor: null``, restarts included; its k-th 200-served response is
page k of the schedule (304s, retries and dropped requests do not count).
"""

from __future__ import annotations

import threading

from benchwright.services.meridian_v3.courier import DUPLICATE, FORGED, Job
from benchwright.services.meridian_v3.schedule import Schedule
from benchwright.services.meridian_v3.state import State

DROP, ERROR = "drop", "error"


class FirstWalk:
    """Counters and one-shots of the first walk (reset with the mock)."""

    def __init__(self, schedule: Schedule) -> None:
        self.schedule = schedule
        self.reset()

    def reset(self) -> None:
        self.served = 0
        self.done = False
        self.fired: dict[str, bool] = {DROP: False, ERROR: False}
        self.barrier: threading.Event | None = None
        """Set once the last page-first race's deliveries are done; None: nothing held."""

    def take_fault(self) -> str | None:
        """`DROP` or `ERROR` when this list request is the scheduled one (once each)."""
        if self.done or self.served == 0:
            return None
        for fault, after in (
            (DROP, self.schedule.drop_after_page),
            (ERROR, self.schedule.error_after_page),
        ):
            if self.served == after and not self.fired[fault]:
                self.fired[fault] = True
                return fault
        return None

    def serve(self, last: bool) -> int | None:
        """Count one 200 list response; its first-walk page number, or None after it."""
        if self.done:
            return None
        self.served += 1
        self.done = last
        return self.served


def race_jobs(state: State, schedule: Schedule, page: int) -> list[Job]:
    """Commit everything race page ``page`` fires and return its deliveries, in order:
    the four mutations (the first one repeated right after itself on the duplicate's
    page), then the out-of-order pair newest first, the refund group's parts in the
    seeded order, the mid-walk create, and the forged event last."""
    race = schedule.race_at(page)
    if race is None:
        return []
    jobs = []
    for m in race.mutations:
        _, event = state.commit(m.payment_id, source="race", status=m.status, note=m.note)
        jobs.append(Job(event, race_page=page))
    if schedule.duplicate_page == page:
        jobs.insert(1, Job(jobs[0].event, DUPLICATE, page))
    ooo = schedule.out_of_order
    if ooo.page == page:
        older = state.commit(ooo.payment_id, source="out-of-order", note=ooo.notes[0])[1]
        newer = state.commit(ooo.payment_id, source="out-of-order", note=ooo.notes[1])[1]
        jobs += [Job(newer, race_page=page), Job(older, race_page=page)]
    refund = schedule.refund
    if refund.page == page:
        _, _, flip, reversal = state.refund(refund.payment_id, source="refund")
        parts = [flip, reversal] if refund.first == 1 else [reversal, flip]
        jobs += [Job(event, race_page=page) for event in parts]
    if schedule.create.page == page:
        _, event = state.create(schedule.create.draft, schedule.create.key, internal=True)
        jobs.append(Job(event, race_page=page))
    forged = schedule.forged
    if forged.page == page:
        jobs.append(Job(state.forged(forged.payment_id, forged.note), FORGED, page))
    return jobs
