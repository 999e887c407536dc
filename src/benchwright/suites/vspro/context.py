"""What a phase gets: the running app, the vendor mock, and the knobs of one grading."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchwright.probes.http import JsonRead, read_json
from benchwright.services.app import AppUnderTest
from benchwright.services.meridian import MeridianMock

COMMAND = "{python} -m vspro --db {db} --port {port}"
"""The documented boot line; ``{python}`` is the grader's interpreter (stdlib-only apps)."""


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

    @property
    def base_url(self) -> str:
        return self.app.base_url

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
