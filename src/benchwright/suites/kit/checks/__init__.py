"""What a suite's checks are built on: the table that runs them on the observation
record (`CheckTable`, marker `app_check`), the row constructors, and the contention rule
for timing rows."""

from benchwright.suites.kit.checks.results import (
    EXACT,
    frac,
    g,
    instant,
    is_int,
    ladder_ms,
    result,
    scorer_ladders,
    unavailable,
)
from benchwright.suites.kit.checks.table import BOOT_ROW, AppCheck, CheckTable, app_check
from benchwright.suites.kit.checks.timing import HostOf, judge_timing

__all__ = [
    "BOOT_ROW",
    "EXACT",
    "AppCheck",
    "CheckTable",
    "HostOf",
    "app_check",
    "frac",
    "g",
    "instant",
    "is_int",
    "judge_timing",
    "ladder_ms",
    "result",
    "scorer_ladders",
    "unavailable",
]
