"""What a vspro phase gets: the kit's context (`kit.context.BaseContext`) with vspro's boot
line and vendor address, its settings, and the webhook slot its phases watch."""

from __future__ import annotations

import time
from dataclasses import dataclass

from benchwright.services.vendors import MERIDIAN
from benchwright.suites.kit.context import AppSettings, BaseContext

COMMAND = "{python} -m vspro --db {db} --port {port}"
"""The documented boot line; ``{python}`` is the grader's interpreter (stdlib-only apps)."""
VENDOR_URL = MERIDIAN.base_url
"""The vendor's base URL rendered into the prompt (spec.md's ``{BASE_URL}``): the public
sb-6 harness serves its vendor there during build and scoring, so an app may hard-code it."""


@dataclass(frozen=True)
class GradeSettings(AppSettings):
    """Timeouts and waits of the phases; the defaults are the seed's (facts D2)."""

    register_wait_s: float = 1.0
    """After the restart, how long the app gets to re-register before the script runs."""
    readers: int = 8
    reads_per_reader: int = 6


@dataclass
class GradeContext(BaseContext):
    """Live handles for the phases of one vspro grading."""

    COMMAND = COMMAND
    vendor_url: str = VENDOR_URL

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
