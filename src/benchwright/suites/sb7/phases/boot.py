"""Phase ``boot``: both services booted separately, notifierd first, the vendor refusing
every connection from ledgerd's start for the schedule's 3-8 s (B4), and for as long after
as it takes a healthy ledgerd to be read once (a slow host must not end the window before
the harness could see ledgerd serve: that would grade the host, not the app). The read
stream starts as soon as ledgerd answers; the phase ends when ledgerd's first sync, which
nobody asked for, has completed (or its budget ran out)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from benchwright.probes.host import window as host_window
from benchwright.services.app import BootObservation
from benchwright.suites.kit.wire import body
from benchwright.suites.sb7.context import LEDGERD, NOTIFIERD, GradeContext
from benchwright.suites.sb7.observations import B4Window, BootObs, Observations
from benchwright.suites.sb7.phases._waits import until
from benchwright.suites.sb7.phases.stream import start_sampler

SYNCED, DIED = "synced", "died"
LOCAL_READS = ("/api/health", "/api/payments?limit=5", "/api/summary")
"""What ledgerd serves from its own store while the vendor is down."""


@dataclass(frozen=True)
class KitBootObs(BootObs):
    """The boot as the kit's block rule reads it (``boot``: the app's boot observation):
    ledgerd's, the service the probes reach; a dead ledgerd stops the later phases."""

    @property
    def boot(self) -> BootObservation:
        return self.ledgerd


def boot(ctx: GradeContext, obs: Observations) -> KitBootObs:
    """Boot notifierd; vendor down; boot ledgerd; read local data until the window ends
    (and at least one local read was tried on a healthy ledgerd); vendor up; wait for the
    unprompted first sync (health ``last_sync`` set). The host is watched from ledgerd's
    start to that sync's end: p_sync_wall's window."""
    ctx.mock.mark_phase("boot")
    notifierd = ctx.app.boot(NOTIFIERD)  # it never calls the vendor: its boot is no window
    with host_window() as host:
        ledgerd, b4 = _boot_ledgerd(ctx)
    return KitBootObs(ledgerd=ledgerd, notifierd=notifierd, b4=b4, host=host.state)


def _boot_ledgerd(ctx: GradeContext) -> tuple[BootObservation, B4Window]:
    """ledgerd booted inside the vendor-down window (B4), then its first sync awaited."""
    settings, window = ctx.settings, ctx.schedule.vendor_down_s
    ctx.mock.set_down(True)
    opened = time.monotonic()
    try:
        ledgerd = ctx.app.boot(LEDGERD)
        healthy, served, crashed = ledgerd.healthy_after_s is not None, False, False
        if healthy:
            start_sampler(ctx).window(True)
        while True:
            served = served or (healthy and any(ctx.call(p, timeout_s=1.0).response.succeeded
                                               for p in LOCAL_READS))  # fmt: skip
            crashed = crashed or not ctx.app[LEDGERD].running
            down = time.monotonic() - opened
            if down >= window and (served or crashed or not healthy):
                break
            if down >= window + settings.request_timeout_s:  # tried long enough: it cannot
                break
            time.sleep(settings.poll_s)
    finally:
        ctx.mock.set_down(False)
        down = time.monotonic() - opened
    ctx.mock.mark_phase("vendor-up")
    ended = None
    if healthy:
        ended = until(lambda: _first_sync(ctx), settings.first_sync_budget_s, settings.poll_s * 5)
    crashed = crashed or ended == DIED
    b4 = B4Window(armed=True, down_s=round(down, 3), bound_after_s=ledgerd.healthy_after_s,
                  served_while_down=served, crashed=crashed,
                  recovered_unattended=ended == SYNCED)  # fmt: skip
    return ledgerd, b4


def _first_sync(ctx: GradeContext) -> str | None:
    """`SYNCED` once health says a sync completed, `DIED` when ledgerd exited (it never
    will), None while neither."""
    if not ctx.app[LEDGERD].running:
        return DIED
    return SYNCED if (body(ctx.call("/api/health")) or {}).get("last_sync") else None
