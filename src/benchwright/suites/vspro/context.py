"""What a phase gets: the running app, the vendor mock, and the knobs of one grading."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from benchwright.probes.http import JsonRead, read_json
from benchwright.sandbox import Confinement
from benchwright.services.app import AppUnderTest, BootPolicy, VendorRoute
from benchwright.services.meridian import API_KEY, MeridianMock
from benchwright.services.vendors import MERIDIAN
from benchwright.suites.kit.vendor import vendor_port

COMMAND = "{python} -m vspro --db {db} --port {port}"
"""The documented boot line; ``{python}`` is the grader's interpreter (stdlib-only apps)."""
VENDOR_URL = MERIDIAN.base_url
"""The vendor's base URL rendered into the prompt (spec.md's ``{BASE_URL}``): the public
sb-6 harness serves its vendor there during build and scoring, so an app may hard-code it."""


@dataclass(frozen=True)
class GradeSettings:
    """Timeouts and waits of the phases; the defaults are the seed's (facts D2)."""

    request_timeout_s: float = 10.0
    sync_timeout_s: float = 240.0
    """One POST /api/sync (the seed's timed sync uses 240 s)."""
    restart_budget_s: float = 20.0
    register_wait_s: float = 1.0
    """After the restart, how long the app gets to re-register before the script runs."""
    boot_budget_s: float = 25.0
    readers: int = 8
    reads_per_reader: int = 6
    latency_samples: int = 20


@dataclass
class GradeContext:
    """Live handles for the phases of one grading (mutable: the app may be restarted)."""

    tree: Path
    """The fresh copy the app runs from (holds ``vspro/``)."""
    work: Path
    app: AppUnderTest
    mock: MeridianMock
    settings: GradeSettings
    vendor_url: str = VENDOR_URL
    """Where the app is told the vendor is (``MERIDIAN_BASE_URL``, and the address it can
    dial: the mock there unconfined, a relay to it in the sandbox's own namespace)."""

    @property
    def base_url(self) -> str:
        return self.app.base_url

    def new_app(
        self, db: Path, port: int, log_path: Path, budget_s: float, confinement: Confinement
    ) -> AppUnderTest:
        """The boot line as an app on ``port``, told the vendor is at `vendor_url`."""
        mock = urlsplit(self.mock.base_url)
        return AppUnderTest(
            COMMAND,
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
        self, path: str, *, method: str = "GET", json: Any = None, timeout_s: float | None = None
    ) -> JsonRead:
        """One request to the app, read as wire JSON; a refused request is an observation."""
        timeout = self.settings.request_timeout_s if timeout_s is None else timeout_s
        return read_json(self.base_url, path, method=method, json_body=json, timeout_s=timeout)

    def sync(self, timeout_s: float | None = None) -> JsonRead:
        timeout = self.settings.sync_timeout_s if timeout_s is None else timeout_s
        return self.call("/api/sync", method="POST", timeout_s=timeout)

    def health_count(self) -> int | None:
        """``payments`` of /api/health when it is an integer."""
        found = self.call("/api/health").json.value
        count = found.get("payments") if isinstance(found, dict) else None
        return count if isinstance(count, int) and not isinstance(count, bool) else None

    def webhook_url(self) -> str:
        return f"{self.base_url}/api/webhooks/meridian"

    def wait_registered(self, budget_s: float) -> float | None:
        """Seconds until the mock's webhook slot holds this app's URL, or None (polled)."""
        start = time.monotonic()
        while True:
            reg = self.mock.store.webhook
            if reg is not None and getattr(reg, "url", None) == self.webhook_url():
                return time.monotonic() - start
            if time.monotonic() - start >= budget_s:
                return None
            time.sleep(0.05)
