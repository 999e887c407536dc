"""A context for the vendorsync ``browser`` phase in tests: the reference app (or a
tampered copy of its tree) booted as a real process against a Meridian v1 mock, synced
through the vendor's update pass, as the grading's phases leave it before ``browser``."""

from __future__ import annotations

import urllib.request
from dataclasses import dataclass
from pathlib import Path

from benchwright.sandbox import UNCONFINED, Confinement
from benchwright.services.app import AppUnderTest, BootPolicy
from benchwright.services.meridian import API_KEY, MeridianMock

COMMAND = "{python} -m vendorsync --db {db} --port {port}"
SYNC_S = 60.0


def app_of(
    tree: Path,
    mock: MeridianMock,
    db: Path,
    port: int,
    log: Path,
    budget_s: float = 15.0,
    confinement: Confinement = UNCONFINED,
) -> AppUnderTest:
    """The app of ``tree`` on ``db`` and ``port``, told the vendor is ``mock``."""
    env = {"MERIDIAN_BASE_URL": mock.base_url, "MERIDIAN_API_KEY": API_KEY}
    return AppUnderTest(COMMAND, tree=tree, db=db, port=port, env=env,
                        policy=BootPolicy(budget_s=budget_s), log_path=log,
                        confinement=confinement)  # fmt: skip


@dataclass
class PageContext:
    """`BrowserContext` over a tree, a work dir, a running app and the mock."""

    tree: Path
    work: Path
    app: AppUnderTest
    mock: MeridianMock

    @property
    def base_url(self) -> str:
        return self.app.base_url

    def new_app(
        self, db: Path, port: int, log_path: Path, budget_s: float, confinement: Confinement
    ) -> AppUnderTest:
        return app_of(self.tree, self.mock, db, port, log_path, budget_s, confinement)


def synced_after_update(tree: Path, work: Path, mock: MeridianMock, port: int) -> PageContext:
    """The app of ``tree`` booted on a fresh db in ``work`` on ``port``, synced, the
    vendor's update pass applied and synced again; the caller stops ``ctx.app``."""
    work.mkdir(parents=True, exist_ok=True)
    app = app_of(tree, mock, work / "db" / "app.db", port, work / "app.log")
    ctx = PageContext(tree, work, app, mock)
    boot = app.boot()
    assert boot.healthy_after_s is not None, boot.detail
    _sync(ctx)
    mock.mutate_statuses()
    _sync(ctx)
    return ctx


def _sync(ctx: PageContext) -> None:
    request = urllib.request.Request(ctx.base_url + "/api/sync", data=b"", method="POST")
    with urllib.request.urlopen(request, timeout=SYNC_S) as answer:
        assert answer.status == 200
