"""A second instance of the graded app for the browser scenarios that need a brand-new
database (the empty state, a sync the click must show), beside the first: same tree, same
confinement, its own database in the same directory and a port of its own."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

from benchwright.probes.browser import Lane
from benchwright.sandbox import Confinement
from benchwright.services.app import AppUnderTest
from benchwright.services.ports import lease_port

EMPTY_DB = "empty-probe.db"
EMPTY_BOOT_S = 15.0
"""The second instance's boot budget: beyond it, its scenarios are UNAVAILABLE."""


class InstanceHost(Protocol):
    """What a suite's grade context offers for a second instance."""

    work: Path
    app: AppUnderTest

    def new_app(
        self, db: Path, port: int, log_path: Path, budget_s: float, confinement: Confinement
    ) -> AppUnderTest: ...


@contextmanager
def fresh_instance(
    ctx: InstanceHost, lane: Lane, boot_s: float = EMPTY_BOOT_S, db: Path | None = None
) -> Iterator[AppUnderTest]:
    """The second app, not yet booted (the caller boots it: what it does before the boot
    is its own), stopped however the block ends. The app is forked by the services'
    spawner thread, so the lane's thread ending cannot kill it. ``db``: where its
    database goes when it cannot sit beside the first's (an app told a database
    *directory* would share the first's files): ``EMPTY_DB`` beside the first's."""
    with lease_port() as lease:
        db = db or ctx.app.db.parent / EMPTY_DB
        log = ctx.work / "empty-app.log"
        app = ctx.new_app(db, lease.port, log, boot_s, ctx.app.confinement)
        lane.ensure_alive("booting the empty instance")  # no boot for a lost run
        try:
            yield app
        finally:
            app.stop()
