"""``assertion_exists``: a regex must still match a file after the agent's edits."""

from __future__ import annotations

import re

from pydantic import field_validator

from benchwright.checks._context import CheckContext
from benchwright.checks._registry import CheckParams, WorkspacePath, check
from benchwright.model import CheckResult


class AssertionExistsParams(CheckParams):
    path: WorkspacePath
    """File to search, relative to the workspace root."""
    pattern: str
    """Python regex, searched with ``re.MULTILINE``; escape ``( ) . [ ]`` to match literally."""

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, value: str) -> str:
        try:
            re.compile(value, re.MULTILINE)
        except re.error as exc:
            raise ValueError(f"invalid regex: {exc}") from None
        return value


@check("assertion_exists", params=AssertionExistsParams)
def assertion_exists(p: AssertionExistsParams, ctx: CheckContext) -> CheckResult:
    """Passes when the pattern matches the file; fails when the file is missing or no match."""
    text = ctx.workspace.read_text(p.path)
    if text is None:
        return ctx.failed(f"{p.path} does not exist", path=p.path, pattern=p.pattern)
    found = re.search(p.pattern, text, re.MULTILINE)
    if found is None:
        return ctx.failed(f"no match for /{p.pattern}/ in {p.path}", path=p.path, pattern=p.pattern)
    line = text.count("\n", 0, found.start()) + 1
    return ctx.passed(
        f"{p.path}:{line} matches /{p.pattern}/", path=p.path, line=line, match=found.group(0)
    )
