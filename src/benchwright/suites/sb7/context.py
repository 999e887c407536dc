"""What an sb-7 phase gets: the two services of the entrant's ``app`` (ledgerd and
notifierd, each its own sandboxed process on one database directory), the Meridian v3
mock, the seeded schedules, the bearer tokens, and the calls every phase makes.

The boot contract is the spec's §1: ``python -m app.ledgerd --db-dir P --port N
--notifier http://127.0.0.1:M --vendor URL --tokens-file T`` and ``python -m app.notifierd
--db-dir P --port M``, started, killed and restarted independently; ledgerd is healthy on
``GET /`` (the page), notifierd on ``GET /health``. The harness writes the tokens file
(three fresh 32-hex bearer tokens) before the first boot.
"""

from __future__ import annotations

import json
import secrets
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from benchwright.probes.http import JsonRead, read_json
from benchwright.sandbox import Confinement
from benchwright.services.app import VendorRoute
from benchwright.services.meridian_v3 import MeridianV3Mock
from benchwright.services.vendors import MERIDIAN_V3
from benchwright.suites.kit.context import AppSettings, BaseContext
from benchwright.suites.kit.services import Service, ServiceGroup
from benchwright.suites.kit.vendor import vendor_port
from benchwright.suites.sb7.schedule import HarnessSchedule, derive

if TYPE_CHECKING:
    from benchwright.suites.sb7.phases.stream import ReadSampler

VENDOR_URL = MERIDIAN_V3.base_url
"""The v3 vendor's base URL as the prompt renders it (and ledgerd is told: ``--vendor``)."""
LEDGERD, NOTIFIERD = "ledgerd", "notifierd"
LEDGER_DB, NOTIFIER_DB = "ledger.db", "notifier.db"
TOKENS_FILE = "tokens.json"
"""Written by the harness in the database directory, the one host directory (with the
tree) both sandboxed services can read."""
ROLES = ("maker", "checker", "admin")


def ledgerd_line(vendor_url: str, tokens: Path) -> str:
    """ledgerd's boot line (`ServiceGroup` fills the ports and the directory)."""
    return ("{python} -m app.ledgerd --db-dir {db_dir} --port {port} --notifier "
            f"http://127.0.0.1:{{port_notifierd}} --vendor {shlex.quote(vendor_url)} "
            f"--tokens-file {shlex.quote(str(tokens))}")  # fmt: skip


NOTIFIERD_LINE = "{python} -m app.notifierd --db-dir {db_dir} --port {port}"


def combined_line(notifier_port: int, vendor_url: str, tokens: Path) -> str:
    """``python -m app``: both services in one command (the a_combined_entrypoint smoke);
    ``{port}`` is ledgerd's."""
    return ("{python} -m app --db-dir {db_dir} --ledger-port {port} "
            f"--notifier-port {notifier_port} --vendor {shlex.quote(vendor_url)} "
            f"--tokens-file {shlex.quote(str(tokens))}")  # fmt: skip


def services(vendor_url: str, tokens: Path) -> tuple[Service, ...]:
    """The two services in boot order: notifierd first, so ledgerd's relay finds it (a
    service that needs the other to boot is graded by the boots themselves)."""
    return (
        Service(NOTIFIERD, NOTIFIERD_LINE, NOTIFIER_DB, "/health"),
        Service(LEDGERD, ledgerd_line(vendor_url, tokens), LEDGER_DB, "/", require_json=False,
                dials=(NOTIFIERD,), vendor=True),
    )  # fmt: skip


@dataclass(frozen=True)
class Tokens:
    """The three bearer tokens of the approval workflow: fresh per grading, never derived
    from the seed (a seed is public, so a token drawn from it could be memorised)."""

    maker: str
    checker: str
    admin: str

    @classmethod
    def fresh(cls) -> Tokens:
        return cls(*(secrets.token_hex(16) for _ in ROLES))

    def write(self, path: Path) -> Path:
        """The tokens file the spec names: ``{"maker": ..., "checker": ..., "admin": ...}``."""
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({role: getattr(self, role) for role in ROLES}))
        return path


