"""The vendorsync grade context for the ``browser`` phase in tests: the app of a tree (the
reference, or a tampered copy) booted as a real process against a Meridian v1 mock and
synced through the vendor's update pass, as the grading's phases leave it."""

from __future__ import annotations

from pathlib import Path

from benchwright.sandbox import UNCONFINED
from benchwright.services.meridian import MeridianMock
from benchwright.suites.vendorsync.context import GradeContext, GradeSettings

BOOT_S = 15.0


def synced_after_update(tree: Path, work: Path, mock: MeridianMock, port: int) -> GradeContext:
    """The app of ``tree`` on a fresh db in ``work`` and ``port``, synced, the vendor's
    update pass applied and synced again; the caller stops ``ctx.app``."""
    ctx = GradeContext(tree, work, None, mock, GradeSettings(), mock.base_url)  # type: ignore[arg-type]
    ctx.app = ctx.new_app(work / "db" / "app.db", port, work / "app.log", BOOT_S, UNCONFINED)
    boot = ctx.app.boot()
    assert boot.healthy_after_s is not None, boot.detail
    assert ctx.sync().status == 200
    mock.mutate_statuses()
    assert ctx.sync().status == 200
    return ctx
