"""P1-P3 over real documents, and the plan parser P2 relies on."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchwright.checks.ace import planning
from benchwright.checks.ace._plan import PlanError, parse_plan, plan_problems
from benchwright.model import Status

from ._offline_builders import score, write

DEFINITION = """# Trading platform: task definition

## Scope
A small trading platform: accounts, deposits, orders that fill at once, holdings as of an instant.

## Actors
Traders who hold accounts; operators who run the stack.

## Domain model
Account, Deposit, Order, Fill, Holding.

## Service boundaries
account-service owns balances; order-service owns orders and calls account-service over HTTP.

## Non-functional requirements
Builds from a clean checkout; tests need only PostgreSQL.

## Out of scope
Margin trading, partial fills, authentication.

## Money handling
BigDecimal everywhere, decimal strings on the wire, HALF_EVEN to 2 dp.

## Order states
NEW, then FILLED or CANCELLED; both terminal.
"""

PLAN = """# Implementation plan

Subtasks in order; each names what proves it done.

## T1: Accounts schema
- **Goal:** a Flyway migration and an Account entity with BigDecimal balances.
- **Depends on:** none
- **Acceptance:** `gradle test` runs AccountRepositoryTest green on PostgreSQL.

## T2: Deposits
Goal: POST /accounts/{id}/deposits rounds HALF_EVEN to 2 dp.
Dependencies: T1
Acceptance criteria:
- "0.005" reads back "0.00"
- "0.015" reads back "0.02"

## T3: Orders and holdings
Goal: immediate fills and holdings as of an exclusive instant.
Depends on: T1, T2
Done when: a buy then an equal sell restores balance and holdings in a test.

