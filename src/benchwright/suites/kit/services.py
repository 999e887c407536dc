"""An app that is several services (sb-7: ledgerd and notifierd): each its own process on
its own port, booted in the suite's order, killed and restarted on its own, all stopped
however the grading ends.

The kit starts a suite's app through the context's ``new_app`` and stops it with
``stop()`` (`kit.runner`); a suite of several services returns a `ServiceGroup` there,
whose primary service (the one the probes, the browser and the vendor's webhooks reach)
takes the port the kit leased, while the group leases one for each other service and gives
them back when it stops. Every service writes the one database directory (``--db-dir``);
sandboxed, each dials the services it names through a route of its own (`Service.dials`)
and only the vendor's clients are routed to the vendor.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from benchwright.sandbox import Confinement
from benchwright.services.app import AppUnderTest, BootObservation, BootPolicy, VendorRoute
from benchwright.services.ports import lease_port


@dataclass(frozen=True)
class Service:
    """One service of the app, as its boot line names it."""

    name: str
    command: str
    """Its boot line: `AppUnderTest`'s placeholders (``{python}``, ``{db_dir}``,
    ``{port}``, ...) and ``{port_<name>}``, the port of the service called ``<name>``."""
    db_name: str
    """Its database file in the database directory (deleted before a fresh boot)."""
    health_path: str
    require_json: bool = True
    """Whether its health answer must be JSON (sb-7's ledgerd is healthy on ``GET /``)."""
    dials: tuple[str, ...] = ()
    """The services it calls (sandboxed, each routed to on its own loopback)."""
    vendor: bool = False
    """Whether it calls the vendor (sandboxed, routed to the mock; cut by an outage)."""


class Stoppable(Protocol):
    def stop(self) -> None: ...


class _Kept(dict[str, str]):
    """Fills the ``{port_<name>}`` placeholders, keeping every other one for `AppUnderTest`."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class ServiceGroup:
    """The running services of one grading, by name; ``stop`` ends them all.

    Args:
        services: in boot order.
        primary: the service started on ``port`` (the kit's lease), logging to ``log_path``.
        port: the primary's port; every other service gets a port leased here.
        db_dir: the database directory every service is told (``--db-dir``).
        log_path: the primary's log; another service logs beside it (``app.<name>.log``).
        vendor: where each service that calls the vendor reaches it (None: no vendor).

    Raises:
        HarnessError: a port cannot be leased.
    """

    def __init__(
        self,
        services: Sequence[Service],
        primary: str,
        port: int,
        *,
        tree: Path,
        db_dir: Path,
        log_path: Path,
        budget_s: float,
        confinement: Confinement,
        vendor: VendorRoute | None,
    ) -> None:
        self.order = tuple(s.name for s in services)
        self.primary = primary
        self.budget_s = budget_s
        self._leases = ExitStack()
        self._attached: list[Stoppable] = []
        try:
            ports = {s.name: port if s.name == primary else self._lease() for s in services}
            self.ports: Mapping[str, int] = ports
            self.apps = {s.name: self._app(s, tree, db_dir, log_path, confinement, vendor)
                         for s in services}  # fmt: skip
        except BaseException:
            self._leases.close()
            raise

    def _app(
        self, service: Service, tree: Path, db_dir: Path, log_path: Path,
        confinement: Confinement, vendor: VendorRoute | None,
    ) -> AppUnderTest:  # fmt: skip
        """``service`` as an app on its port, routed to the services it dials.

        Raises:
            KeyError: it dials a service the group does not have.
            HarnessError: its boot line is no template.
        """
        filled = _Kept({f"port_{name}": str(port) for name, port in self.ports.items()})
        peers = tuple(VendorRoute(self.ports[p], ("127.0.0.1", self.ports[p]))
                      for p in service.dials)  # fmt: skip
        own_log = service.name == self.primary
        return AppUnderTest(
            service.command.format_map(filled),
            tree=tree,
            db=db_dir / service.db_name,
            port=self.ports[service.name],
            health_path=service.health_path,
            policy=BootPolicy(budget_s=self.budget_s, require_json=service.require_json),
            log_path=log_path if own_log else log_path.with_suffix(f".{service.name}.log"),
            confinement=confinement,
            vendor=vendor if service.vendor else None,
            peers=peers,
        )

    def _lease(self) -> int:
        return self._leases.enter_context(lease_port()).port

    def __getitem__(self, name: str) -> AppUnderTest:
        return self.apps[name]

    @property
    def base_url(self) -> str:
        """The primary service's."""
        return self.apps[self.primary].base_url

    @property
    def confinement(self) -> Confinement:
        return self.apps[self.primary].confinement

    def url(self, name: str) -> str:
        return self.apps[name].base_url

    def boot(self, name: str) -> BootObservation:
        """A hermetic boot of ``name`` (its database deleted first), within the budget."""
        return self.apps[name].boot()

    def kill(self, name: str) -> None:
        """SIGKILL ``name`` and everything it started; the others run on."""
        self.apps[name].kill()

    def restart(self, name: str, budget_s: float | None = None) -> BootObservation:
        """SIGKILL ``name`` if it runs, then start it again on its database and port."""
        app = self.apps[name]
        policy = BootPolicy(budget_s=budget_s or self.budget_s,
                            require_json=app.policy.require_json)  # fmt: skip
        return app.restart(policy)

    def attach(self, helper: Stoppable) -> None:
        """``helper`` (a thread polling the services, say) is stopped before them, when the
        group stops: a phase that raised cannot leave it running."""
        self._attached.append(helper)

    def stop(self) -> None:
        """Stop what is attached, then every service (the last booted first), and give the
        leased ports back, however any of that ends."""
        with self._leases:
            errors = []
            stops = [h.stop for h in reversed(self._attached)]
            stops += [self.apps[name].stop for name in reversed(self.order)]
            for stop in stops:
                try:
                    stop()
                except Exception as exc:  # stop the others all the same, then say so
                    errors.append(exc)
            if errors:
                raise errors[0]
