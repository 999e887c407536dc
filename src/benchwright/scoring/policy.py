"""Composition policies: what each status counts for, decided by the scorer, never the check.

``fixed-denominator`` (ACE): every wanted check stays in the denominator; SKIPPED,
INFRA and UNAVAILABLE count 0 and mark the result partial, so a machine without
Docker can never show a clean 100 %. ``measured-mean`` (sb-6/7): a harness-fault
row leaves its mean, is listed loudly and forbids the excellent flag, because an
unproven measurement licenses nothing in either direction. In both, NOT_ATTEMPTED
is a fail and a wanted check with no row is FAIL.
"""

from __future__ import annotations

from collections.abc import Iterable

from benchwright.model import CheckResult, ScoredRow, Status
from benchwright.scoring.criticals import severity_leg
from benchwright.scoring.scorer import Scorer

MISSING_DETAIL = "no result arrived: a wanted check with no row is FAIL"


def counted_score(status: Status, score: float, policy: str) -> float | None:
    """The score a policy counts for one row; None means the row leaves its mean."""
    if status is Status.NOT_ATTEMPTED:
        return 0.0
    if status.is_harness_fault:
        return None if policy == "measured-mean" else 0.0
    return score


def _role(scorer: Scorer, check: str) -> str:
    if check in scorer.config.diagnostics:
        return "diagnostic"
    return "weighted" if check in scorer.tier_of else "evidence"


def resolve_rows(results: Iterable[CheckResult], scorer: Scorer) -> tuple[ScoredRow, ...]:
    """One `ScoredRow` per wanted check, in scorer order; rows it does not want are dropped."""
    by_id: dict[str, CheckResult] = {}
    for result in results:
        by_id.setdefault(result.check_id, result)
    policy = scorer.config.policy
    resolved = []
    for check in scorer.wanted:
        common = {
            "tier": scorer.tier_of.get(check),
            "role": _role(scorer, check),
            "weight": scorer.weight(check),
        }
        result = by_id.get(check)
        if result is None:
            row = ScoredRow(
                check, Status.FAIL, 0.0, 0.0, detail=MISSING_DETAIL, missing=True, **common
            )
        else:
            counted = counted_score(result.status, result.score, policy)
            row = ScoredRow(
                check, result.status, result.score, counted, detail=result.detail,
                severity_leg=severity_leg(result.evidence), **common,
            )  # fmt: skip
        resolved.append(row)
    return tuple(resolved)