@dataclass(frozen=True)
class GradeSettings(AppSettings):
    """The phases' waits. Every one bounds a loop against a server; the fixed waits are
    the schedule's (the vendor-down window) and the spec's own (5 s retries, 2 s relay
    backoff, 3 s webhook answers), plus polling intervals."""

    boot_budget_s: float = 25.0
    """One service's boot (the spec's 10 s is the top rung, graded from the observation)."""
    restart_budget_s: float = 25.0
    first_sync_budget_s: float = 240.0
    """The first, unprompted sync: the spec's 120 s walk, doubled."""
    quiesce_budget_s: float = 60.0
    """Until a sync's webhooks are delivered, the outbox drained, the notifier caught up."""
    kill_window_s: float = 30.0
    """How long a kill's trigger (the n-th list response, the create held open) is waited
    for before the window is recorded as unreached."""
    poll_s: float = 0.1
    sample_interval_s: float = 0.25
    """The read stream's period (the methodology's scorer polls every 250 ms)."""


@dataclass
class GradeContext(BaseContext):
    """Live handles for the phases of one sb-7 grading (mutable: services restart). The
    kit's ``app`` is the `ServiceGroup` of the two services; ``call`` reaches ledgerd."""

    app: ServiceGroup  # type: ignore[assignment]
    mock: MeridianV3Mock  # type: ignore[assignment]
    settings: GradeSettings
    vendor_url: str = VENDOR_URL
    tokens: Tokens = field(default_factory=Tokens.fresh)
    sampler: ReadSampler | None = field(default=None, init=False)
    """The read stream, from the boot (phases/stream.py) until the final reads."""

    @property
    def schedule(self) -> HarnessSchedule:
        return derive(self.mock.seed)

    @property
    def vendor_route(self) -> VendorRoute:
        """The vendor's port on a service's own loopback, relayed to the mock."""
        mock = urlsplit(self.mock.base_url)
        return VendorRoute(vendor_port(self.vendor_url), (str(mock.hostname), mock.port or 0))

    def new_app(
        self, db: Path, port: int, log_path: Path, budget_s: float, confinement: Confinement
    ) -> ServiceGroup:  # type: ignore[override]
        """Both services, not yet booted: ledgerd on ``port`` (the kit's lease), notifierd
        on a port of its own, the tokens file written into the database directory."""
        tokens = self.tokens.write(db.parent / TOKENS_FILE)
        return ServiceGroup(services(self.vendor_url, tokens), LEDGERD, port, tree=self.tree,
                            db_dir=db.parent, log_path=log_path, budget_s=budget_s,
                            confinement=confinement, vendor=self.vendor_route)  # fmt: skip

    def call(
        self, path: str, *, method: str = "GET", json: Any = None, timeout_s: float | None = None,
        headers: dict[str, str] | None = None, role: str | None = None,
    ) -> JsonRead:  # fmt: skip
        """One request to ledgerd, as ``role`` (its bearer token) when given."""
        headers = self.as_role(role) if role else headers
        return super().call(path, method=method, json=json, timeout_s=timeout_s,
                            headers=headers)  # fmt: skip

    def as_role(self, role: str) -> dict[str, str]:
        """The ``Authorization`` header of ``role`` (``maker``, ``checker``, ``admin``)."""
        return {"Authorization": f"Bearer {getattr(self.tokens, role)}"}

    def ledgerd_alive(self) -> bool:
        """Whether ledgerd's process runs: a wait for its answer ends when it does not
        (`phases._waits.until`), and so does a wait for the vendor's webhooks to land."""
        return self.app[LEDGERD].running

    def settle_deliveries(self) -> None:
        """Wait (bounded) until the vendor has attempted every queued webhook, unless
        ledgerd is dead: its deliveries would only be retried until the budget ran out."""
        if self.ledgerd_alive():
            self.mock.wait_deliveries(self.settings.quiesce_budget_s)

    def notifier(self, path: str) -> JsonRead:
        """One GET to notifierd, directly (its own port, never through ledgerd)."""
        return read_json(self.app.url(NOTIFIERD), path,
                         timeout_s=self.settings.request_timeout_s)  # fmt: skip
