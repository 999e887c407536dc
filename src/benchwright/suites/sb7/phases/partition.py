"""Phase ``partition``: the notifier partition (B7) with two ledgerd kills inside it.

Once notifierd has caught up, it is SIGKILLed; ledgerd then commits the schedule's
exactly 8 draft writes (several crossing the outbox), each timed (a user write never
waits on the notifier), the outbox status read after each (``down``, ``pending``
growing) and the notifications proxy read once (502 ``notifier_unreachable``). Right
after one submit's 200 ledgerd is SIGKILLed and restarted (A1: the submitted state must
survive), and after another crossing write once more with outbox rows pending (B6: the
restart delivers them from the durable outbox, once). Then notifierd is restarted (the
heal) and the catch-up is watched: which outage seqs the notifier has processed, poll
after poll (in seq order, no gap behind a processed seq), until the feed answers again.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from benchwright.suites.kit.wire import body, integer
from benchwright.suites.sb7.context import LEDGERD, NOTIFIERD, GradeContext
from benchwright.suites.sb7.observations import (
    FaultWindow,
    Json,
    KillRecord,
    Observations,
    PartitionObs,
    WriteCall,
)
from benchwright.suites.sb7.phases._kills import kill_and_restart
from benchwright.suites.sb7.phases._reads import crossing_seqs, draft_state, processed
from benchwright.suites.sb7.phases._trace import mark
from benchwright.suites.sb7.phases._waits import until
from benchwright.suites.sb7.schedule import CREATE, CROSSING, REJECT, SUBMIT, Step

ROLE = {CREATE: "maker", SUBMIT: "maker", REJECT: "checker"}
"""Who performs each partition write (four-eyes: the checker rejects the maker's)."""


@dataclass
class _Run:
    """What the partition has seen so far."""

    drafts: dict[int, str] = field(default_factory=dict)
    writes: list[WriteCall] = field(default_factory=list)
    outbox: list[Json | None] = field(default_factory=list)
    ledgerd_alive: bool = True
    a1_kill: KillRecord | None = None
    a1_state: str | None = None
    b6_kill: KillRecord | None = None
    b6_pending: int | None = None
    b6_seqs: tuple[int, ...] = ()
    absent: bool = False


def partition(ctx: GradeContext, obs: Observations) -> PartitionObs:
    """Catch up, kill notifierd, write 8 times (A1 and B6 among them), heal, watch."""
    settings, schedule = ctx.settings, ctx.schedule
    until(lambda: _pending(ctx) == 0, settings.quiesce_budget_s, settings.poll_s * 5,
          ctx.ledgerd_alive)  # fmt: skip
    mark(ctx, "partition")
    start_seq = _latest_seq(ctx)
    before = ctx.health_count()
    ctx.app.kill(NOTIFIERD)
    run = _Run()
    for index, step in enumerate(schedule.partition):
        _write(ctx, run, index, step)
    proxy = ctx.call("/api/notifications")
    run.ledgerd_alive = run.ledgerd_alive and ctx.app[LEDGERD].running
    outage = crossing_seqs(ctx, start_seq)
    healed = ctx.app.restart(NOTIFIERD)
    heal = time.monotonic()
    catch_up = _catch_up(ctx, outage, settings.quiesce_budget_s)
    live = until(lambda: ctx.call("/api/notifications").status == 200,
                 settings.quiesce_budget_s, settings.poll_s, ctx.ledgerd_alive)  # fmt: skip
    live_after = time.monotonic() - heal if live else None
    until(lambda: _pending(ctx) == 0, settings.quiesce_budget_s, settings.poll_s * 5,
          ctx.ledgerd_alive)  # fmt: skip
    notifier_kill = KillRecord("B7", NOTIFIERD, before, ctx.health_count(),
                               healed.healthy_after_s is not None,
                               peer_alive=run.ledgerd_alive)  # fmt: skip
    a1_fired = run.a1_kill is not None
    return PartitionObs(
        armed=True,
        notifier_kill=notifier_kill,
        writes=tuple(run.writes),
        outbox=tuple(run.outbox),
        proxy=proxy,
        ledgerd_alive=run.ledgerd_alive,
        catch_up=catch_up,
        live_after_s=live_after,
        b6=_window(run.b6_kill is not None and bool(run.b6_pending),
                   "no outbox row was pending when the B6 kill was due"),
        b6_kill=run.b6_kill,
        b6_pending_before=run.b6_pending,
        b6_pending_seqs=run.b6_seqs,
        b6_outbox_after=body(ctx.call("/api/outbox/status")),
        a1=_window(a1_fired, "the A1 submit was not answered 200"),
        a1_kill=run.a1_kill,
        a1_draft=run.drafts.get(schedule.partition[schedule.a1_step].draft),
        a1_state_after=run.a1_state,
        drafts_absent=run.absent,
    )  # fmt: skip


def _write(ctx: GradeContext, run: _Run, index: int, step: Step) -> None:
    """One partition write, timed; then A1's or B6's kill when this is their step."""
    schedule = ctx.schedule
    creates = step.action == CREATE
    path = "/api/drafts" if creates else f"/api/drafts/{run.drafts.get(step.draft)}/{step.action}"
    sent = schedule.partition_drafts[step.draft].body() if creates else None
    count = ctx.health_count() if index in (schedule.a1_step, schedule.b6_step) else None
    answer = ctx.call(path, method="POST", json=sent, role=ROLE[step.action])
    run.writes.append(WriteCall(answer.status, answer.response.elapsed_s))
    if step.action == CREATE:
        run.absent = run.absent or answer.status == 404
        created = (body(answer) or {}).get("id")
        run.drafts[step.draft] = str(created) if created is not None else "none"
    run.ledgerd_alive = run.ledgerd_alive and ctx.app[LEDGERD].running
    if index == schedule.a1_step and answer.status == 200:
        run.a1_kill = kill_and_restart(ctx, "A1", LEDGERD, count)
        run.a1_state = draft_state(ctx, run.drafts.get(step.draft))
    elif index == schedule.b6_step and step.action in CROSSING:
        status = body(ctx.call("/api/outbox/status")) or {}
        run.b6_pending = integer(status, "pending")
        delivered = integer(status, "last_delivered_seq") or 0
        run.b6_seqs = crossing_seqs(ctx, delivered)
        run.b6_kill = kill_and_restart(ctx, "B6", LEDGERD, count)
    run.outbox.append(body(ctx.call("/api/outbox/status")))


def _window(fired: bool, why: str) -> FaultWindow:
    return FaultWindow(armed=True, fired=fired, unreached=None if fired else why)


def _pending(ctx: GradeContext) -> int | None:
    return integer(body(ctx.call("/api/outbox/status")), "pending")


def _latest_seq(ctx: GradeContext) -> int:
    return integer(body(ctx.call("/api/events?limit=1", role="admin")), "latest_seq") or 0


def _catch_up(ctx: GradeContext, outage: tuple[int, ...], budget_s: float) -> tuple:
    """Successive snapshots of which outage seqs ``/notify/processed`` lists, until all
    are there (or the budget ran out)."""
    wanted, snapshots = set(outage), []
    first = min(outage, default=0) - 1

    def seen() -> bool:
        seqs = tuple(sorted(seq for seq in processed(ctx, first) or () if seq in wanted))
        if not snapshots or snapshots[-1] != seqs:
            snapshots.append(seqs)
        return set(seqs) >= wanted

    until(seen, budget_s, ctx.settings.poll_s, ctx.ledgerd_alive)
    return tuple(snapshots)