## Risks
- Goal: this section is not a subtask and its lines belong to none.
"""


# P1 ------------------------------------------------------------------------------------


def test_p1_passes_all_eight_sections(tmp_path: Path) -> None:
    write(tmp_path, {planning.DEFINITION: DEFINITION})
    result = score(planning, tmp_path, "P1")
    assert result.status is Status.PASS
    assert result.detail == "docs/TASK_DEFINITION.md has 8 of 8 sections"


def test_p1_passes_with_one_section_missing_and_names_it(tmp_path: Path) -> None:
    write(tmp_path, {planning.DEFINITION: DEFINITION.replace("## Actors", "## People")})
    result = score(planning, tmp_path, "P1")
    assert result.status is Status.PASS
    assert result.detail == "docs/TASK_DEFINITION.md has 7 of 8 sections (missing actors)"


def test_p1_fails_with_two_missing_naming_both(tmp_path: Path) -> None:
    text = DEFINITION.replace("## Actors", "## People").replace("## Order states", "## Flow")
    write(tmp_path, {planning.DEFINITION: text})
    result = score(planning, tmp_path, "P1")
    assert result.status is Status.FAIL
    assert result.detail == (
        "docs/TASK_DEFINITION.md has 6 of 8 sections; missing actors, order states"
    )


def test_p1_an_out_of_scope_heading_is_not_the_scope(tmp_path: Path) -> None:
    text = DEFINITION.replace("## Scope", "## Background").replace("## Actors", "## People")
    write(tmp_path, {planning.DEFINITION: text})
    assert "missing scope/overview, actors" in score(planning, tmp_path, "P1").detail


def test_p1_reads_keywords_in_headings_not_in_prose(tmp_path: Path) -> None:
    prose = (
        "This document covers scope, actors, the domain model, service boundaries, "
        "non-functional requirements, what is out of scope, money handling and order states, "
        "all in one paragraph with no headings at all."
    )
    write(tmp_path, {planning.DEFINITION: prose})
    result = score(planning, tmp_path, "P1")
    assert result.status is Status.FAIL
    assert "has 0 of 8 sections" in result.detail


def test_p1_reads_bold_and_label_titles(tmp_path: Path) -> None:
    text = "\n\n".join(
        ["**Overview**", "Actors:", "__Domain model__", "Services:", "Non-functional:",
         "Out of scope:", "Money handling:", "Order states:", "x" * 120]
    )  # fmt: skip
    write(tmp_path, {planning.DEFINITION: text})
    assert score(planning, tmp_path, "P1").detail.endswith("has 8 of 8 sections")


def test_p1_fails_a_short_or_missing_definition(tmp_path: Path) -> None:
    assert score(planning, tmp_path, "P1").detail == "docs/TASK_DEFINITION.md is missing"
    write(tmp_path, {planning.DEFINITION: "## Scope\n" + "x" * 190})
    assert score(planning, tmp_path, "P1").detail == (
        "docs/TASK_DEFINITION.md has 199 characters (needs 200)"
    )


# P2 ------------------------------------------------------------------------------------


def test_p2_passes_a_plan_whose_subtasks_are_complete(tmp_path: Path) -> None:
    write(tmp_path, {planning.PLAN: PLAN})
    result = score(planning, tmp_path, "P2")
    assert result.status is Status.PASS
    assert result.detail == (
        "docs/IMPLEMENTATION_PLAN.md: 3 subtask(s) (T1, T2, T3), "
        "each with goal, dependencies and criterion"
    )


def test_p2_fails_a_subtask_without_a_criterion(tmp_path: Path) -> None:
    text = PLAN.replace("Done when: a buy then an equal sell", "Notes: a buy then an equal sell")
    write(tmp_path, {planning.PLAN: text})
    result = score(planning, tmp_path, "P2")
    assert result.status is Status.FAIL
    assert result.detail == (
        "docs/IMPLEMENTATION_PLAN.md: subtask T3 (line 17) has no acceptance criterion"
    )


def test_p2_fails_an_undeclared_dependency_list_and_a_blank_goal(tmp_path: Path) -> None:
    text = PLAN.replace("Dependencies: T1\n", "").replace(
        "- **Goal:** a Flyway migration and an Account entity with BigDecimal balances.",
        "- **Goal:**",
    )
    write(tmp_path, {planning.PLAN: text})
    result = score(planning, tmp_path, "P2")
    assert result.evidence["problems"] == [
        "subtask T1 (line 5) has no goal",
        "subtask T2 (line 10) declares no dependency list",
    ]
    assert result.detail.endswith("subtask T1 (line 5) has no goal (+1 more)")


def test_p2_an_unparseable_plan_fails_not_not_attempted(tmp_path: Path) -> None:
    write(tmp_path, {planning.PLAN: "# Plan\n\nWe will build the accounts first, then orders.\n"})
    result = score(planning, tmp_path, "P2")
    assert result.status is Status.FAIL
    assert result.detail == (
        "docs/IMPLEMENTATION_PLAN.md is unparseable: "
        "no subtask: no heading or numbered item starts with an id"
    )


def test_p2_fails_a_missing_plan(tmp_path: Path) -> None:
    result = score(planning, tmp_path, "P2")
    assert result.status is Status.FAIL
    assert result.detail == "docs/IMPLEMENTATION_PLAN.md is missing"


def test_the_parser_reads_numbered_items(tmp_path: Path) -> None:
    text = (
        "Plan\n\n1. **Schema**\n   - Goal: tables\n   - Deps: []\n   - Verify: migration test\n"
        "2) Orders\n   - Goal: orders\n   - Requires: subtask 1\n   - Verify: F1 scenario\n"
    )
    subtasks = parse_plan(text)
    assert [(s.id, s.title, s.depends_on) for s in subtasks] == [
        ("1", "Schema", ()),
        ("2", "Orders", ("1",)),
    ]
    assert plan_problems(subtasks) == []


def test_the_parser_reads_field_subheadings_and_ignores_fenced_code() -> None:
    text = (
        "## Step 1 - Schema\n### Goal\nTables.\n### Dependencies\nnone\n"
        "### Acceptance criteria\n```\n## T9: not a subtask\nGoal: nothing\n```\n"
        "The migration test passes.\n"
    )
    (sub,) = parse_plan(text)
    assert (sub.id, sub.goal, sub.depends_on) == ("1", "Tables.", ())
    assert sub.criterion == "The migration test passes."


@pytest.mark.parametrize(
    ("deps", "problem"),
    [
        ("T7", "subtask T2 (line 5) depends on unknown subtask T7"),
        ("T2", "subtask T2 (line 5) depends on itself"),
        ("the schema work", "subtask T2 (line 5) lists dependencies naming no subtask id"),
    ],
)
def test_the_parser_rejects_dependencies_it_cannot_resolve(deps: str, problem: str) -> None:
    text = "## T1 a\nGoal: g\nDeps: none\nAcceptance: c\n" + (
        f"## T2 b\nGoal: g\nDeps: {deps}\nAcceptance: c\n"
    )
    assert plan_problems(parse_plan(text)) == [problem]


def test_the_parser_finds_a_dependency_cycle() -> None:
    text = "".join(f"## T{i}\nGoal: g\nDeps: T{3 - i}\nAcceptance: c\n" for i in (1, 2))
    assert plan_problems(parse_plan(text)) == ["dependency cycle: t1 -> t2 -> t1"]


def test_the_parser_rejects_a_repeated_id() -> None:
    with pytest.raises(PlanError, match="subtask id T1 is used twice"):
        parse_plan("## T1 a\nGoal: g\n## T1 b\nGoal: h\n")


# P3 ------------------------------------------------------------------------------------


def test_p3_passes_when_the_plan_phases_wrote_only_docs(tmp_path: Path) -> None:
    changes = {
        "p0_definition": ["docs/TASK_DEFINITION.md"],
        "p1_plan": ["docs/IMPLEMENTATION_PLAN.md", "README.md", "task/notes.txt"],
        "p2_implementation": ["svc/src/main/java/App.java"],
    }
    result = score(planning, tmp_path, "P3", phase_changes=changes)
    assert result.status is Status.PASS
    assert result.detail == "p0_definition/p1_plan changed 4 doc file(s) and no source"


def test_p3_fails_source_written_while_planning(tmp_path: Path) -> None:
    changes = {
        "p1_plan": ["docs/IMPLEMENTATION_PLAN.md", "svc/build.gradle", "svc/src/main/A.java"],
        "p2_implementation": [],
    }
    result = score(planning, tmp_path, "P3", phase_changes=changes)
    assert result.status is Status.FAIL
    assert result.detail == "p1_plan changed source file svc/build.gradle (+1 more)"
    assert result.evidence["source"] == ["svc/build.gradle", "svc/src/main/A.java"]


def test_p3_is_not_attempted_without_snapshots(tmp_path: Path) -> None:
    write(tmp_path, {"docs/PROGRESS.md": "x", "svc/src/main/A.java": "class A {}"})
    result = score(planning, tmp_path, "P3")
    assert result.status is Status.NOT_ATTEMPTED
    assert result.detail == (
        "no phase snapshots (workspace scored directly): "
        "the final tree's 1 non-doc file(s) cannot tell when they were written"
    )
    assert result.evidence["final_tree_source"] == ["svc/src/main/A.java"]


def test_p3_is_not_attempted_when_no_phase_is_a_planning_phase(tmp_path: Path) -> None:
    result = score(planning, tmp_path, "P3", phase_changes={"p2_implementation": ["A.java"]})
    assert result.status is Status.NOT_ATTEMPTED
    assert "no definition/plan phase (phases: p2_implementation)" in result.detail


def test_the_documented_plan_example_parses_cleanly() -> None:
    doc = (Path(__file__).parents[3] / "docs/ace.md").read_text(encoding="utf-8")
    section = doc.split("## Plan format", 1)[1]
    example = section.split("```markdown\n", 1)[1].split("```", 1)[0]
    subtasks = parse_plan(example)
    assert [s.id for s in subtasks] == ["T1", "T2"]
    assert plan_problems(subtasks) == []


# Fields that share a line, or sit in tables (issue #24, item 19) ------------------------

SHARED_LINE_PLAN = (
    "# Plan\n\n## T1 - Ledger tables\n"
    "- Goal: migrations for accounts and the ledger.\n"
    "- Services: account-service. Dependencies: none.\n"
    "- Acceptance criterion: the schema test passes.\n\n"
    "## T2 - Deposits\n"
    "- Goal: deposit endpoint with HALF_EVEN rounding.\n"
    "- Services: account-service; Depends on: T1.\n"
    "- Acceptance criterion: the rounding test passes. Oracle: F5.\n"
)


def test_the_parser_reads_fields_that_share_a_line(tmp_path: Path) -> None:
    """The layout of ACE's own known-good plan: a label after another segment's end."""
    first, second = parse_plan(SHARED_LINE_PLAN)
    assert (first.depends_on, second.depends_on) == ((), ("T1",))
    # a label of no field of ours (`Oracle:`) is part of the value before it
    assert second.criterion == "the rounding test passes. Oracle: F5."
    assert plan_problems([first, second]) == []
    write(tmp_path, {planning.PLAN: SHARED_LINE_PLAN})
    assert score(planning, tmp_path, "P2").status is Status.PASS


def test_a_label_inside_a_sentence_starts_no_field() -> None:
    """Only a segment's start is a label's place: 'the goal: x' mid-sentence is prose."""
    text = "## T1 a\n- Goal: keep the goal: small and the deps: none\n- Acceptance: c\n"
    (sub,) = parse_plan(text)
    assert sub.depends_on is None
    assert plan_problems([sub]) == ["subtask T1 (line 1) declares no dependency list"]


def test_the_parser_reads_key_value_rows_cells_and_label_headed_tables() -> None:
    text = (
        "## T1 Schema\n| Goal | tables |\n|---|---|\n| Depends on | none |\n"
        "| Acceptance | migration test |\n\n"
        "## T2 Orders\n| Goal: orders | Dependencies: T1 | Verify: F1 scenario |\n\n"
        "## T3 Holdings\n| Goal | Depends on | Done when |\n|:--|:-:|--:|\n"
        "| holdings as of a date | T1, T2 | F8 scenario |\n"
    )
    subs = parse_plan(text)
    assert [(s.goal, s.depends_on, s.criterion) for s in subs] == [
        ("tables", (), "migration test"),
        ("orders", ("T1",), "F1 scenario"),
        ("holdings as of a date", ("T1", "T2"), "F8 scenario"),
    ]
    assert plan_problems(subs) == []


def test_a_table_without_the_dependency_column_still_fails() -> None:
    text = "## T1 a\n| Goal | Done when |\n|---|---|\n| g | c |\n"
    (sub,) = parse_plan(text)
    assert plan_problems([sub]) == ["subtask T1 (line 1) declares no dependency list"]
