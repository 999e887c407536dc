"""Composition: check rows + a scorer config -> a `Scorecard` (pure; see DESIGN.md).

Load a scorer with `load_scorer`, compose with `compose`; `selftest` and
`freeze_check` guard the ruler itself; `ladder_score` and `compound` help checks
turn measurements into scores.
"""

from benchwright.scoring.ace import ace_fields
from benchwright.scoring.compose import compose
from benchwright.scoring.config import DEFECT_ORDER, GAMMA_CAP, ScorerConfig
from benchwright.scoring.files import (
    load_config,
    load_ladder,
    load_rows,
    load_scorer,
    rows_from,
)
from benchwright.scoring.freeze import FREEZE_FLOOR, FreezeDecision, freeze_check, freeze_marker
from benchwright.scoring.rounding import percent, publish
from benchwright.scoring.rungs import DEFAULT_LATENCY_RUNGS, Rung, RungScore, compound, ladder_score
from benchwright.scoring.scorer import Scorer
from benchwright.scoring.selftest import SelftestResult, defect_rows, perfect_rows, selftest
from benchwright.scoring.thresholds import ThresholdsFile, pin_thresholds, sha256_hex

__all__ = [
    "DEFAULT_LATENCY_RUNGS",
    "DEFECT_ORDER",
    "FREEZE_FLOOR",
    "GAMMA_CAP",
    "FreezeDecision",
    "Rung",
    "RungScore",
    "Scorer",
    "ScorerConfig",
    "SelftestResult",
    "ThresholdsFile",
    "ace_fields",
    "compose",
    "compound",
    "defect_rows",
    "freeze_check",
    "freeze_marker",
    "ladder_score",
    "load_config",
    "load_ladder",
    "load_rows",
    "load_scorer",
    "percent",
    "perfect_rows",
    "pin_thresholds",
    "publish",
    "rows_from",
    "selftest",
    "sha256_hex",
]
