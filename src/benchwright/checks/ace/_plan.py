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

Inside a block, a field starts wherever a label starts a segment of a line:
at the start of a line, optionally bulleted or bold (``- **Goal:** ...``,
``Goal: ...``, ``**Depends on**: T1``), after a sentence's end on a line that
holds several (``- Services: account-service. Dependencies: none.``, the
layout of ACE's own known-good plan), or in a table cell (``| Goal: ... |``);
a two-cell table row whose first cell is a label (``| Depends on | T1 |``); a
table whose header cells are labels (its rows' cells are their values); or a
sub-heading (``### Acceptance criteria``). A field's value is the rest of its
segment plus the lines after it up to the next label, and (once it has text) the
next blank line:

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
_SEGMENT_FIELD = re.compile(
    rf"(?:^\s*(?:[-*+]\s+|\d+[.)]\s+)?|(?<=[.;!?])\s+)"
    rf"[*_]{{0,2}}(?:{_LABEL})[*_]{{0,2}}\s*:[*_]{{0,2}}\s*",
    re.IGNORECASE,
)
"""A label starting a segment: the line's start, or after a sentence's end on it."""
_TABLE_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_TABLE_RULE = re.compile(r"[\s|:-]*")
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
    columns: list[str | None] | None = None  # a label table's header, once seen
    for line in body:
        cells = _table_cells(line)
        columns = columns if cells is not None else None
        if cells == []:  # a table's rule row
            continue
        if cells is not None and columns is None and all(map(_label_key, cells)):
            columns = [_label_key(cell) for cell in cells]
            continue
        prefix, found = _line_fields(line, cells, columns)
        if found:
            if current is not None and prefix.strip():
                values[current].append(prefix)
            for key, value in found:
                values.setdefault(key, []).append(value)
            current = found[-1][0]
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


def _line_fields(
    line: str, cells: list[str] | None, columns: list[str | None] | None
) -> tuple[str, list[tuple[str, str]]]:
    """The text before the line's first field, and its fields as (key, value) in order."""
    heading = _FIELD_HEADING.match(line)
    if heading is not None:
        return "", [(_group(heading), heading.group("v"))]
    if cells is None:
        return _segment_fields(line)
    if columns is not None:
        return "", [(k, v) for k, v in zip(columns, cells, strict=False) if k is not None]
    if len(cells) == 2 and (key := _label_key(cells[0])):
        return "", [(key, cells[1])]
    return "", [field for cell in cells for field in _segment_fields(cell)[1]]


def _segment_fields(text: str) -> tuple[str, list[tuple[str, str]]]:
    """The fields of ``text`` wherever a label starts a segment, each valued to the next."""
    starts = list(_SEGMENT_FIELD.finditer(text))
    if not starts:
        return text, []
    ends = [m.start() for m in starts[1:]] + [len(text)]
    fields = [(_group(m), text[m.end() : end].strip()) for m, end in zip(starts, ends, strict=True)]
    return text[: starts[0].start()], fields


def _group(found: re.Match[str]) -> str:
    return next(k for k in _LABELS if found.group(k))


def _table_cells(line: str) -> list[str] | None:
    """A table row's cells, or None; a rule row (``|---|:-:|``) has no cells."""
    row = _TABLE_ROW.match(line)
    if row is None:
        return None
    return (
        [] if _TABLE_RULE.fullmatch(row.group(1)) else [c.strip() for c in row.group(1).split("|")]
    )


def _label_key(cell: str) -> str | None:
    """The field ``cell`` names when it is a label and nothing else (a table header)."""
    found = re.fullmatch(rf"(?:{_LABEL})\s*:?", _plain(cell), re.IGNORECASE)
    return None if found is None else _group(found)


def _plain(text: str) -> str:
    """``text`` without Markdown emphasis, code ticks, bullets and extra whitespace."""
    words = _MARKUP.sub(" ", re.sub(r"(?m)^[ \t]*(?:[-*+]|\d+[.)])\s+", " ", text))
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
