"""What a vendorsync phase gets: the kit's context with vendorsync's boot line, and the
Meridian v1 vendor's rendered address."""

from __future__ import annotations

from dataclasses import dataclass

from benchwright.services.vendors import MERIDIAN_V1
from benchwright.suites.kit.context import AppSettings, BaseContext

COMMAND = "{python} -m vendorsync --db {db} --port {port}"
"""The boot line of spec §3."""
VENDOR_URL = MERIDIAN_V1.base_url
"""The v1 profile's base URL, rendered into the prompt as ``{BASE_URL}``: an app may
hard-code it, so the grading's mock answers there (`kit.serve_vendor`)."""


@dataclass(frozen=True)
class GradeSettings(AppSettings):
    """The phases' timeouts; the kit's defaults (a sync at the contract's waits takes
    about 5 s, so 240 s only bounds a hung one)."""

    client_budget_s: float = 240.0
    """How long the direct client calls (a whole walk, a count, two creates) may take."""


@dataclass
class GradeContext(BaseContext):
    """Live handles for the phases of one vendorsync grading."""

    COMMAND = COMMAND
    vendor_url: str = VENDOR_URL
