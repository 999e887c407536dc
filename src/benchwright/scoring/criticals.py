"""Critical-defect multipliers: ``factor = m + (1 - m) * severity``, compounding.

Severity is a property of the consequence, not of the tier: a wrong-money cliff
(``cliff``) prices any shortfall at 0; confirmed data loss (``data_loss``) caps
severity at 0.5; ``presence`` prices only a total absence (sb-7's j_loads_data);
``linear`` takes the score as is. With ``dedupe_by_root`` (sb-7) one defect
multiplies once: a critical whose root (transitively) is a critical that already
multiplied keeps its row but fires no multiplier of its own.
"""

from __future__ import annotations

from collections.abc import Mapping

from benchwright.model import CriticalFactor, ScoredRow
from benchwright.scoring.config import CriticalEntry
from benchwright.scoring.rounding import publish
from benchwright.scoring.scorer import Scorer


def severity(entry: CriticalEntry, score: float) -> float:
    """The severity input of one critical check (monotone in ``score``)."""
    if entry.transform == "cliff":
        return 0.0 if score < entry.below else score
    if entry.transform == "data_loss":
        return score if score >= 1.0 else min(score, entry.cap)
    if entry.transform == "presence":
        return 1.0 if score > 0.0 else 0.0
    return score


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
        sev = severity(entry, row.counted)
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
            return CriticalFactor(
                factor.check_id,
                factor.defect_class,
                factor.score,
                factor.severity,
                factor.factor,
                suppressed_by=root,
            )
    return factor
