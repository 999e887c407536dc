"""The staged part: checks that need the browser probes report UNAVAILABLE until a later
issue installs them (Playwright scenarios load, sync, error, empty, viz, note)."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.suites.vspro.checks._common import BROWSER_DETAIL, unavailable

BROWSER_CHECKS = (
    "j_empty_state", "j_error_state", "j_first_use", "j_sync_journey",
    "j_console_clean", "j_loads_data", "console_clean",
    "v_currency_rendered", "v_dates_readable", "v_filter", "v_pagination",
    "v_responsive_375", "v_status_distinct", "v_styling",
    "t_camera", "t_context_real", "t_fallback", "t_picking", "t_scene_binding",
    "t_tooltip", "t_vsdbg_truth",
    "e_frames_under_drag", "e_optimistic_paint",
    "p_first_frame", "p_page_interactive", "ui_error_actionable",
)  # fmt: skip


def browser_rows() -> list[CheckResult]:
    """One UNAVAILABLE row per browser check (never the app's fault, never a pass)."""
    return [unavailable(check_id, BROWSER_DETAIL) for check_id in BROWSER_CHECKS]
