"""The vendorsync checks: pure functions of the observation record, by sb-5.2 check id.

`MODULE_NAMES` lists the check modules of this package; adding one is adding its name.
A browser check no module implements yet is staged: `staged()` lists those ids and the
grader reports them UNAVAILABLE (``PROBE UNAVAILABLE``), so the staging disappears by
itself when the browser modules register.
"""

from __future__ import annotations

import importlib

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import CheckTable
from benchwright.suites.kit.checks.staged import staged_checks, staged_rows
from benchwright.suites.vendorsync.checks._common import (
    BROWSER_CHECKS,
    BROWSER_DETAIL,
    CheckSettings,
)

MODULE_NAMES = (
    "tier_a",
    "tier_b",
    "tier_b_ui",
    "tier_c",
    "tier_d",
    "tier_hard",
    "tier_p",
)
"""The check modules of this package (vsbrowser adds ``tier_j``, ``tier_v`` and
``tier_p_browser``, one line each)."""
MODULES = tuple(importlib.import_module(f"{__name__}.{name}") for name in MODULE_NAMES)


def build_table() -> CheckTable:
    return CheckTable.from_modules(MODULES)


def staged() -> tuple[str, ...]:
    """The browser check ids no registered module implements."""
    return staged_checks(BROWSER_CHECKS, build_table().ids)


def staged_browser_rows() -> list[CheckResult]:
    """One UNAVAILABLE row per staged browser check."""
    return staged_rows(staged(), BROWSER_DETAIL)


__all__ = [
    "BROWSER_CHECKS",
    "MODULES",
    "MODULE_NAMES",
    "CheckSettings",
    "build_table",
    "staged",
    "staged_browser_rows",
]
