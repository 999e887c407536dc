"""Bounds on what a parsed document may hold, so that no input file can exhaust the grader.

A file is refused, naming the field, when it is larger than `MAX_DOCUMENT_BYTES`,
nests deeper than `MAX_DEPTH`, expands YAML aliases into more than
`MAX_ALIAS_NODES` extra nodes (a "billion laughs" file is a few hundred bytes
that composes instantly and then costs minutes and gigabytes to every walk over
it), holds an integer outside 64 bits, a non-finite number (``.inf``, ``NaN``,
``1e400``) or a mapping key with a NUL byte. Each limit is far above what a
real task, suite, trajectory or scorer file needs (docs/tasks.md, "Limits").
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import yaml

MAX_DOCUMENT_BYTES = 32 * 1024 * 1024
MAX_DEPTH = 100
MAX_ALIAS_NODES = 10_000
INT_MIN, INT_MAX = -(2**63), 2**63 - 1
MAX_INT_TEXT = 40
"""Digits a parser may turn into an int: enough for any 64-bit spelling, and far below
Python's 4300-digit limit, past which ``int()`` raises instead of reporting a field."""
_SIZE_CAP = 2**62
"""Expanded sizes stop growing here: past the budget, only "too many" matters."""


class Unbounded(ValueError):
    """A document past one of the bounds: too deep, too many alias expansions, a cycle."""


class Oversized:
    """An integer literal too long to convert, kept as text so the field can be named."""

    def __init__(self, text: str) -> None:
        self.text = text


def json_int(text: str) -> int | Oversized:
    """``parse_int`` for `json.loads`: never converts more than `MAX_INT_TEXT` characters."""
    return Oversized(text) if len(text) > MAX_INT_TEXT else int(text)


def check_yaml_graph(root: yaml.Node) -> None:
    """Refuse a composed YAML graph whose aliases expand too far, nest too deep, or loop.

    Sizes are computed once per distinct node, so a billion-laughs file is measured
    in microseconds instead of being expanded.

    Raises:
        Unbounded: naming the limit and the line where it was passed.
    """
    measured: dict[int, tuple[int, int]] = {}  # id(node) -> (expanded nodes, depth)
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if children_done:
            open_nodes.discard(key)
            kids = [measured[id(child)] for child in _children(node)]
            size = min(1 + sum(s for s, _ in kids), _SIZE_CAP)
            depth = 1 + max((d for _, d in kids), default=0)
            if depth > MAX_DEPTH:
                raise Unbounded(f"nesting deeper than {MAX_DEPTH} levels{_line(node)}")
            measured[key] = (size, depth)
            continue
        if key in measured:
            continue
        if key in open_nodes:
            raise Unbounded(f"an alias refers to a node that contains it{_line(node)}")
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node) if id(child) not in measured)
    extra = measured[id(root)][0] - len(measured)
    if extra > MAX_ALIAS_NODES:
        raise Unbounded(
            f"aliases expand to more than {MAX_ALIAS_NODES} extra nodes "
            "(an alias bomb?); write the values out instead"
        )


def _children(node: yaml.Node) -> Iterator[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        yield from node.value
    elif isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield key
            yield value


def _line(node: yaml.Node) -> str:
    return f" at line {node.start_mark.line + 1}" if node.start_mark else ""


def value_problems(doc: Any) -> list[tuple[list[str | int], str]]:
    """Every (location, problem) for values past the bounds, in document order.

    The walk is iterative and stops descending at `MAX_DEPTH`, so that it is safe on
    any document a parser returned (aliases were bounded before construction). A
    location is built only for a problem: each stack entry links to its parent.
    """
    problems: list[tuple[list[str | int], str]] = []
    stack: list[tuple[Any, int, _Link]] = [(doc, 0, None)]
    while stack:
        value, depth, link = stack.pop()
        if isinstance(value, dict | list) and depth >= MAX_DEPTH:
            problems.append((_location(link)[:3], f"nesting deeper than {MAX_DEPTH} levels"))
        elif isinstance(value, dict):
            for key in value:
                if isinstance(key, str) and "\0" in key:
                    where = [*_location(link), key.replace("\0", "\\0")]
                    problems.append((where, "key holds a NUL byte"))
            items = reversed(list(value.items()))
            stack.extend((v, depth + 1, (link, str(k))) for k, v in items)
        elif isinstance(value, list):
            stack.extend((v, depth + 1, (link, n)) for n, v in reversed(list(enumerate(value))))
        elif (problem := scalar_problem(value)) is not None:
            problems.append((_location(link), problem))
    return problems


_Link = tuple[Any, str | int] | None
"""(parent link, key): a value's place in the document, built up only when needed."""


def _location(link: _Link) -> list[str | int]:
    keys: list[str | int] = []
    while link is not None:
        link, key = link
        keys.append(key)
    return keys[::-1]


def scalar_problem(value: Any) -> str | None:
    """Why a parsed scalar is past the bounds (an integer beyond 64 bits, a non-finite
    number), or None; shared by every reader of untrusted JSON (task files, board posts)."""
    if isinstance(value, Oversized) or (
        isinstance(value, int) and not isinstance(value, bool) and not INT_MIN <= value <= INT_MAX
    ):
        return "integer beyond 64 bits (allowed: -2**63 to 2**63-1)"
    if isinstance(value, float) and not math.isfinite(value):
        return f"must be a finite number, got {value}"
    return None
