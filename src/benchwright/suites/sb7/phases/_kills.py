"""A seeded SIGKILL and its restart with the same flags, kept as the kill ledger's record:
the app-reported payments count before and after (r_no_row_loss), whether the service
came back (r_b3_sigkill_resync) and whether the other service lived on (d_peer_absence)."""

from __future__ import annotations

from collections.abc import Callable

from benchwright.suites.sb7.context import LEDGERD, NOTIFIERD, GradeContext
from benchwright.suites.sb7.observations import KillRecord


def kill_and_restart(
    ctx: GradeContext, name: str, service: str, before: int | None,
    meanwhile: Callable[[], None] | None = None,
) -> KillRecord:  # fmt: skip
    """SIGKILL ``service`` now (``before``: the count read just before whatever the kill
    follows), run ``meanwhile`` while it is down, restart it on the same database and
    port, and read the count once it answers. Whether the other service lived through
    it is recorded only when it was up at the kill."""
    peer = ctx.app[NOTIFIERD if service == LEDGERD else LEDGERD]
    watched = peer.running  # not when the harness itself has the peer down (the partition)
    ctx.app.kill(service)
    if meanwhile is not None:
        meanwhile()
    booted = ctx.app.restart(service)
    restarted = booted.healthy_after_s is not None
    after = ctx.health_count() if restarted and ctx.app[LEDGERD].running else None
    return KillRecord(name, service, before, after, restarted,
                      peer_alive=peer.running if watched else None)  # fmt: skip
