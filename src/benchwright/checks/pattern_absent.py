"""``pattern_absent``: no file of the agent's tree matches a regex ("the old name is gone").

It judges the in-memory view of the agent's own files (`Workspace.files`):
never stamped oracles, the answer file, ``.git`` or caches, and it runs no git,
so a workspace ``.gitattributes`` (``* binary``), a spoofed tag or a planted
config cannot blind it. A file is binary, and skipped, only when its bytes hold
a NUL, as ``git grep -I`` decides by content. Alone it passes an agent that
did nothing, so it is a guard: a refactor also needs a positive check.
"""

from __future__ import annotations

import re

from pydantic import Field, field_validator

from benchwright.checks._context import CheckContext
from benchwright.checks._registry import CheckParams, check
from benchwright.model import CheckResult, normalize_path
from benchwright.workspace import match_glob


class PatternAbsentParams(CheckParams):
    patterns: tuple[str, ...] = Field(min_length=1)
    """Python regexes (``re.MULTILINE``); any match in any selected file fails."""
    paths: tuple[str, ...] = ("**",)
    """Globs of the files to search (``**`` spans directories)."""
    exclude: tuple[str, ...] = ()
    """Globs of files to leave out, even when ``paths`` selects them."""

    @field_validator("patterns")
    @classmethod
    def _compile(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for n, pattern in enumerate(value):
            try:
                re.compile(pattern, re.MULTILINE)
            except re.error as exc:
                raise ValueError(f"patterns[{n}]: invalid regex {pattern!r}: {exc}") from None
        return value

    @field_validator("paths", "exclude")
    @classmethod
    def _normalized(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(normalize_path(v) for v in value)


@check("pattern_absent", params=PatternAbsentParams)
def pattern_absent(p: PatternAbsentParams, ctx: CheckContext) -> CheckResult:
    """Passes when no selected text file matches any pattern; fails naming the first file:line."""
    files = ctx.workspace.files
    selected = [
        path for path in sorted(files)
        if any(match_glob(path, g) for g in p.paths)
        and not any(match_glob(path, g) for g in p.exclude)
    ]  # fmt: skip
    text = [path for path in selected if b"\0" not in files[path]]
    evidence = {"patterns": list(p.patterns), "searched": len(text),
                "binary": [path for path in selected if path not in text]}  # fmt: skip
    for path in text:
        content = files[path].decode("utf-8", errors="replace")
        for pattern in p.patterns:
            if found := re.search(pattern, content, re.MULTILINE):
                line = content.count("\n", 0, found.start()) + 1
                return ctx.failed(
                    f"{path}:{line} matches /{pattern}/: {found.group(0)!r}",
                    path=path, line=line, match=found.group(0), **evidence,
                )  # fmt: skip
    return ctx.passed(
        f"no match for {len(p.patterns)} pattern(s) in {len(text)} text file(s)", **evidence
    )
