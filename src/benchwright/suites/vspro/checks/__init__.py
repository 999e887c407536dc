"""The vspro checks: pure functions of the observations record, by sb-6 check id.

`build_table()` returns a fresh table from the explicit module list. A browser check
that no module implements yet is staged: `BROWSER_CHECKS` lists those ids, and
`browser_rows()` reports them UNAVAILABLE.
"""

from __future__ import annotations

from benchwright.suites.kit.checks import CheckTable
from benchwright.suites.vspro.checks import (
    diagnostics,
    efficiency,
    register_retry,
    spec_duties,
    tier_a,
    tier_b,
    tier_b_wire,
    tier_c,
    tier_d,
    tier_e,
    tier_hard,
    tier_j,
    tier_p,
    tier_pe_browser,
    tier_t,
    tier_t_fallback,
    tier_t_input,
    tier_v,
)
from benchwright.suites.vspro.checks._common import BROWSER_DETAIL, CheckSettings
from benchwright.suites.vspro.checks.browser import (
    ALL_BROWSER_CHECKS,
    browser_rows,
    staged_checks,
)

MODULES = (
    tier_a,
    tier_b,
    tier_b_wire,
    tier_c,
    tier_d,
    tier_p,
    tier_t,
    tier_t_input,
    tier_t_fallback,
    tier_hard,
    efficiency,
    tier_e,
    diagnostics,
    register_retry,
    spec_duties,
    tier_j,
    tier_v,
    tier_pe_browser,
)


def build_table() -> CheckTable:
    return CheckTable.from_modules(MODULES)


BROWSER_CHECKS = staged_checks(build_table().ids)
"""The browser check ids no registered module implements: UNAVAILABLE rows."""


__all__ = [
    "ALL_BROWSER_CHECKS",
    "BROWSER_CHECKS",
    "BROWSER_DETAIL",
    "CheckSettings",
    "browser_rows",
    "build_table",
    "staged_checks",
]
