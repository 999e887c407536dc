"""Two services of one suite, each its own sandboxed process (sb-7's ledgerd and notifierd):
one dials the other through a peer route, both write the one database directory, each is
killed and restarted on its own; and one process serving both ports at once (``python -m
app``) has its second port relayed out too.

Real processes on real ports: the stand-ins of tests/two_services.py. Every test runs
sandboxed and unconfined (where the apps dial the host's loopback themselves).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from two_services import get, service_tree

from benchwright.sandbox import UNCONFINED, Confinement, unavailable_reason
from benchwright.services.app import AppUnderTest, BootPolicy, VendorRoute
from benchwright.services.ports import lease_port

POLICY = BootPolicy(poll_s=0.1, budget_s=60.0, rung_s=30.0, request_timeout_s=5.0)
"""Roomy: these tests are about reaching, never about the clock."""


SANDBOXED = pytest.param(Confinement(), id="sandboxed", marks=pytest.mark.skipif(
    unavailable_reason() is not None, reason="no sandbox here"))  # fmt: skip
BOTH = pytest.mark.parametrize("confinement", [SANDBOXED, pytest.param(UNCONFINED, id="none")])
"""Sandboxed (where bubblewrap runs), and unconfined."""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return service_tree(tmp_path)


def service(
    tree: Path, mode: str, port: int, confinement: Confinement, tail: str = "", **routes: object
) -> AppUnderTest:
    """The stand-in ``mode`` on ``port``, its database in the shared ``db`` directory."""
    db = tree.parent / "db" / f"{mode}.db"
    return AppUnderTest(f"{{python}} service.py {mode} --db-dir {{db_dir}} --port {{port}}{tail}",
                        tree=tree, db=db, port=port, health_path="/" if mode == "ledger" else
                        "/health", policy=POLICY, log_path=tree.parent / f"{mode}.log",
                        confinement=confinement, **routes)  # type: ignore[arg-type]  # fmt: skip


@pytest.fixture
def ports(tmp_path: Path) -> Iterator[tuple[int, int]]:
    with lease_port(lock_dir=tmp_path) as ledger, lease_port(lock_dir=tmp_path) as notifier:
        yield ledger.port, notifier.port


@BOTH
def test_a_service_reaches_its_peer_and_survives_the_peer_being_killed_and_restarted(
    tree: Path, ports: tuple[int, int], confinement: Confinement
) -> None:
    """ledger dials notifier's port on its own loopback (relayed when sandboxed); killing
    notifier leaves ledger running and answering, and the restarted notifier is reached
    again on the same port; both wrote their own file of the one database directory."""
    ledger_port, notifier_port = ports
    route = VendorRoute(notifier_port, ("127.0.0.1", notifier_port))
    with ExitStack() as stack:
        notifier = service(tree, "notifier", notifier_port, confinement)
        dial = f" --notifier http://127.0.0.1:{notifier_port}"
        ledger = service(tree, "ledger", ledger_port, confinement, dial, peers=(route,))
        stack.callback(ledger.stop)
        stack.callback(notifier.stop)
        assert notifier.boot().healthy_after_s is not None
        assert ledger.boot().healthy_after_s is not None
        assert get(ledger_port, "/peer") == {
            "peer": {"status": "ok", "files": ["ledger.db", "notifier.db"]}
        }
        assert notifier.running and ledger.running
        notifier.kill()
        assert not notifier.running
        assert "unreachable" in get(ledger_port, "/peer")  # answered: ledger lives on
        assert ledger.running
        assert notifier.restart().healthy_after_s is not None
        assert get(ledger_port, "/peer")["peer"]["status"] == "ok"
        ledger.kill()
        assert get(notifier_port, "/health")["status"] == "ok"  # and the other way round


def test_without_a_peer_route_a_sandboxed_service_cannot_reach_its_peer(
    tree: Path, ports: tuple[int, int]
) -> None:
    """The control: in a network namespace of its own, only a route reaches the peer."""
    if reason := unavailable_reason():
        pytest.skip(f"no sandbox here: {reason}")
    ledger_port, notifier_port = ports
    sandboxed = Confinement()
    with ExitStack() as stack:
        notifier = service(tree, "notifier", notifier_port, sandboxed)
        ledger = service(tree, "ledger", ledger_port, sandboxed,
                         f" --notifier http://127.0.0.1:{notifier_port}")  # fmt: skip
        stack.callback(ledger.stop)
        stack.callback(notifier.stop)
        notifier.boot()
        ledger.boot()
        assert get(notifier_port, "/health")["status"] == "ok"
        assert "unreachable" in get(ledger_port, "/peer")


@BOTH
def test_a_process_serving_both_services_has_both_ports_reached(
    tree: Path, ports: tuple[int, int], confinement: Confinement
) -> None:
    """``also``: the second port of one process is relayed out as well (sandboxed: without
    it, nothing on the host's loopback would answer there)."""
    ledger_port, notifier_port = ports
    both = AppUnderTest("{python} service.py both --db-dir {db_dir} --ledger-port {port} "
                        f"--notifier-port {notifier_port} --notifier http://127.0.0.1:"
                        f"{notifier_port}", tree=tree, db=tree.parent / "db" / "both.db",
                        port=ledger_port, health_path="/", policy=POLICY,
                        log_path=tree.parent / "both.log", confinement=confinement,
                        also=(notifier_port,))  # fmt: skip
    with both:
        assert get(notifier_port, "/health")["status"] == "ok"
        assert get(ledger_port, "/peer")["peer"]["status"] == "ok"  # inside, directly
