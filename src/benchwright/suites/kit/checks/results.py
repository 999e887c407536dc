"""What every suite's checks build their rows from: the row constructors, the way a
detail prints a score, ladders of milliseconds, and the small readers of wire values."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from benchwright.model import CheckResult, Status
from benchwright.scoring import Rung

EXACT = 1e-9


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


def ladder_ms(*pairs: tuple[float, float]) -> tuple[Rung, ...]:
    """A latency ladder from ``(milliseconds, score)`` pairs, top rung first."""
    return tuple(Rung(at, score) for at, score in pairs)


def scorer_ladders(
    scorer: Any, defaults: Mapping[str, tuple[Rung, ...]]
) -> dict[str, tuple[Rung, ...]]:
    """``defaults``, each overridden by the scorer's thresholds file where it names one:
    calibration owns the numbers, the suite only its starting rungs."""
    ladders = dict(defaults)
    for name in ladders:
        with contextlib.suppress(KeyError):
            ladders[name] = scorer.rungs(name)
    return ladders
