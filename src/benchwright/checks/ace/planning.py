"""ACE P1-P3: the written task definition, the plan, and a plan phase that wrote no code.

- P1: ``docs/TASK_DEFINITION.md`` (at least 200 characters) has the eight
  sections, each recognised by its own keyword regex over the document's
  headings (Markdown ``#`` headings, setext headings, and lines that are a bold
  or ``Label:`` title on their own); passes with at most one missing.
- P2: ``docs/IMPLEMENTATION_PLAN.md`` parsed by `_plan` (its docstring and
  docs/ace.md "Plan format" describe what it reads); every subtask needs a goal,
  a declared dependency list and an acceptance criterion. An unparseable or
  missing plan is FAIL, never NOT_ATTEMPTED. The 3-6 subtasks the L3p prompt
  asks for are the prompt's instruction, not P2's rule (P2 also scores L7).
- P3: no non-doc file changed during the phases before implementation. Those
  are the phases named ``p0*``/``p1*`` or whose name says definition or plan
  (``p0_definition``, ``p1_plan``) and not implementation; the union of what
  they changed (from the trial's own git snapshots, `AceEnv.phase_changes`)
  may hold only docs: ``docs/``, ``task/`` and ``*.md``/``*.rst``/``*.txt``.

  Without snapshots (a workspace scored directly) the registry would scan the
  final tree, but a finished tree holds the implementation whenever the run
  succeeded, so that scan fails every good run; the issue's acceptance ("P3
  NOT_ATTEMPTED where no snapshots exist") wins: P3 is NOT_ATTEMPTED, and the
  final tree's non-doc files are reported in the evidence only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from typing import Any

from benchwright.checks.ace._env import AceEnv
from benchwright.checks.ace._files import Tree
from benchwright.checks.ace._plan import PlanError, parse_plan, plan_problems
from benchwright.checks.no_source_during_phase import DEFAULT_DOCS
from benchwright.model import CheckResult, Status
from benchwright.workspace import match_glob

DEFINITION = "docs/TASK_DEFINITION.md"
PLAN = "docs/IMPLEMENTATION_PLAN.md"
DEFINITION_MIN_CHARS = 200
DOC_GLOBS = (*DEFAULT_DOCS, "task/**")

SECTIONS: dict[str, re.Pattern[str]] = {
    name: re.compile(pattern, re.IGNORECASE)
    for name, pattern in {
        "scope/overview": r"^(?!.*\bout[- ]of[- ]scope\b).*\b(?:scope|overview|summary|purpose"
        r"|introduction|context|goals?)\b",
        "actors": r"\b(?:actors?|users?|personas?|roles?|stakeholders?)\b",
        "domain model": r"\b(?:domain|entit(?:y|ies)|data\s+model|model)\b",
        "service boundaries": r"\b(?:services?|boundar(?:y|ies)|architecture|components?"
        r"|bounded\s+contexts?)\b",
        "non-functional requirements": r"\bnon[- ]?functional\b|\bnfrs?\b|\bquality\s+attributes\b",
        "out-of-scope": r"\bout[- ]of[- ]scope\b|\bnon[- ]goals?\b|\bnot\s+in\s+scope\b"
        r"|\bexclu(?:sions?|ded)\b",
        "money handling": r"\b(?:money|monetary|decimals?|currenc(?:y|ies)|rounding)\b",
        "order states": r"\border\s+(?:states?|status(?:es)?|life\s*cycle)\b|\bstate\s+machine\b",
    }.items()
}
"""The eight sections of a task definition, each matched against heading texts."""

_ATX = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
_SETEXT = re.compile(r"^(.+)\n\s{0,3}(?:=+|-+)\s*$", re.MULTILINE)
_TITLE_LINE = re.compile(
    r"^[ \t]*(?:\*\*|__)(.+?)(?:\*\*|__)\s*:?\s*$|^([A-Z][^:\n]{2,60}):\s*$", re.M
)
_PLANNING_PHASE = re.compile(r"^p[01](?![0-9])|plan|defin", re.IGNORECASE)


def headings(text: str) -> list[str]:
    """The heading texts of a Markdown document, in the three forms P1 reads."""
    titles = [m.group(1) for m in _ATX.finditer(text)]
    titles += [m.group(1) for m in _SETEXT.finditer(text) if m.group(1).strip()]
    titles += [m.group(1) or m.group(2) for m in _TITLE_LINE.finditer(text)]
    return [t.strip() for t in titles]


def _p1(env: AceEnv, tree: Tree) -> CheckResult:
    if tree.size(DEFINITION) is None:
        return CheckResult.failing("P1", f"{DEFINITION} is missing")
    text = tree.text(DEFINITION)
    if len(text) < DEFINITION_MIN_CHARS:
        return CheckResult.failing(
            "P1", f"{DEFINITION} has {len(text)} characters (needs {DEFINITION_MIN_CHARS})"
        )
    titles = headings(text)
    found = {
        name: next((t for t in titles if pattern.search(t)), None)
        for name, pattern in SECTIONS.items()
    }
    missing = [name for name, title in found.items() if title is None]
    evidence: dict[str, Any] = {"sections": found, "missing": missing}
    tally = f"{len(SECTIONS) - len(missing)} of {len(SECTIONS)} sections"
    if len(missing) <= 1:
        gap = f" (missing {missing[0]})" if missing else ""
        return CheckResult.passing("P1", f"{DEFINITION} has {tally}{gap}", **evidence)
    return CheckResult.failing(
        "P1", f"{DEFINITION} has {tally}; missing {', '.join(missing)}", **evidence
    )


def _p2(env: AceEnv, tree: Tree) -> CheckResult:
    if tree.size(PLAN) is None:
        return CheckResult.failing("P2", f"{PLAN} is missing")
    try:
        subtasks = parse_plan(tree.text(PLAN))
    except PlanError as exc:
        return CheckResult.failing("P2", f"{PLAN} is unparseable: {exc}")
    evidence: dict[str, Any] = {"subtasks": [s.id for s in subtasks]}
    problems = plan_problems(subtasks)
    if problems:
        more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
        return CheckResult.failing(
            "P2", f"{PLAN}: {problems[0]}{more}", problems=problems, **evidence
        )
    ids = ", ".join(s.id for s in subtasks)
    return CheckResult.passing(
        "P2",
        f"{PLAN}: {len(subtasks)} subtask(s) ({ids}), each with goal, dependencies and criterion",
        **evidence,
    )


def _is_doc(rel: str) -> bool:
    return any(match_glob(rel, glob) for glob in DOC_GLOBS)


def _p3(env: AceEnv, tree: Tree) -> CheckResult:
    if env.phase_changes is None:
        source = [f for f in tree.files if not _is_doc(f)]
        return CheckResult(
            "P3", Status.NOT_ATTEMPTED, 0.0,
            f"no phase snapshots (workspace scored directly): the final tree's {len(source)} "
            "non-doc file(s) cannot tell when they were written",
            {"final_tree_source": source[:50]},
        )  # fmt: skip
    phases = [p for p in env.phase_changes if _PLANNING_PHASE.search(p) and "impl" not in p]
    if not phases:
        recorded = ", ".join(env.phase_changes)
        return CheckResult(
            "P3", Status.NOT_ATTEMPTED, 0.0,
            f"the snapshots record no definition/plan phase (phases: {recorded})",
        )  # fmt: skip
    changed = sorted({str(f) for p in phases for f in env.phase_changes[p]})
    source = [f for f in changed if not _is_doc(f)]
    evidence: dict[str, Any] = {"phases": phases, "changed": changed, "source": source}
    if source:
        more = f" (+{len(source) - 1} more)" if len(source) > 1 else ""
        return CheckResult.failing(
            "P3", f"{'/'.join(phases)} changed source file {source[0]}{more}", **evidence
        )
    return CheckResult.passing(
        "P3", f"{'/'.join(phases)} changed {len(changed)} doc file(s) and no source", **evidence
    )


_CHECKS: dict[str, Callable[[AceEnv, Tree], CheckResult]] = {"P1": _p1, "P2": _p2, "P3": _p3}
IDS = frozenset(_CHECKS)


def run(env: AceEnv, wanted: Collection[str]) -> dict[str, CheckResult]:
    """One record per wanted planning id (P1-P3)."""
    tree = Tree(env.workspace)
    return {check_id: _CHECKS[check_id](env, tree) for check_id in sorted(IDS & set(wanted))}
