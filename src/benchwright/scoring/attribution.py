"""Root attribution: one root defect explains its dependents' shortfalls in the verdict.

Attribution changes words, never scores: a lossy sync that drags eight checks
down reads as "ONE defect, not 9", so nobody mistakes it for nine independent
failures. (Multiplier de-duplication is the criticals' business, not this one.)

Roots come from the scorer config (``roots:``, fixed dependents) and from the rows
themselves: a row whose evidence says ``blocked_by: X`` could not be measured because X
failed (an app that never booted fails every row that needed it running). Such a root
comes first and explains its blocked rows; a configured root that is itself blocked is
not named, since it is one more symptom of the same defect.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from benchwright.model import Attribution, CheckResult, ScoredRow
from benchwright.scoring.scorer import Scorer

BLOCKED_BY = "blocked_by"
"""The evidence key naming the check whose failure kept a row from being measured."""


def _short(row: ScoredRow | None) -> bool:
    return row is not None and row.counted is not None and row.counted < 1.0


def attribute(
    scorer: Scorer, rows: Mapping[str, ScoredRow], blocked: Mapping[str, str] | None = None
) -> tuple[Attribution, ...]:
    """An `Attribution` for every root that fell short (any shortfall, not only zero).

    A root both named by blocked rows and configured is one defect, so one line: the rows
    it blocked first, then its configured dependents that fell short too.

    Args:
        blocked: check id -> the check whose failure blocked it (``blocked_by`` evidence).
    """
    blocked = blocked or {}
    found: dict[str, list[str]] = {}
    for root in dict.fromkeys(blocked.values()):
        if _short(rows.get(root)):
            found[root] = [d for d, r in blocked.items() if r == root and _short(rows.get(d))]
    for root, dependents in scorer.config.roots.items():
        if root in blocked or not _short(rows.get(root)):
            continue
        listed = found.setdefault(root, [])
        listed += [d for d in dependents if d not in listed and _short(rows.get(d))]
    return tuple(
        Attribution(root, rows[root].counted, tuple(deps))  # type: ignore[arg-type]
        for root, deps in found.items()
    )


def blocked_rows(results: Iterable[CheckResult]) -> dict[str, str]:
    """Check id -> the check named by its ``blocked_by`` evidence, for `attribute`."""
    return {r.check_id: str(r.evidence[BLOCKED_BY]) for r in results if BLOCKED_BY in r.evidence}
