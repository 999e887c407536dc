"""Implementation plans: the Markdown format ACE's P2 accepts, and its parser.

Plan format
-----------
A plan is a Markdown file of subtasks. A subtask is either

- a **headed block**: a heading (any level) whose text starts with an id, with an
  optional ``Subtask``/``Task``/``Step``/``Milestone`` word before it -
  ``## T1: Accounts schema``, ``### 2. Orders``, ``## Subtask 3 - Holdings``,
  ``## ST-4 Replay``; the block runs to the next heading of the same or a higher
  level (``## Risks`` ends it and is no subtask); or
- a **numbered item**, used only when no heading names an id: a line starting at
  column 0 with ``1.`` or ``1)``; its number is its id.

Inside a block, fields are label lines, optionally bulleted or bold
(``- **Goal:** ...``, ``Goal: ...``, ``**Depends on**: T1``), or sub-headings
(``### Acceptance criteria``). A field's value is the rest of its line plus the
lines after it up to the next label, and (once it has text) the next blank line:

- ``Id:`` (optional) overrides the id of the heading;
- ``Goal:`` / ``Objective:`` / ``Purpose:`` - must not be blank;
- ``Depends on:`` / ``Dependencies:`` / ``Deps:`` / ``Requires:`` /
  ``Prerequisites:`` - must be present; ``none``, ``n/a``, ``-``, ``[]`` or
  nothing at all declare an empty list, anything else must name subtask ids
  (``T1, T2``; ``subtask 1 and 2``) that exist, not the subtask itself, and
  without a cycle;
- ``Acceptance:`` / ``Acceptance criteria:`` / ``Done when:`` / ``Verification:``
  / ``Verify:`` / ``Exit criteria:`` - must not be blank.

Fenced code blocks are content, never structure. A file with no subtask, or with
two subtasks of one id, cannot be parsed (`PlanError`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

_ID = r"[A-Za-z]{0,4}[-_]?\d+(?:\.\d+)*"
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_HEADED_ID = re.compile(
    rf"(?:(?:sub-?task|task|step|milestone)\s*)?#?\s*({_ID})(?!\w)\s*[-.):\u2013\u2014]*\s*(.*)",
    re.IGNORECASE,
)
_NUMBERED = re.compile(r"^(\d+)[.)]\s+(.*)$")
_LABELS = {
    "id": r"id|identifier",
    "goal": r"goals?|objective|purpose",
    "deps": r"depends\s+on|dependencies|dependency|deps|requires|prerequisites?",
    "criterion": (
        r"acceptance\s+criteri(?:on|a)|acceptance|done\s+when|definition\s+of\s+done"
        r"|verification|verify|verified\s+by|exit\s+criteri(?:on|a)"
    ),
}
_LABEL = "|".join(f"(?P<{key}>{pattern})" for key, pattern in _LABELS.items())
_FIELD = re.compile(
    rf"^\s*(?:[-*+]\s+|\d+[.)]\s+)?[*_]{{0,2}}(?:{_LABEL})[*_]{{0,2}}\s*:[*_]{{0,2}}\s*(?P<v>.*)$",
    re.IGNORECASE,
)
_FIELD_HEADING = re.compile(
    rf"^#{{1,6}}\s+[*_]{{0,2}}(?:{_LABEL})[*_]{{0,2}}\s*:?\s*(?P<v>.*)$", re.I
)
_NO_DEPS = re.compile(
    r"(?:none|nothing|n/?a|-+|\[\s*\]|\(none\)|no\s+dep(?:endencie)?s|\u2013|\u2014)?\.?",
    re.IGNORECASE,
)
_DEP_ID = re.compile(rf"(?:(?:sub-?task|task|step)\s*)?#?({_ID})(?![\w])", re.IGNORECASE)
_MARKUP = re.compile(r"[*_`>\[\]]")


class PlanError(ValueError):
    """The plan has no structure this parser reads."""


@dataclass(frozen=True, slots=True)
class Subtask:
    """One parsed subtask; ``depends_on`` is None when no dependency list was declared."""

    id: str
    title: str
    line: int
    goal: str = ""
    depends_on: tuple[str, ...] | None = None
    criterion: str = ""
    fields: dict[str, str] = field(default_factory=dict, compare=False)


def parse_plan(text: str) -> list[Subtask]:
    """The subtasks of ``text``, in order.

    Raises:
        PlanError: no subtask found, or an id used twice.
    """
    lines = _outside_fences(text.splitlines())
    headed = any(_headed(line) for line in lines if line is not None)
    blocks = _blocks(lines, headed)
    if not blocks:
        raise PlanError("no subtask: no heading or numbered item starts with an id")
    subtasks = [_subtask(start, body) for start, body in blocks]
    seen: set[str] = set()
    for sub in subtasks:
        if _key(sub.id) in seen:
            raise PlanError(f"subtask id {sub.id} is used twice (line {sub.line})")
        seen.add(_key(sub.id))
    return subtasks


def plan_problems(subtasks: list[Subtask]) -> list[str]:
    """What each subtask lacks: a goal, a declared dependency list, a criterion, known deps."""
    ids = {_key(s.id): s.id for s in subtasks}
    problems: list[str] = []
    for sub in subtasks:
        name = f"subtask {sub.id} (line {sub.line})"
        if not _plain(sub.goal):
            problems.append(f"{name} has no goal")
        if sub.depends_on is None:
            problems.append(f"{name} declares no dependency list")
        if not _plain(sub.criterion):
            problems.append(f"{name} has no acceptance criterion")
        for dep in sub.depends_on or ():
            if _key(dep) == _key(sub.id):
                problems.append(f"{name} depends on itself")
            elif _key(dep) not in ids:
                problems.append(f"{name} depends on unknown subtask {dep}")
        if (
            "deps" in sub.fields
            and sub.depends_on == ()
            and not _NO_DEPS.fullmatch(_plain(sub.fields["deps"]))
        ):
            problems.append(f"{name} lists dependencies naming no subtask id")
    return problems or _cycle(subtasks)


def _outside_fences(lines: list[str]) -> list[str | None]:
    """The lines, with those inside fenced code blocks (and the fences) as None."""
    out: list[str | None] = []
    fenced = False
    for line in lines:
        fence = line.lstrip().startswith(("```", "~~~"))
        out.append(None if fenced or fence else line)
        fenced ^= fence
    return out


def _headed(line: str) -> re.Match[str] | None:
    heading = _HEADING.match(line)
    if heading is None or _FIELD_HEADING.match(line):
        return None
    return _HEADED_ID.fullmatch(_MARKUP.sub("", heading.group(2)).strip())


def _blocks(lines: list[str | None], headed: bool) -> list[tuple[tuple[int, str, str], list[str]]]:
    """(line number, id, title) and body lines of every subtask block."""
    blocks: list[tuple[tuple[int, str, str], list[str]]] = []
    level = 0
    for number, line in enumerate(lines, start=1):
        if line is None:
            continue
        heading = None if _FIELD_HEADING.match(line) else _HEADING.match(line)
        start = _headed(line) if headed else None if _FIELD.match(line) else _NUMBERED.match(line)
        if start is not None:
            level = len(heading.group(1)) if heading else 0
            blocks.append(((number, start.group(1), _MARKUP.sub("", start.group(2)).strip()), []))
        elif heading is not None and (not headed or len(heading.group(1)) <= level):
            blocks.append(((0, "", ""), []))  # a section that is no subtask: its lines are none's
        elif blocks:
            blocks[-1][1].append(line)
    return [block for block in blocks if block[0][0]]


def _subtask(start: tuple[int, str, str], body: list[str]) -> Subtask:
    number, ident, title = start
    values: dict[str, list[str]] = {}
    current: str | None = None
    for line in body:
        found = _FIELD.match(line) or _FIELD_HEADING.match(line)
        if found is not None:
            current = next(k for k in _LABELS if found.group(k))
            values.setdefault(current, []).append(found.group("v"))
        elif current is not None:
            if not line.strip() and _plain(" ".join(values[current])):
                current = None
            else:
                values[current].append(line)
    fields = {k: "\n".join(v).strip() for k, v in values.items()}
    sub = Subtask(ident, title, number, fields.get("goal", ""), None, fields.get("criterion", ""))
    if "id" in fields and _plain(fields["id"]):
        sub = replace(sub, id=_plain(fields["id"]).split()[0])
    if "deps" in fields:
        deps = _plain(fields["deps"])
        found_ids = () if _NO_DEPS.fullmatch(deps) else tuple(_DEP_ID.findall(deps))
        sub = replace(sub, depends_on=found_ids)
    return replace(sub, fields=fields)


def _plain(text: str) -> str:
    """``text`` without Markdown emphasis, code ticks, bullets and extra whitespace."""
    words = _MARKUP.sub(" ", re.sub(r"(?m)^\s*(?:[-*+]|\d+[.)])\s+", " ", text))
    return " ".join(words.split())


def _key(ident: str) -> str:
    return re.sub(r"[^a-z0-9.]", "", ident.lower())


def _cycle(subtasks: list[Subtask]) -> list[str]:
    """A dependency cycle, as one problem, or nothing."""
    deps = {_key(s.id): [_key(d) for d in s.depends_on or ()] for s in subtasks}
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> list[str] | None:
        if state.get(node) == 1:
            return [*path[path.index(node) :], node]
        if state.get(node) == 2:
            return None
        state[node] = 1
        for dep in deps.get(node, []):
            found = visit(dep, [*path, node])
            if found:
                return found
        state[node] = 2
        return None

    for node in deps:
        found = visit(node, [])
        if found:
            return [f"dependency cycle: {' -> '.join(found)}"]
    return []
