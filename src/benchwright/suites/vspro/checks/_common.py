"""Shared by the vspro checks: its row keys, its latency ladders and its settings (the
row constructors and parsers every suite uses are `kit.checks`)."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from benchwright.scoring import DEFAULT_LATENCY_RUNGS, Rung
from benchwright.suites.kit.checks import ladder_ms
from benchwright.suites.kit.checks.settings import LadderSettings

BROWSER_DETAIL = "browser check not implemented"
ROW_KEYS = (
    "id", "amount_minor", "currency", "created_at", "settled_at",
    "status", "version", "note", "counterparty_name", "country",
)  # fmt: skip


DEFAULT_LADDERS: Mapping[str, tuple[Rung, ...]] = {
    "p_list_latency": DEFAULT_LATENCY_RUNGS,
    "p_summary_latency": DEFAULT_LATENCY_RUNGS,
    "e_under_load_latency": DEFAULT_LATENCY_RUNGS,
    "p_buckets_latency": ladder_ms((200, 1.0), (400, 0.75), (800, 0.5), (1600, 0.25)),
    "p_sync_wall": ladder_ms((90000, 1.0), (135000, 0.75), (180000, 0.5), (270000, 0.25)),
    "p_page_interactive": ladder_ms((2000, 1.0), (3000, 0.75), (4500, 0.5), (8000, 0.25)),
    "j_first_use": ladder_ms((2000, 1.0), (3000, 0.75), (4500, 0.5), (8000, 0.25)),
    "p_first_frame": ladder_ms((3000, 1.0), (5000, 0.75), (8000, 0.5), (15000, 0.25)),
    "t_tooltip": ladder_ms((150, 1.0), (400, 0.6), (1200, 0.3)),
    "e_optimistic_paint": ladder_ms((100, 1.0), (250, 0.6), (800, 0.3)),
}
"""Methodology §09 rungs (ms); a scorer's thresholds file overrides them."""
DEFAULT_DRAG_RUNGS = (24, 18, 12, 6)
"""Methodology §09 drag floors (the frozen seed file says 48/36/24/12)."""


@dataclass(frozen=True)
class CheckSettings(LadderSettings):
    """Calibration-owned numbers the checks grade against (from the scorer's thresholds)."""

    DEFAULTS = DEFAULT_LADDERS
    drag_rungs: tuple[int, ...] = DEFAULT_DRAG_RUNGS
    """e_frames_under_drag frame floors, top first (a thresholds file's ``floors`` override)."""

    @classmethod
    def from_scorer(cls, scorer: Any) -> CheckSettings:
        drag = DEFAULT_DRAG_RUNGS
        with contextlib.suppress(KeyError):
            drag = scorer.floors("e_frames_under_drag")
        return replace(super().from_scorer(scorer), drag_rungs=drag)
