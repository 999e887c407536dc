"""Bounds on a posted body, checked before and just after ``json.loads``.

A poster is an adversary (DESIGN.md principle 8): a body that nests ten thousand
levels deep makes the parser recurse until Python gives up, an integer of a thousand
digits overflows the database, a ``\\ud800`` escape yields a string no database can
encode. Each used to be a 500. Here each is a 400 naming the field:

- ``too_many_values``: more than `MAX_VALUES` values (counted from the commas and
  brackets outside strings, before the parser runs), so that neither the parser nor
  the walk below can be made to build and visit millions of nodes from 6 MB;
- ``too_deep``: nesting past `MAX_DEPTH` levels, found by a scan of the raw text that
  recurses nowhere (strings are skipped, brackets counted), before the parser runs;
- ``bad_value``: an integer outside signed 64 bits (never converted: `dsl._bounds.MAX_INT_TEXT`),
  a non-finite number (``NaN``, ``Infinity``, ``1e400``), a NUL byte or a lone
  surrogate in a string or a key.

String lengths, list lengths and the database's own integer range are the payload
model's (`benchwright.board.payload`): they answer 422 ``invalid_payload``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from benchwright.board.errors import Rejected
from benchwright.dsl._bounds import json_int, scalar_problem

MAX_DEPTH = 16
"""Levels of arrays and objects; a genuine post has 3 (body, ``checks``, a row)."""
MAX_VALUES = 20_000
"""Values in a body (arrays, objects, scalars): a post of 1,000 check rows has about 8,000."""
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')
_BRACKETS_ONLY = re.compile(r"[^\[\]{}]+")


def loads(body: bytes) -> Any:
    """The JSON document in ``body``, or `Rejected` (400) naming what is wrong and where."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Rejected(400, "malformed_json", f"body is not UTF-8: {exc}") from None
    outside_strings = _STRING.sub('""', text)
    values = outside_strings.count(",") + outside_strings.count("[") + outside_strings.count("{")
    if values > MAX_VALUES:  # first: three C-level counts bound the loop of the depth scan
        raise Rejected(
            400, "too_many_values", f"(body): {values} values or more, at most {MAX_VALUES}"
        )
    if (where := too_deep_at(text, outside_strings)) is not None:
        raise Rejected(400, "too_deep", f"{where}: nesting deeper than {MAX_DEPTH} levels")
    try:
        doc = json.loads(text, parse_int=json_int)
    except json.JSONDecodeError as exc:
        raise Rejected(400, "malformed_json", f"body is not JSON: {exc}") from None
    except RecursionError:  # unreachable after the scan; kept so that no body is ever a 500
        raise Rejected(400, "too_deep", f"(body): nesting deeper than {MAX_DEPTH} levels") from None
    for where, problem in _problems(doc):
        raise Rejected(400, "bad_value", f"{where}: {problem}")
    return doc


def too_deep_at(text: str, outside_strings: str) -> str | None:
    """The top-level key under which ``text`` nests past `MAX_DEPTH`, ``(body)`` when it is
    not inside one, or None when it does not; ``outside_strings`` is ``text`` with every
    string emptied.

    Brackets inside strings do not count. The common case costs a C-level pass and a
    loop over the brackets alone; only a body that is too deep is scanned again, token by
    token, to name its key.
    """
    brackets = _BRACKETS_ONLY.sub("", outside_strings)
    depth = 0
    for char in brackets:
        depth += 1 if char in "[{" else -1
        if depth > MAX_DEPTH:
            return _key_of_deep_part(text)
    return None


def _key_of_deep_part(text: str) -> str:
    depth, key = 0, "(body)"
    for token in _TOKEN.finditer(text):
        char = text[token.start()]
        if char == '"':
            if depth == 1 and text[token.end() :].lstrip().startswith(":"):
                key = _printable(token.group()[1:-1])
            continue
        depth += 1 if char in "[{" else -1
        if depth > MAX_DEPTH:
            return key
    return key


def _problems(doc: Any) -> Iterator[tuple[str, str]]:
    """(field path, problem) for each value past the bounds; ``doc`` is at most
    `MAX_DEPTH` deep, so the walk is a plain stack."""
    stack: list[tuple[Any, str]] = [(doc, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                here = f"{path}.{key}" if path else key
                if (problem := _string_problem(key)) is not None:
                    yield _printable(here), f"key {problem}"
                stack.append((item, here))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(value))
        elif (problem := _scalar_problem(value)) is not None:
            yield _printable(path or "(body)"), problem


def _scalar_problem(value: Any) -> str | None:
    """The DSL's bounds (`scalar_problem`: 64-bit integers, finite numbers), and strings."""
    return _string_problem(value) if isinstance(value, str) else scalar_problem(value)


def _string_problem(value: str) -> str | None:
    if "\0" in value:
        return "holds a NUL byte"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "holds a lone surrogate (an unpaired \\ud800-\\udfff escape)"
    return None


def _printable(path: str) -> str:
    """A field path safe to echo in a message: escapes for what would not print, 100 chars."""
    shown = path.encode("unicode_escape").decode("ascii")
    return shown if len(shown) <= 100 else shown[:97] + "..."
