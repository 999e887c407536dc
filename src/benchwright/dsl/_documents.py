"""Reading JSON/YAML documents and turning validation failures into field paths."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from benchwright.dsl._bounds import (
    MAX_DEPTH,
    MAX_DOCUMENT_BYTES,
    MAX_INT_TEXT,
    Oversized,
    Unbounded,
    check_yaml_graph,
    json_int,
    value_problems,
)
from benchwright.errors import SpecError


class DuplicateKey(ValueError):
    """A key given twice in one object: the first value would silently vanish."""


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    for key, value in pairs:
        if key in doc:
            raise DuplicateKey(f"duplicate key {key!r}")
        doc[key] = value
    return doc


_MERGE = "tag:yaml.org,2002:merge"


class _StrictYamlLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """Safe YAML loading that refuses duplicate keys instead of keeping the last one,
    and measures the composed graph (`check_yaml_graph`) before building any value."""

    def get_single_data(self) -> Any:
        node = self.get_single_node()
        if node is None:
            return None
        check_yaml_graph(node)
        return self.construct_document(node)

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int | Oversized:
        text = self.construct_scalar(node)
        return Oversized(text) if len(text) > MAX_INT_TEXT else super().construct_yaml_int(node)

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == _MERGE:  # ``<<: *base``: merged keys may be overridden
                continue
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                line = key_node.start_mark.line + 1
                raise DuplicateKey(f"duplicate key {key!r} at line {line}")
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


_StrictYamlLoader.add_constructor("tag:yaml.org,2002:int", _StrictYamlLoader.construct_yaml_int)

JSON_SUFFIXES = frozenset({".json"})
YAML_SUFFIXES = frozenset({".yaml", ".yml"})
DOCUMENT_SUFFIXES = JSON_SUFFIXES | YAML_SUFFIXES


def display_path(path: Path) -> str:
    """The path as the user would type it: relative to the current directory when inside it.

    Made absolute by string operations, not resolved: a gate names each of thousands of
    files several times, and resolving costs a system call per path component."""
    absolute, cwd = os.path.abspath(path), os.getcwd()
    if absolute.startswith(cwd.rstrip(os.sep) + os.sep):
        return absolute[len(cwd.rstrip(os.sep)) + 1 :]
    return str(path)


def read_document(path: Path) -> Any:
    """Parse a JSON or YAML file; a missing or unparsable file is a `SpecError`."""
    source = display_path(path)
    suffix = path.suffix.lower()
    if suffix not in DOCUMENT_SUFFIXES:
        raise SpecError.single(
            source, f"unsupported file type {suffix or '(none)'}; use .json, .yaml or .yml"
        )
    text = _read_text(path, source)
    doc = _parse(text, suffix, source)
    if problems := value_problems(doc):
        raise SpecError(source, [(field_path("", loc), why) for loc, why in problems])
    return doc


def _read_text(path: Path, source: str) -> str:
    """The file's text, refusing anything but a regular file of at most `MAX_DOCUMENT_BYTES`
    (a FIFO named ``task.yaml`` would block the read forever, ``/dev/zero`` never ends)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise SpecError.single(source, "file not found") from None
    except OSError as exc:
        raise SpecError.single(source, f"cannot read: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise SpecError.single(source, "not a regular file")
        data = handle.read(MAX_DOCUMENT_BYTES + 1)
    if len(data) > MAX_DOCUMENT_BYTES:
        raise SpecError.single(source, f"larger than {MAX_DOCUMENT_BYTES // 2**20} MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError.single(source, f"cannot read: {exc}") from None


def _parse(text: str, suffix: str, source: str) -> Any:
    try:
        if suffix in JSON_SUFFIXES:
            return json.loads(text, object_pairs_hook=_json_object, parse_int=json_int)
        return yaml.load(text, Loader=_StrictYamlLoader)  # a safe loader, see above
    except (DuplicateKey, Unbounded) as exc:
        raise SpecError.single(source, str(exc)) from None
    except RecursionError:  # the parsers' own guard, far below the C stack's end
        raise SpecError.single(source, f"nesting deeper than {MAX_DEPTH} levels") from None
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


def problems_from(
    error: ValidationError, prefix: str = "", owner: str | None = None, allowed: Sequence[str] = ()
) -> list[tuple[str, str]]:
    """One (field, message) per pydantic error, in words an author understands.

    ``owner`` names what the fields belong to (a check type), so that a missing
    or unknown parameter says whose it is; ``allowed`` lists the valid names.
    """
    by = f" by {owner}" if owner else ""
    choices = f" (allowed: {', '.join(allowed)})" if allowed else ""
    problems = []
    for item in error.errors(include_url=False):
        loc = [p for p in item["loc"] if not (isinstance(p, str) and p.startswith("function-"))]
        kind = item["type"]
        if kind == "missing":
            message = f"required{by}"
        elif kind == "extra_forbidden":
            message = f"unknown field{f' for {owner}' if owner else ''}{choices}"
        else:
            message = _plain_words(item)
        problems.append((field_path(prefix, loc), message))
    return problems


_EXPECTED_TYPE = {
    "string_type": "a string",
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "an integer",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list",
    "tuple_type": "a list",
    "dict_type": "an object",
}
_BOUNDS = {"greater_than_equal": ("ge", ">="), "greater_than": ("gt", ">"),
           "less_than_equal": ("le", "<="), "less_than": ("lt", "<")}  # fmt: skip


def _plain_words(item: Any) -> str:
    """Pydantic's message rephrased as 'must be X, got Y' where we know the shape."""
    kind, given, ctx = item["type"], item.get("input"), item.get("ctx") or {}
    if kind in _EXPECTED_TYPE:
        return f"must be {_EXPECTED_TYPE[kind]}, got {type(given).__name__}"
    if kind in _BOUNDS:
        key, sign = _BOUNDS[kind]
        return f"must be {sign} {ctx[key]}, got {given!r}"
    if kind in ("too_short", "string_too_short") and ctx.get("min_length") == 1:
        return "must not be empty"
    return str(item["msg"]).removeprefix("Value error, ")
