"""What a Meridian-backed suite's phases get: the running app, the vendor mock, the knobs
of one grading, and the calls every suite makes to its app.

A suite subclasses `BaseContext` with its boot line (``COMMAND``) and whatever its own
phases need; the kit starts the app through `BaseContext.new_app` (`kit.runner`).
`meridian_suite` sets up one grading of such a suite: a fresh mock, the context on it and
the empty observation record.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit

from benchwright.model import CheckResult
from benchwright.probes.http import JsonRead, read_json
from benchwright.sandbox import Confinement
from benchwright.services.app import AppUnderTest, BootPolicy, VendorRoute
from benchwright.services.meridian import API_KEY, MeridianMock, Timing
from benchwright.suites.kit.grading import AppSuite
from benchwright.suites.kit.runner import Log
from benchwright.suites.kit.screenshots import ShotOrder
from benchwright.suites.kit.vendor import vendor_port
from benchwright.suites.kit.wire import body, integer
from benchwright.suites.kit.workspace import Workspace


@dataclass(frozen=True)
class AppSettings:
    """Timeouts and waits every executed-app suite's phases use; a suite's settings
    subclass it with its own."""

    request_timeout_s: float = 10.0
    sync_timeout_s: float = 240.0
    """One POST /api/sync."""
    restart_budget_s: float = 20.0
    boot_budget_s: float = 25.0
    latency_samples: int = 20
    retake_contended: bool = True
    """Take a read-only browser scenario whose host window was contended again, alone
    (`kit.browser.lanes.retime`), for the timing rows that read it. An audit grades a
    control with it off (`audit.run.Auditor.grade_control`): a control is judged on its
    targets only, so retakes for any other row are wasted minutes, and a target that
    comes back contended has the control graded again with it on."""


@dataclass
class BaseContext:
    """Live handles for the phases of one grading (mutable: the app may be restarted)."""

    COMMAND: ClassVar[str]
    """The suite's documented boot line, e.g. ``{python} -m vspro --db {db} --port {port}``
    (``{python}`` is the grader's interpreter: the apps are stdlib-only)."""

    tree: Path
    """The fresh copy the app runs from."""
    work: Path
    app: AppUnderTest
    mock: MeridianMock
    settings: Any
    """The suite's `AppSettings`."""
    vendor_url: str
    """Where the app is told the vendor is (``MERIDIAN_BASE_URL``, and the address it can
    dial: the mock there unconfined, a relay to it in the sandbox's own namespace)."""

    @property
    def base_url(self) -> str:
        return self.app.base_url

    def new_app(
        self, db: Path, port: int, log_path: Path, budget_s: float, confinement: Confinement
    ) -> AppUnderTest:
        """The boot line as an app on ``port``, told the vendor is at `vendor_url`."""
        return self.confined(self.COMMAND, db, port, log_path, budget_s, confinement)

    def confined(
        self,
        command: str,
        db: Path,
        port: int,
        log_path: Path,
        budget_s: float,
        confinement: Confinement,
    ) -> AppUnderTest:
        """``command`` run from the tree exactly as the app is: its environment, its
        confinement, its route to the vendor (also what a suite runs of the entrant's
        code besides the app, such as a driver calling its client)."""
        mock = urlsplit(self.mock.base_url)
        return AppUnderTest(
            command,
            tree=self.tree,
            db=db,
            port=port,
            env={"MERIDIAN_BASE_URL": self.vendor_url, "MERIDIAN_API_KEY": API_KEY},
            policy=BootPolicy(budget_s=budget_s),
            log_path=log_path,
            confinement=confinement,
            vendor=VendorRoute(vendor_port(self.vendor_url), (str(mock.hostname), mock.port or 0)),
        )

    def call(
        self, path: str, *, method: str = "GET", json: Any = None, timeout_s: float | None = None,
        headers: dict[str, str] | None = None,
    ) -> JsonRead:  # fmt: skip
        """One request to the app, read as wire JSON; a refused request is an observation."""
        timeout = self.settings.request_timeout_s if timeout_s is None else timeout_s
        return read_json(self.base_url, path, method=method, json_body=json, timeout_s=timeout,
                         headers=headers)  # fmt: skip

    def sync(self, timeout_s: float | None = None) -> JsonRead:
        timeout = self.settings.sync_timeout_s if timeout_s is None else timeout_s
        return self.call("/api/sync", method="POST", timeout_s=timeout)

    def syncs_at_once(self, n: int = 2) -> tuple[JsonRead, ...]:
        """``n`` POST /api/sync started together, and the answers that came (each waited
        for up to the sync timeout): the overlap two clicks of a sync button make."""
        calls: list[JsonRead] = []
        lock = threading.Lock()

        def one() -> None:
            answer = self.sync()
            with lock:
                calls.append(answer)

        threads = [threading.Thread(target=one, daemon=True) for _ in range(n)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(self.settings.sync_timeout_s + 5)
        return tuple(calls)

    def health_count(self) -> int | None:
        """``payments`` of /api/health when it is an integer."""
        return integer(body(self.call("/api/health")), "payments")


MockMaker = Callable[[int, Any, Path], Any]
"""``(seed, timing, trace path) -> a fresh vendor mock``, not yet started: how a suite
whose vendor is not `MeridianMock` (sb-7's Meridian v3) makes its own."""


@dataclass(frozen=True)
class MeridianSetup:
    """How one grading of a Meridian-backed suite sets up: the mock's API version, seed
    and delays, the suite's context type and settings, and where the app is told the
    vendor is."""

    version: str
    seed: int
    timing: Timing | None
    context: type[BaseContext]
    settings: Any
    vendor_url: str
    make_mock: MockMaker | None = None
    """None: `MeridianMock` of ``version``."""

    def mock(self, trace: Path) -> Any:
        """A fresh mock for one grading, writing its request trace to ``trace``."""
        if self.make_mock is not None:
            return self.make_mock(self.seed, self.timing, trace)
        return MeridianMock(self.seed, timing=self.timing, version=self.version, trace_path=trace)


def meridian_suite(
    name: str,
    db_name: str,
    setup: MeridianSetup,
    record: Callable[[Any], Log],
    judge: Callable[[Log], list[CheckResult]],
    shots: ShotOrder,
) -> AppSuite[Log]:
    """The suite ``name`` for one grading: a fresh mock per `setup` (its trace the
    workspace's), the context on it, and ``record(fixture)``, the empty observation
    record holding the fixture's truth; ``judge`` turns the record into rows."""

    def prepare(space: Workspace) -> tuple[BaseContext, Log]:
        mock = setup.mock(space.vendor_trace)
        ctx = setup.context(space.tree, space.work, None, mock, setup.settings, setup.vendor_url)  # type: ignore[arg-type]
        return ctx, record(mock.fixture)

    return AppSuite(name, db_name, prepare, judge, shots)
