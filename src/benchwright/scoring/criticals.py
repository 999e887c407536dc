"""Critical-defect multipliers: ``factor = m + (1 - m) * severity``, compounding.

Severity is a property of the consequence, not of the tier: a wrong-money cliff
(``cliff``) prices any shortfall at 0; confirmed data loss (``data_loss``) caps
severity at 0.5; ``presence`` prices only a total absence (sb-7's j_loads_data);
``linear`` takes the score as is. The input is the row's score, or the fraction its
entry's ``leg`` names in the row's evidence (sb-7: a binary row prices its data loss by
the rows it kept; the DST trap by the DST-window cells alone). With ``dedupe_by_root``
(sb-7) one defect multiplies once: a critical whose root (transitively) is a critical
that already multiplied keeps its row but fires no multiplier of its own, and so does a
critical that was vacuous because the check its ``blocked_by`` evidence names failed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from benchwright.model import CriticalFactor, ScoredRow
from benchwright.scoring.attribution import BLOCKED_BY, fell_short
from benchwright.scoring.config import CriticalEntry
from benchwright.scoring.rounding import publish
from benchwright.scoring.scorer import Scorer

Evidence = Mapping[str, Mapping[str, Any]]
"""Check id -> its row's evidence."""


def severity(entry: CriticalEntry, score: float, measured: float | None = None) -> float:
    """The severity input of one critical check (monotone in ``score`` and ``measured``).

    Args:
        measured: the fraction the entry's ``leg`` read from the row's evidence; None
            feeds the score. A row at full marks held its invariant, whatever the leg says.
    """
    if score >= 1.0:
        return 1.0
    value = score if measured is None else measured
    if entry.transform == "cliff":
        return 0.0 if value < entry.below else value
    if entry.transform == "data_loss":
        return min(value, entry.cap)
    if entry.transform == "presence":
        return 1.0 if value > 0.0 else 0.0
    return value


def leg_value(entry: CriticalEntry, evidence: Mapping[str, Any]) -> float | None:
    """The entry's leg read from ``evidence``, clamped to [0, 1]; None when the entry has
    no leg or the row carries no finite number under it (its score then stands)."""
    value = evidence.get(entry.leg) if entry.leg else None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return min(1.0, max(0.0, float(value)))


def _ancestors(roots: Mapping[str, list[str]], check: str) -> list[str]:
    """Roots above ``check``, nearest first (breadth-first, cycles ignored)."""
    parents: dict[str, list[str]] = {}
    for root, deps in roots.items():
        for dep in deps:
            parents.setdefault(dep, []).append(root)
    found: list[str] = []
    frontier = list(parents.get(check, []))
    while frontier:
        node = frontier.pop(0)
        if node in found or node == check:
            continue
        found.append(node)
        frontier += parents.get(node, [])
    return found


def critical_factors(
    scorer: Scorer, rows: Mapping[str, ScoredRow], evidence: Evidence | None = None
) -> tuple[CriticalFactor, ...]:
    """One factor per critical check the scorer wants; unmeasured rows multiply by 1.

    Args:
        evidence: check id -> its row's evidence, where a ``leg`` and ``blocked_by`` are
            read (none: every severity input is the score, and nothing is blocked).
    """
    config = scorer.config.criticals
    if config is None:
        return ()
    evidence = evidence or {}
    m, digits = scorer.m, scorer.config.publish_digits
    raw: list[CriticalFactor] = []
    for entry in config.checks:
        row = rows.get(entry.check)
        if row is None:
            continue
        if row.counted is None:
            raw.append(CriticalFactor(entry.check, entry.consequence, None, 1.0, 1.0))
            continue
        sev = severity(entry, row.counted, leg_value(entry, evidence.get(entry.check, {})))
        factor = publish(m + (1 - m) * sev, digits)
        raw.append(CriticalFactor(entry.check, entry.consequence, row.counted, sev, factor))
    if not config.dedupe_by_root:
        return tuple(raw)
    fired = {f.check_id for f in raw if f.factor < 1.0}
    return tuple(_suppress(f, scorer.config.roots, fired, rows, evidence) for f in raw)


def _suppress(
    factor: CriticalFactor,
    roots: Mapping[str, list[str]],
    fired: set[str],
    rows: Mapping[str, ScoredRow],
    evidence: Evidence,
) -> CriticalFactor:
    """``factor``, marked suppressed by the failed root that already priced its defect:
    the check its row was vacuous for (``blocked_by``), else a configured root that fired."""
    if factor.factor >= 1.0:
        return factor
    blocker = str(evidence.get(factor.check_id, {}).get(BLOCKED_BY, ""))
    if blocker and blocker != factor.check_id and fell_short(rows.get(blocker)):
        return replace(factor, suppressed_by=blocker)
    for root in _ancestors(roots, factor.check_id):
        if root in fired:
            return replace(factor, suppressed_by=root)
    return factor
