"""The check library: built-in check types and the registry that finds them.

A check type is a module named after its type string, exposing one `@check`
function ``(params, ctx) -> CheckResult``. Third-party packages add types
through the ``benchwright.checks`` entry-point group.
"""

from __future__ import annotations

from functools import cache

from benchwright.checks._context import CheckContext
from benchwright.checks._registry import (
    ENTRY_POINT_GROUP,
    CheckParams,
    CheckRegistry,
    CheckType,
    PluginLoadError,
    UnknownCheckType,
    build_registry,
    check,
)

BUILTIN_CHECKS: tuple[str, ...] = (
    "benchwright.checks.ace_oracle",
    "benchwright.checks.answer_matches",
    "benchwright.checks.assertion_exists",
    "benchwright.checks.executed_app",
    "benchwright.checks.file_exists",
    "benchwright.checks.file_not_modified",
    "benchwright.checks.no_network",
    "benchwright.checks.no_source_during_phase",
    "benchwright.checks.pattern_absent",
    "benchwright.checks.test_must_pass",
)


@cache
def default_registry() -> CheckRegistry:
    """The built-in check types plus installed plugins, built once per process."""
    return build_registry(BUILTIN_CHECKS)


__all__ = [
    "BUILTIN_CHECKS",
    "ENTRY_POINT_GROUP",
    "CheckContext",
    "CheckParams",
    "CheckRegistry",
    "CheckType",
    "PluginLoadError",
    "UnknownCheckType",
    "build_registry",
    "check",
    "default_registry",
]
