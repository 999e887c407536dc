"""Root attribution: one root defect explains its dependents' shortfalls in the verdict.

Attribution changes words, never scores: a lossy sync that drags eight checks
down reads as "ONE defect, not 9", so nobody mistakes it for nine independent
failures. (Multiplier de-duplication is the criticals' business, not this one.)
"""

from __future__ import annotations

from collections.abc import Mapping

from benchwright.model import Attribution, ScoredRow
from benchwright.scoring.scorer import Scorer


def _short(row: ScoredRow | None) -> bool:
    return row is not None and row.counted is not None and row.counted < 1.0


def attribute(scorer: Scorer, rows: Mapping[str, ScoredRow]) -> tuple[Attribution, ...]:
    """An `Attribution` for every root that fell short (any shortfall, not only zero)."""
    found = []
    for root, dependents in scorer.config.roots.items():
        row = rows.get(root)
        if row is None or row.counted is None or not _short(row):
            continue
        short = tuple(d for d in dependents if _short(rows.get(d)))
        found.append(Attribution(root, row.counted, short))
    return tuple(found)
