"""The kit's `ServiceGroup`: an app that is several services (sb-7's ledgerd and
notifierd), booted in order, each killed and restarted on its own, all stopped by the kit
however the phases end, the ports it leased given back. Real stand-in processes
(tests/two_services.py), sandboxed where bubblewrap runs."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from two_services import get, service_tree

from benchwright.sandbox import UNCONFINED, Confinement, unavailable_reason
from benchwright.services.ports import lease_port, port_is_free
from benchwright.suites.kit import Phase, PhaseLog, run_phases
from benchwright.suites.kit.services import Service, ServiceGroup

SERVICES = (
    Service("notifier", "{python} service.py notifier --db-dir {db_dir} --port {port}",
            "notifier.db", "/health"),
    Service("ledger", "{python} service.py ledger --db-dir {db_dir} --port {port} "
            "--notifier http://127.0.0.1:{port_notifier}", "ledger.db", "/", dials=("notifier",),
            vendor=True),
)  # fmt: skip


def confinement() -> Confinement:
    return UNCONFINED if unavailable_reason() else Confinement()


class Context:
    """A suite's context whose app is the group of the two stand-ins."""

    def __init__(self, tree: Path) -> None:
        self.tree, self.mock, self.vendor_url = tree, None, ""
        self.settings = SimpleNamespace(boot_budget_s=60.0)
        self.app: Any = None

    def new_app(
        self, db: Path, port: int, log_path: Path, budget_s: float, confinement: Confinement
    ) -> ServiceGroup:
        return ServiceGroup(SERVICES, "ledger", port, tree=self.tree, db_dir=db.parent,
                            log_path=log_path, budget_s=budget_s, confinement=confinement,
                            vendor=None)  # fmt: skip


def test_the_group_boots_in_order_and_kills_and_restarts_each_service_alone(
    tmp_path: Path,
) -> None:
    tree = service_tree(tmp_path)
    with lease_port() as lease:
        group = ServiceGroup(SERVICES, "ledger", lease.port, tree=tree, db_dir=tmp_path / "db",
                             log_path=tmp_path / "app.log", budget_s=60.0,
                             confinement=confinement(), vendor=None)  # fmt: skip
        try:
            assert group.order == ("notifier", "ledger")
            assert group.ports["ledger"] == lease.port != group.ports["notifier"]
            for name in group.order:
                assert group.boot(name).healthy_after_s is not None
            assert group.base_url == f"http://127.0.0.1:{lease.port}"
            assert get(lease.port, "/peer")["peer"]["files"] == ["ledger.db", "notifier.db"]
            group.kill("notifier")
            assert "unreachable" in get(lease.port, "/peer")
            assert group.restart("notifier").healthy_after_s is not None
            assert get(lease.port, "/peer")["peer"]["status"] == "ok"
            assert (tmp_path / "app.notifier.log").read_text().count("starting") == 2
        finally:
            notifier_port = group.ports["notifier"]
            group.stop()
    assert port_is_free(notifier_port) and port_is_free(lease.port)
    assert all(app.pid is None for app in group.apps.values())


def test_the_kit_stops_every_service_when_a_phase_raises(tmp_path: Path) -> None:
    """The runner's ``stop()`` is the group's: a phase that raised leaves no service up,
    and what a phase attached to the group (a polling thread) is stopped too."""
    ctx = Context(service_tree(tmp_path))

    stopped: list[str] = []

    def boot(ctx: Context, obs: PhaseLog) -> None:
        for name in ctx.app.order:
            ctx.app.boot(name)
        ctx.app.attach(SimpleNamespace(stop=lambda: stopped.append("sampler")))

    def fails(ctx: Context, obs: PhaseLog) -> None:
        raise RuntimeError("a probe broke")

    _, records = run_phases(
        (Phase("up", boot), Phase("fails", fails)), ctx, PhaseLog(), db=tmp_path / "db" / "x.db",
        log=tmp_path / "app.log", confinement=confinement(), notify=lambda *_: None,
    )  # fmt: skip
    assert [r.outcome for r in records] == ["ok", "failed: RuntimeError: a probe broke"]
    assert stopped == ["sampler"]
    assert all(app.pid is None for app in ctx.app.apps.values())
    assert all(port_is_free(port) for port in ctx.app.ports.values())


def test_an_unknown_peer_is_refused_before_anything_starts(tmp_path: Path) -> None:
    lonely = (Service("ledger", "{python} service.py ledger --port {port}", "ledger.db", "/",
                      dials=("notifier",)),)  # fmt: skip
    with lease_port() as lease, pytest.raises(KeyError, match="notifier"):
        ServiceGroup(lonely, "ledger", lease.port, tree=tmp_path, db_dir=tmp_path / "db",
                     log_path=tmp_path / "app.log", budget_s=5.0, confinement=UNCONFINED,
                     vendor=None)  # fmt: skip
