"""Shared by the vendorsync checks: their settings (the P ladders), the staged browser
ids and the readers of the record's parts."""

from __future__ import annotations

from collections.abc import Mapping

from benchwright.scoring import Rung
from benchwright.suites.kit.checks import ladder_ms
from benchwright.suites.kit.checks.settings import LadderSettings

PROBE_UNAVAILABLE = "PROBE UNAVAILABLE: "
"""How a row whose probe could not run begins (facts §2: it counts 0, never excluded)."""
ROW_KEYS = ("id", "amount_minor", "currency", "created_at", "status")
"""The five keys of a payment row (spec §6.1)."""
BROWSER_CHECKS = (
    "j_loads_data", "j_console_clean", "j_sync_journey", "j_error_state", "j_empty_state",
    "v_dates_readable", "v_status_distinct", "v_pagination", "v_filter", "v_responsive_375",
    "v_styling", "p_page_interactive",
)  # fmt: skip
"""The sb-5.2 checks that read the browser phase (tiers J and V, and one P row)."""
BROWSER_DETAIL = PROBE_UNAVAILABLE + "the browser probe is not implemented yet"

DEFAULT_LADDERS: Mapping[str, tuple[Rung, ...]] = {
    "p_list_latency": ladder_ms((100, 1.0), (200, 0.75), (400, 0.5), (800, 0.25)),
    "p_page_interactive": ladder_ms((2000, 1.0), (3000, 0.75), (4500, 0.5), (8000, 0.25)),
    "p_sync_wall": ladder_ms((60000, 1.0), (90000, 0.75), (120000, 0.5), (180000, 0.25)),
}
"""Facts entries 58-60 (the spec's 100 ms list budget, §8); a thresholds file overrides."""


class CheckSettings(LadderSettings):
    """Calibration-owned numbers the checks grade against: the P ladders and ``k_P``."""

    DEFAULTS = DEFAULT_LADDERS
