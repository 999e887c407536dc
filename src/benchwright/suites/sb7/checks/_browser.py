"""Shared by the sb-7 rows that read the ``browser`` phase: the scenario names they read
back, the expected total at probe time, and the console errors of a set of scenarios."""

from __future__ import annotations

from typing import Any

from benchwright.model import CheckResult
from benchwright.suites.kit.browser.rows import errors_of, view
from benchwright.suites.sb7.browser.flows.flow import FLOW
from benchwright.suites.sb7.browser.lanes import EMPTY, LOAD
from benchwright.suites.sb7.observations import Observations

SYNC = "sync"
"""The sync journey's scenario (sb7flows' module): j_console_clean reads its console."""
CONSOLE_SCENARIOS = (LOAD, SYNC)
"""§12's j_console_clean: the union of the load and the sync scenarios' errors."""
VIZ = "viz"
"""The 3D field's scenario (sb7vizprobe's module)."""
NOMINAL = (LOAD, SYNC, FLOW, VIZ, EMPTY)
"""The scenarios the scorer's ``console_clean`` condition covers (``scorers/sb7.yaml``
prints them): the nominal ones, where nothing provokes an error answer on purpose
(``error`` blocks the API, ``feed`` kills notifierd)."""


def total_matches(load: Any) -> bool:
    """The page's claimed total is the vendor's collection size at probe time (read just
    before and just after the page: another lane's journey may create a payment between)."""
    low, high = min(load.vendor_total), max(load.vendor_total)
    return load.claimed_total is not None and low <= load.claimed_total <= high


def expected(load: Any) -> str:
    """The expected total as a detail names it."""
    low, high = min(load.vendor_total), max(load.vendor_total)
    return str(low) if low == high else f"{low}..{high}"


def console_errors(
    obs: Observations, check_id: str, names: tuple[str, ...]
) -> tuple[list[str], CheckResult | None]:
    """(every console and page error of scenarios ``names``, None), or (the row that says
    why one of them has no view)."""
    errors: list[str] = []
    for name in names:
        seen, refused = view(obs, check_id, name)
        if refused:
            return [], refused
        errors += errors_of(seen)
    return errors, None


def presync(empty: Any) -> str | None:
    """The pre-sync state the page showed, in D3's words: ``blocks`` (a loading state and
    no table), ``empty`` (the table, empty); None when it showed neither."""
    if empty.loading_text and not empty.table_visible:
        return "blocks"
    return "empty" if empty.table_visible else None
