"""A check's evidence as text a person reads in a CI log (JUnit failure bodies).

Evidence is JSON-shaped, and ``json.dumps`` writes a test's output as one string full of
literal ``\\n`` (issue #26): here a multi-line string is its lines, indented under its
key, and nested objects are indented in turn. The JSON stays beside it, exact, where a
machine reads it (a JUnit property).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

INDENT = "  "


def evidence_text(evidence: Mapping[str, Any]) -> str:
    """``key: value`` lines; a multi-line string, a mapping or a list of either goes
    under its key, indented."""
    return "\n".join(_mapping(evidence, ""))


def _mapping(items: Mapping[str, Any], indent: str) -> list[str]:
    lines: list[str] = []
    for key, value in items.items():
        lines += _entry(f"{key}:", value, indent)
    return lines


def _entry(label: str, value: Any, indent: str) -> list[str]:
    deeper = indent + INDENT
    if isinstance(value, str) and "\n" in value.rstrip("\n"):
        return [f"{indent}{label}", *(f"{deeper}{line}" for line in value.rstrip("\n").split("\n"))]
    if isinstance(value, Mapping) and value:
        return [f"{indent}{label}", *_mapping(value, deeper)]
    if isinstance(value, Sequence) and not isinstance(value, str) and _nested(value):
        lines = [f"{indent}{label}"]
        for item in value:
            lines += _entry("-", item, deeper)
        return lines
    return [f"{indent}{label} {_scalar(value)}".rstrip()]


def _nested(items: Sequence[Any]) -> bool:
    """A list worth a line per item: one holding text of several lines or structures."""
    return any(
        isinstance(v, Mapping | list | tuple) or (isinstance(v, str) and "\n" in v) for v in items
    )


def _scalar(value: Any) -> str:
    """A string as it is (one line); anything else as compact JSON."""
    if isinstance(value, str):
        return value.rstrip("\n")
    return json.dumps(value, default=str)
