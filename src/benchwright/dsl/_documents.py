"""Reading JSON/YAML documents and turning validation failures into field paths."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from benchwright.errors import SpecError

JSON_SUFFIXES = frozenset({".json"})
YAML_SUFFIXES = frozenset({".yaml", ".yml"})
DOCUMENT_SUFFIXES = JSON_SUFFIXES | YAML_SUFFIXES


def display_path(path: Path) -> str:
    """The path as the user would type it: relative to the current directory when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def read_document(path: Path) -> Any:
    """Parse a JSON or YAML file; a missing or unparsable file is a `SpecError`."""
    source = display_path(path)
    suffix = path.suffix.lower()
    if suffix not in DOCUMENT_SUFFIXES:
        raise SpecError.single(
            source, f"unsupported file type {suffix or '(none)'}; use .json, .yaml or .yml"
        )
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SpecError.single(source, "file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError.single(source, f"cannot read: {exc}") from None
    try:
        if suffix in JSON_SUFFIXES:
            return json.loads(text)
        return yaml.safe_load(text)
    except json.JSONDecodeError as exc:
        raise SpecError.single(
            source, f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1} column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise SpecError.single(source, f"invalid YAML{where}: {problem}") from None


def field_path(prefix: str, loc: Sequence[str | int]) -> str:
    """Render a location like ``oracles[2].pattern`` from ("oracles", 2, "pattern")."""
    out = prefix
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def problems_from(error: ValidationError, prefix: str = "") -> list[tuple[str, str]]:
    """One (field, message) per pydantic error, in words an author understands."""
    problems = []
    for item in error.errors(include_url=False):
        loc = [p for p in item["loc"] if not (isinstance(p, str) and p.startswith("function-"))]
        kind = item["type"]
        if kind == "missing":
            message = "required"
        elif kind == "extra_forbidden":
            message = "unknown field"
        else:
            message = item["msg"].removeprefix("Value error, ")
        problems.append((field_path(prefix, loc), message))
    return problems
