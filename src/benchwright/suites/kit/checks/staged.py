"""Staged checks: ids a suite's scorer lists but no registered check module implements
yet. Each reports UNAVAILABLE (never the app's fault, never a pass), and the set is
computed from the check table, so it shrinks by itself when a module registers."""

from __future__ import annotations

from collections.abc import Iterable

from benchwright.model import CheckResult
from benchwright.suites.kit.checks.results import unavailable


def staged_checks(wanted: Iterable[str], implemented: Iterable[str]) -> tuple[str, ...]:
    """The ``wanted`` ids (in their order) not in ``implemented`` (the table's ids)."""
    have = set(implemented)
    return tuple(c for c in wanted if c not in have)


def staged_rows(staged: Iterable[str], detail: str) -> list[CheckResult]:
    """One UNAVAILABLE row per staged id, each saying ``detail``."""
    return [unavailable(check_id, detail) for check_id in staged]
