"""The "Checks" chapter of docs/vendorsync.md, rendered from the check registry
(`benchwright.suites.kit.checks_chapter`): the tier, the hard mark and the weight of each
check come from ``scorers/sb52.yaml``; what earns 1.0 and what lowers it, in our words,
from ``suites/vendorsync/checks.yaml`` (which must name exactly the scorer's ids).

Regenerate with ``make docs-vendorsync`` (or ``python -m
benchwright.suites.vendorsync.docs_page --write docs/vendorsync.md``); without
``--write`` the chapter is printed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from benchwright.scoring import Scorer
from benchwright.suites.kit.checks_chapter import (
    ChecksChapter,
    Registry,
    chapter_of,
    render,
    row_weights,
    with_chapter,
)

HARD = "HARD"


def _opening(scorer: Scorer) -> str:
    return (f"{len(scorer.wanted)} checks of `{scorer.name}`, by the scorer's tiers (`{HARD}` "
            "is the hard block). A row scores 0 to 1; its weight is the share of the score it "
            "carries at 1.0 (every tier is the plain mean of its rows, so the weights add "
            "up to 100 %). A hard check counts only in the hard block, never in its home "
            "tier.")  # fmt: skip


def _place(registry: Registry, check: str) -> str:
    tier, home = registry.scorer.tier_of[check], registry.texts[check].home
    place = f"Hard block (home tier {home})" if home else f"Tier {tier}, not hard"
    return f"{place}; weight {row_weights(registry.scorer)[check] * 100:.3f} % of the score."


CHAPTER = ChecksChapter(
    module="benchwright.suites.vendorsync.docs_page",
    suite=Path("suites/vendorsync"),
    scorer_file="sb52.yaml",
    page=Path("docs/vendorsync.md"),
    make_target="docs-vendorsync",
    opening=_opening,
    place=_place,
    hard_tier=HARD,
)
load_registry = CHAPTER.load
main = CHAPTER.main

__all__ = ["CHAPTER", "chapter_of", "load_registry", "main", "render", "row_weights",
           "with_chapter"]  # fmt: skip

if __name__ == "__main__":
    sys.exit(main())
