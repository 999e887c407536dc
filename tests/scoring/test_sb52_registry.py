"""`scorers/sb52.yaml` is the public sb-5.2 registry written down in docs/facts/sb52-checks.md:
the same 60 ids, each in the tier the facts give it, the six hard blocks counted only in the
hard mean. The facts note is what the check code and docs/vendorsync.md will follow, so the
two must not drift apart."""

from __future__ import annotations

import re
from pathlib import Path

from scoring.conftest import shipped

FACTS = Path(__file__).resolve().parents[2] / "docs" / "facts" / "sb52-checks.md"
ENTRY = re.compile(r"^\d+\. \*\*`(?P<id>\w+)`\*\* — (?:(?P<tier>[A-Z])\.|hard \(home [A-D]\))")


def facts_registry() -> dict[str, str]:
    """Check id -> tier as the facts note lists it (``HARD`` for a hard block)."""
    found: dict[str, str] = {}
    for line in FACTS.read_text(encoding="utf-8").splitlines():
        if m := ENTRY.match(line):
            assert m["id"] not in found, f"{m['id']} listed twice"
            found[m["id"]] = m["tier"] or "HARD"
    return found


def test_the_facts_note_lists_sixty_checks_six_of_them_hard() -> None:
    registry = facts_registry()
    assert len(registry) == 60
    assert sorted(registry.values()).count("HARD") == 6


def test_the_scorer_holds_exactly_the_registry_of_the_facts_note() -> None:
    scorer = shipped("sb52")
    assert scorer.tier_of == facts_registry()
    assert {t: len(scorer.members(t)) for t in "ABCDJVP"} == {
        "A": 6, "B": 16, "C": 10, "D": 8, "J": 5, "V": 6, "P": 3
    }  # fmt: skip


def test_its_synthetic_defects_order_by_harm_so_the_freeze_gate_accepts_it() -> None:
    from benchwright.scoring import selftest

    result = selftest(shipped("sb52"))
    assert result.passed, result.problems
    assert [name for name, _ in result.scores] == [
        "wrong-money", "data-loss", "dead-flow", "console-error", "minor", "cosmetic",
    ]  # fmt: skip
