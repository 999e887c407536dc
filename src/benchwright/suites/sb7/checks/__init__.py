"""The sb-7 checks: pure functions of the observation record, by §12 check id.

Part one implements the 51 checks of tiers A, B, C, D, X and R (one module per tier,
B and X in two). The rows whose instrument is the browser (tiers J, V, P, T, E, the two
diagnostics and ``b_money_rendered``) are staged: `judge` reports each UNAVAILABLE naming
issue 29, and a staged id disappears by itself when a module registers it.
"""

from __future__ import annotations

import importlib

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import CheckTable
from benchwright.suites.kit.checks.staged import staged_checks, staged_rows
from benchwright.suites.sb7.checks._common import BROWSER_CHECKS, PART_TWO, CheckSettings
from benchwright.suites.sb7.checks._timing import judge_timing
from benchwright.suites.sb7.observations import Observations

MODULE_NAMES = ("tier_a", "tier_b", "tier_b_wire", "tier_c", "tier_d", "tier_x",
                "tier_x_money", "tier_r", "tier_p", "tier_e", "tier_b_rendered", "tier_j",
                "tier_v", "tier_j_flows", "tier_e_paint", "tier_t", "tier_t_pick",
                "tier_t_camera", "tier_t_click", "tier_t_height", "tier_p_viz",
                "tier_e_viz", "tier_t_brush", "tier_t_labels",
                "tier_t_stream", "tier_t_coast")  # fmt: skip
"""The check modules of this package."""
MODULES = tuple(importlib.import_module(f"{__name__}.{name}") for name in MODULE_NAMES)


def build_table() -> CheckTable:
    return CheckTable.from_modules(MODULES)


def staged() -> tuple[str, ...]:
    """The browser check ids no registered module implements."""
    return staged_checks(BROWSER_CHECKS, build_table().ids)


def judge(obs: Observations, settings: CheckSettings | None = None) -> list[CheckResult]:
    """Every sb-7 row: the implemented checks on ``obs``, the staged ones UNAVAILABLE."""
    rows = judge_timing(build_table().evaluate(obs, settings or CheckSettings()), obs)
    return rows + staged_rows(staged(), PART_TWO)


__all__ = ["BROWSER_CHECKS", "MODULES", "MODULE_NAMES", "CheckSettings", "build_table",
           "judge", "staged"]  # fmt: skip
