"""Critical-defect multipliers: ``factor = m + (1 - m) * severity``, compounding.

Severity is a property of the consequence, not of the tier: a wrong-money cliff
(``cliff``) prices any shortfall at 0; confirmed data loss (``data_loss``) caps
severity at 0.5; ``presence`` prices only a total absence (sb-7's j_loads_data);
``linear`` takes the score as is. An entry with ``leg`` reads the fraction its check
measured for the consequence (the row's ``severity_leg``) instead of the score: sb-7's
binary data-loss rows are sized by what they kept, its DST trap by the DST-window cells
alone. With ``dedupe_by_root`` (sb-7) one defect multiplies once: a critical whose root
(transitively) is a critical that already multiplied keeps its row but fires no
multiplier of its own.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from benchwright.model import CriticalFactor, ScoredRow
from benchwright.scoring.config import CriticalEntry
from benchwright.scoring.rounding import publish
from benchwright.scoring.scorer import Scorer

SEVERITY_LEG = "severity_leg"
"""The evidence key a check reports its critical's severity fraction under."""


def severity_leg(evidence: Mapping[str, Any]) -> float | None:
    """The ``severity_leg`` a row's evidence reports, clamped to [0, 1]; None when it
    reports no finite number (the score then stands)."""
    value = evidence.get(SEVERITY_LEG)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return min(1.0, max(0.0, float(value)))


def leg_evidence(leg: float | None) -> dict[str, float]:
    """The evidence that gives a rebuilt row its leg back (a card row read again)."""
    return {} if leg is None else {SEVERITY_LEG: leg}


def severity(entry: CriticalEntry, score: float, measured: float | None = None) -> float:
    """The severity input of one critical check (monotone in ``score`` and ``measured``).

    Args:
        measured: the row's leg, for an entry that reads one; None feeds the score. A row
            at full marks held its invariant, whatever the leg says.
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


def critical_factors(scorer: Scorer, rows: Mapping[str, ScoredRow]) -> tuple[CriticalFactor, ...]:
    """One factor per critical check the scorer wants; unmeasured rows multiply by 1."""
    config = scorer.config.criticals
    if config is None:
        return ()
    m, digits = scorer.m, scorer.config.publish_digits
    raw: list[CriticalFactor] = []
    for entry in config.checks:
        row = rows.get(entry.check)
        if row is None:
            continue
        if row.counted is None:
            raw.append(CriticalFactor(entry.check, entry.consequence, None, 1.0, 1.0))
            continue
        sev = severity(entry, row.counted, row.severity_leg if entry.leg else None)
        factor = publish(m + (1 - m) * sev, digits)
        raw.append(CriticalFactor(entry.check, entry.consequence, row.counted, sev, factor))
    if not config.dedupe_by_root:
        return tuple(raw)
    fired = {f.check_id for f in raw if f.factor < 1.0}
    return tuple(_suppress(f, scorer.config.roots, fired) for f in raw)


def _suppress(
    factor: CriticalFactor, roots: Mapping[str, list[str]], fired: set[str]
) -> CriticalFactor:
    if factor.factor >= 1.0:
        return factor
    for root in _ancestors(roots, factor.check_id):
        if root in fired:
            return replace(factor, suppressed_by=root)
    return factor
