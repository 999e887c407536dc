"""The "Checks" chapter of docs/sb7.md, rendered from the check registry
(`benchwright.suites.kit.checks_chapter`): each check's tier, weight, critical class and
root come from ``scorers/sb7.yaml``; what earns 1.0 and what lowers it, in our words,
from ``suites/sb7/checks.yaml`` (which must name exactly the scorer's ids).

sb-7 says more of a row than its weight, so the sentence under each heading does too:
a CRITICAL row multiplies the whole score, a root explains (and de-multiplies) its
dependents, a diagnostic is printed but averaged nowhere, and an excellence-gate
condition unlocks its share of the 0.12 slice. All of it is read from the scorer, so the
page cannot claim a multiplier the scorer does not apply.

Regenerate with ``make docs-sb7`` (or ``python -m benchwright.suites.sb7.docs_page
--write docs/sb7.md``); without ``--write`` the chapter is printed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from benchwright.scoring import Scorer
from benchwright.scoring.config import CriticalEntry
from benchwright.suites.kit.checks_chapter import ChecksChapter, Registry, render, row_weights


def _checks(scorer: Scorer) -> list[str]:
    """The scorer's checks: tier members and diagnostics (not the gate's evidence rows)."""
    return [c for c in scorer.wanted if c in scorer.tier_of or c in scorer.config.diagnostics]


def _opening(scorer: Scorer) -> str:
    excellence = scorer.config.excellence
    assert excellence is not None  # sb-7 has its slice: `_place` reads it too
    inner = scorer.config.components["inner"].weight
    return (f"The {len(_checks(scorer))} checks of `{scorer.name}` by the scorer's tiers, then "
            "the rows no tier averages: the two diagnostics and the excellence gate's "
            "`console_clean` evidence. A row scores 0 to 1. Its weight is the share of the "
            f"score it carries at 1.0: {inner:g} x its tier's weight over the tier's rows, or "
            f"{excellence.weight:g} over the {excellence.tier} rows when the gate is fully "
            "open (gamma is 1 until calibration). A CRITICAL row also multiplies the whole "
            "score by m + (1 - m) x severity, and one defect multiplies once: a failed root "
            "suppresses its dependents' multipliers.")  # fmt: skip


def _severity(entry: CriticalEntry) -> str:
    if entry.transform == "cliff":
        rule = ("0 on any shortfall" if entry.below >= 1.0
                else f"0 below {entry.below:g}, else the score")  # fmt: skip
    elif entry.transform == "data_loss":
        rule = f"capped at {entry.cap:g} on any shortfall"
    elif entry.transform == "presence":
        rule = "0 only when nothing at all is shown"
    else:
        rule = "the score itself"
    return ("read from the row's `severity_leg`, " if entry.leg else "") + rule


def _place(registry: Registry, check: str) -> str:
    scorer = registry.scorer
    config = scorer.config
    tier = scorer.tier_of.get(check)
    if check in config.diagnostics:
        sentences = ["Weight-zero diagnostic: printed on every card, averaged in no tier."]
    elif tier is None:
        sentences = ["Excellence-gate evidence: no weight of its own."]
    elif config.excellence and tier == config.excellence.tier:
        share = row_weights(scorer)[check] * 100
        sentences = [f"Tier {tier}, the excellence slice; weight {share:.3f} % of the score "
                     "with the gate fully open."]  # fmt: skip
    else:
        share = row_weights(scorer)[check] * 100
        sentences = [f"Tier {tier}, gamma {config.tiers[tier].gamma}; weight {share:.3f} % "
                     "of the score."]  # fmt: skip
    critical = {e.check: e for e in config.criticals.checks} if config.criticals else {}
    if check in critical:
        entry = critical[check]
        factor = f"{scorer.m:g} + {1 - scorer.m:g} x severity"
        sentences.append(f"CRITICAL ({entry.consequence}): multiplies the score by {factor}, "
                         f"severity {_severity(entry)}.")  # fmt: skip
    if check in config.roots:
        also = ", and its multiplier stands for theirs" if check in critical else ""
        sentences.append(f"Root of {len(config.roots[check])} rows: their shortfalls are "
                         f"attributed to it{also}.")  # fmt: skip
    conditions = config.excellence.conditions if config.excellence else []
    gates = [c.name for c in conditions if c.row_id == check]
    if gates:
        sentences.append(f"Excellence-gate condition `{gates[0]}`: 1/{len(conditions)} of the "
                         "gate.")  # fmt: skip
    return " ".join(sentences)


CHAPTER = ChecksChapter(
    module="benchwright.suites.sb7.docs_page",
    suite=Path("suites/sb7"),
    scorer_file="sb7.yaml",
    page=Path("docs/sb7.md"),
    make_target="docs-sb7",
    opening=_opening,
    place=_place,
)
load_registry = CHAPTER.load
main = CHAPTER.main

__all__ = ["CHAPTER", "load_registry", "main", "render"]

if __name__ == "__main__":
    sys.exit(main())
