"""The workspace's own OpenAPI document, as F6 reads it: which calls and statuses it declares.

The document is the one S7 finds (`structure.openapi_document`: the root-most
``openapi*``/``api*`` .yml/.yaml/.json file with top-level ``openapi`` and ``paths``
keys), then parsed. F6 then asks, per exchange, whether the document declares the
method on a path template matching the concrete path, with the status answered (an
exact code or its ``2XX`` range; ``default`` declares nothing, as the rungs forbid
it). S7 never parses; F6 must.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import yaml

from benchwright.checks.ace._files import Tree

Declared = Mapping[tuple[str, re.Pattern[str]], frozenset[str]]
"""(METHOD, compiled path template) -> the declared response keys, upper-cased."""

_METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


class UnreadableSpec(ValueError):
    """The OpenAPI file exists but does not parse into paths and operations."""


def declared(tree: Tree, rel: str) -> Declared:
    """Every operation ``rel`` declares, keyed for `statuses_for`."""
    try:
        document = yaml.safe_load(tree.text(rel))
    except yaml.YAMLError as exc:
        raise UnreadableSpec(f"{rel} does not parse: {str(exc).splitlines()[0]}") from None
    paths = document.get("paths") if isinstance(document, dict) else None
    if not isinstance(paths, dict):
        raise UnreadableSpec(f"{rel}: paths is not a mapping")
    found: dict[tuple[str, re.Pattern[str]], frozenset[str]] = {}
    for template, item in paths.items():
        if not isinstance(item, dict):
            raise UnreadableSpec(f"{rel}: paths.{template} is not a mapping")
        pattern = re.compile(re.sub(r"\\\{[^}]*\\\}", "[^/]+", re.escape(str(template))))
        for method in _METHODS:
            operation = item.get(method)
            if isinstance(operation, dict):
                responses = operation.get("responses")
                keys = responses.keys() if isinstance(responses, dict) else ()
                found[(method.upper(), pattern)] = frozenset(str(k).upper() for k in keys)
    return found


def statuses_for(spec: Declared, method: str, path: str) -> frozenset[str] | None:
    """The response keys declared for ``method path``; None when no operation matches."""
    for (declared_method, pattern), keys in spec.items():
        if declared_method == method and pattern.fullmatch(path):
            return keys
    return None


def declares(keys: frozenset[str], status: int) -> bool:
    return str(status) in keys or f"{status // 100}XX" in keys
