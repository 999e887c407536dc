"""The browser checks of sb-6, and the staged part: an id no registered module implements
reports UNAVAILABLE ("browser check not implemented"); implemented ones run as checks."""

from __future__ import annotations

from collections.abc import Iterable

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import staged as kit_staged
from benchwright.suites.vspro.checks._common import BROWSER_DETAIL

ALL_BROWSER_CHECKS = (
    "j_empty_state", "j_error_state", "j_first_use", "j_sync_journey",
    "j_console_clean", "j_loads_data", "console_clean",
    "v_currency_rendered", "v_dates_readable", "v_filter", "v_pagination",
    "v_responsive_375", "v_status_distinct", "v_styling",
    "t_camera", "t_context_real", "t_fallback", "t_picking", "t_scene_binding",
    "t_tooltip", "t_vsdbg_truth",
    "e_frames_under_drag", "e_optimistic_paint",
    "p_first_frame", "p_page_interactive", "ui_error_actionable",
)  # fmt: skip
"""Every sb-6 check that reads the browser phase."""


def staged_checks(implemented: Iterable[str]) -> tuple[str, ...]:
    """The browser check ids not in ``implemented`` (the check table's ids)."""
    return kit_staged.staged_checks(ALL_BROWSER_CHECKS, implemented)


def browser_rows(staged: Iterable[str] | None = None) -> list[CheckResult]:
    """One UNAVAILABLE row per staged browser check (never the app's fault, never a pass).

    Args:
        staged: the ids to report; the default table's staged ids when None.
    """
    if staged is None:
        from benchwright.suites.vspro.checks import BROWSER_CHECKS as staged
    return kit_staged.staged_rows(staged, BROWSER_DETAIL)
