"""Method definitions in Java and Kotlin source, with the span M4 scans for each.

Not a parser: a definition is a name and a balanced parameter list followed by a
body (``{ ... }``, or Kotlin's ``= expression``) or by the end of a bodiless
declaration (``;`` in Java, the line's end in Kotlin). Java definitions are told
from calls by what stands before the name: a type or modifier (an identifier,
``>`` or ``]``), never an operator, ``.``, ``new`` or ``return``. Names starting
with a capital are constructors (or records) and are left out.

A method's span runs from just after the previous ``;``, ``{`` or ``}`` - so it
takes in the method's annotations, where a repository method keeps its query
(``@Query("... CASE WHEN side = 'SELL' THEN -qty ...")``) - to the end of its
body. Positions are found in text with comments *and* string contents blanked,
so a brace inside a literal never unbalances a body.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from benchwright.checks.ace._source import Language

_JAVA_NAME = re.compile(r"(?<![\w$@.])([a-z_$][\w$]*)\s*\(")
_KOTLIN_NAME = re.compile(r"\bfun\s+(?:<[^>{}]*>\s*)?(?:[\w.]+\.)?([A-Za-z_]\w*)\s*\(")
_NOT_TYPES = frozenset(
    {"new", "return", "else", "throw", "case", "yield", "assert", "do", "in", "instanceof"}
)
_CONTROL = frozenset({"if", "for", "while", "switch", "catch", "synchronized", "try", "super"})
_JAVA_AFTER = re.compile(r"\s*(?:throws\s+[\w$.,\s]+?)?\s*([{;])")
_KOTLIN_AFTER = re.compile(r"[ \t]*(?::[ \t]*[\w.<>?,* \t]+?)?\s*([{=])")
_JAVA_VOID = re.compile(r"\bvoid\s+$")
_KOTLIN_TYPE = re.compile(r"[ \t]*:[ \t]*([\w.]+)")
_KOTLIN_EXPRESSION = re.compile(r"\s*=")
_CONTINUES = ".?:+-*/|&"
_NEXT_CHAR = re.compile(r"\s*(\S?)")
_PAIRS = {"(": ")", "[": "]", "{": "}"}


@dataclass(frozen=True, slots=True)
class Method:
    """One definition: its name, parameter text, span [start, end) and 1-based line."""

    name: str
    params: str
    start: int
    end: int
    line: int
    void: bool
    """Returns nothing (Java ``void``, Kotlin ``Unit`` or a block body with no type)."""


def methods(blank: str, lang: Language) -> list[Method]:
    """Every method defined in ``blank`` (comments and string contents blanked)."""
    pattern = _KOTLIN_NAME if lang == "kotlin" else _JAVA_NAME
    found: list[Method] = []
    for match in pattern.finditer(blank):
        name, open_at = match.group(1), match.end() - 1
        if lang != "kotlin" and not _java_definition(blank, match.start(), name):
            continue
        close = _matching(blank, open_at)
        if close is None:
            continue
        end = _kotlin_end(blank, close) if lang == "kotlin" else _java_end(blank, close)
        if end is None:
            continue
        start = max(blank.rfind(c, 0, match.start()) for c in ";{}") + 1
        params = blank[open_at + 1 : close - 1]
        line = blank.count("\n", 0, match.start()) + 1
        found.append(
            Method(name, params, start, end, line, _void(blank, lang, match.start(), close))
        )
    return found


def _void(blank: str, lang: Language, at: int, close: int) -> bool:
    if lang != "kotlin":
        return _JAVA_VOID.search(blank, max(0, at - 40), at) is not None
    typed = _KOTLIN_TYPE.match(blank, close)
    if typed is not None:
        return typed.group(1) in ("Unit", "kotlin.Unit")
    return _KOTLIN_EXPRESSION.match(blank, close) is None


def _java_definition(blank: str, at: int, name: str) -> bool:
    if name in _CONTROL or name in _NOT_TYPES:
        return False
    before = blank[max(0, at - 200) : at].rstrip()
    if not before or before.endswith("->") or not (before[-1].isalnum() or before[-1] in "_$>]"):
        return False
    word = re.search(r"[\w$]+$", before)
    return word is None or word.group() not in _NOT_TYPES


def _matching(text: str, open_at: int) -> int | None:
    """The index just past the bracket closing the one at ``open_at``."""
    stack: list[str] = []
    for i in range(open_at, len(text)):
        char = text[i]
        if char in _PAIRS:
            stack.append(_PAIRS[char])
        elif char in ")]}":
            if not stack or stack.pop() != char:
                return None
            if not stack:
                return i + 1
    return None


def _java_end(blank: str, close: int) -> int | None:
    after = _JAVA_AFTER.match(blank, close)
    if after is None:
        return None
    if after.group(1) == ";":
        return after.end()
    return _matching(blank, after.end() - 1)


def _kotlin_end(blank: str, close: int) -> int:
    after = _KOTLIN_AFTER.match(blank, close)
    if after is None:
        line_end = blank.find("\n", close)
        return len(blank) if line_end < 0 else line_end
    if after.group(1) == "{":
        return _matching(blank, after.end() - 1) or len(blank)
    return _expression_end(blank, after.end())


def _expression_end(blank: str, start: int) -> int:
    """Where a Kotlin ``= expression`` body ends: a line break outside brackets that
    is not followed by a continuation (``.map``, ``?:``, an operator), or a closing
    bracket of the enclosing class."""
    depth = 0
    for i in range(start + len(blank[start:]) - len(blank[start:].lstrip()), len(blank)):
        char = blank[i]
        if char in _PAIRS:
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth < 0:
                return i
        elif char == "\n" and depth == 0 and _next_char(blank, i) not in _CONTINUES:
            return i
    return len(blank)


def _next_char(text: str, at: int) -> str:
    """The first non-blank character from ``at`` on ("" at the end of the text)."""
    found = _NEXT_CHAR.match(text, at)
    return found.group(1) if found else ""
