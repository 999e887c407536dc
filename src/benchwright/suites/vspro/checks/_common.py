"""Shared by the vspro checks: the result constructor, settings and small parsers."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from benchwright.model import CheckResult, Status
from benchwright.scoring import DEFAULT_LATENCY_RUNGS, Rung

EXACT = 1e-9
BROWSER_DETAIL = "browser check not implemented"
ROW_KEYS = (
    "id", "amount_minor", "currency", "created_at", "settled_at",
    "status", "version", "note", "counterparty_name", "country",
)  # fmt: skip


def _ms(*pairs: tuple[float, float]) -> tuple[Rung, ...]:
    return tuple(Rung(at, score) for at, score in pairs)


DEFAULT_LADDERS: Mapping[str, tuple[Rung, ...]] = {
    "p_list_latency": DEFAULT_LATENCY_RUNGS,
    "p_summary_latency": DEFAULT_LATENCY_RUNGS,
    "e_under_load_latency": DEFAULT_LATENCY_RUNGS,
    "p_buckets_latency": _ms((200, 1.0), (400, 0.75), (800, 0.5), (1600, 0.25)),
    "p_sync_wall": _ms((90000, 1.0), (135000, 0.75), (180000, 0.5), (270000, 0.25)),
    "p_page_interactive": _ms((2000, 1.0), (3000, 0.75), (4500, 0.5), (8000, 0.25)),
    "j_first_use": _ms((2000, 1.0), (3000, 0.75), (4500, 0.5), (8000, 0.25)),
    "p_first_frame": _ms((3000, 1.0), (5000, 0.75), (8000, 0.5), (15000, 0.25)),
    "t_tooltip": _ms((150, 1.0), (400, 0.6), (1200, 0.3)),
    "e_optimistic_paint": _ms((100, 1.0), (250, 0.6), (800, 0.3)),
}
"""Methodology §09 rungs (ms); a scorer's thresholds file overrides them."""
DEFAULT_DRAG_RUNGS = (24, 18, 12, 6)
"""Methodology §09 drag floors (the frozen seed file says 48/36/24/12)."""


@dataclass(frozen=True)
class CheckSettings:
    """Calibration-owned numbers the checks grade against (from the scorer's thresholds)."""

    ladders: Mapping[str, tuple[Rung, ...]] = field(default_factory=lambda: dict(DEFAULT_LADDERS))
    k_p: float = 1.0
    drag_rungs: tuple[int, ...] = DEFAULT_DRAG_RUNGS
    """e_frames_under_drag frame floors, top first (a thresholds file's ``floors`` override)."""

    @classmethod
    def from_scorer(cls, scorer: Any) -> CheckSettings:
        ladders = dict(DEFAULT_LADDERS)
        for name in ladders:
            with contextlib.suppress(KeyError):
                ladders[name] = scorer.rungs(name)
        drag = DEFAULT_DRAG_RUNGS
        with contextlib.suppress(KeyError):
            drag = scorer.floors("e_frames_under_drag")
        return cls(ladders=ladders, k_p=scorer.k_p, drag_rungs=drag)


def result(check_id: str, score: float, detail: str, **evidence: Any) -> CheckResult:
    """PASS at full score, FAIL below it (the score keeps the partial credit)."""
    score = min(1.0, max(0.0, round(score, 6)))
    status = Status.PASS if score >= 1.0 - EXACT else Status.FAIL
    return CheckResult(check_id, status, score, detail, evidence)


def unavailable(check_id: str, detail: str, **evidence: Any) -> CheckResult:
    return CheckResult(check_id, Status.UNAVAILABLE, 0.0, detail, evidence)


def g(score: float) -> str:
    """A score as a detail prints it: ``1``, ``0.75``, ``0.6667``."""
    return f"{round(score, 4):g}"


def frac(hit: int, total: int) -> float:
    return hit / total if total else 0.0


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def instant(value: Any) -> datetime | None:
    """An RFC 3339 string with an offset (``Z`` allowed) as an aware datetime, else None."""
    if not isinstance(value, str) or len(value) < 19:
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None
