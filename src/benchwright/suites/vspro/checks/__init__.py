"""The vspro checks: pure functions of the observations record, by sb-6 check id.

`build_table()` returns a fresh table from the explicit module list; the browser
checks are staged (`BROWSER_CHECKS`, UNAVAILABLE) until the browser probes land.
"""

from __future__ import annotations

from benchwright.suites.vspro.checks import (
    diagnostics,
    efficiency,
    tier_a,
    tier_b,
    tier_b_wire,
    tier_c,
    tier_d,
    tier_e,
    tier_hard,
    tier_p,
)
from benchwright.suites.vspro.checks._common import BROWSER_DETAIL, CheckSettings
from benchwright.suites.vspro.checks._registry import CheckTable, VsproCheck, vspro_check
from benchwright.suites.vspro.checks.browser import BROWSER_CHECKS, browser_rows

MODULES = (
    tier_a,
    tier_b,
    tier_b_wire,
    tier_c,
    tier_d,
    tier_p,
    tier_hard,
    efficiency,
    tier_e,
    diagnostics,
)


def build_table() -> CheckTable:
    return CheckTable.from_modules(MODULES)


__all__ = [
    "BROWSER_CHECKS",
    "BROWSER_DETAIL",
    "CheckSettings",
    "CheckTable",
    "VsproCheck",
    "browser_rows",
    "build_table",
    "vspro_check",
]
