"""``file_not_modified``: protected files end exactly as they started.

Beyond the AgentBench seed, ``paths`` takes globs (``tests/**``): any protected
file edited, deleted, or *added* under a protected glob fails the check. The
comparison is on the final replayed content, so a file edited and later restored
byte for byte passes. Recorded shell commands are not replayed (as in the seed),
so a change made only by a command (``sed -i``) is invisible here.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import field_validator, model_validator

from benchwright.checks._context import CheckContext
from benchwright.checks._registry import CheckParams, check
from benchwright.model import CheckResult, Status, normalize_path
from benchwright.workspace import match_glob

_GLOB_CHARS = frozenset("*?[")


def _is_glob(path: str) -> bool:
    return not _GLOB_CHARS.isdisjoint(path)


class FileNotModifiedParams(CheckParams):
    path: str | None = None
    """One protected file; must exist in the initial workspace."""
    paths: tuple[str, ...] = ()
    """More protected files or globs (``**`` spans directories); each must match a file."""

    @field_validator("path")
    @classmethod
    def _normalized(cls, value: str | None) -> str | None:
        return None if value is None else normalize_path(value)

    @field_validator("paths")
    @classmethod
    def _all_normalized(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(normalize_path(v) for v in value)

    @model_validator(mode="after")
    def _something_protected(self) -> FileNotModifiedParams:
        if self.path is None and not self.paths:
            raise ValueError("path: required (or paths)")
        return self

    @property
    def protected(self) -> tuple[str, ...]:
        return ((self.path,) if self.path else ()) + self.paths

    def task_errors(self, files: Mapping[str, bytes]) -> list[tuple[str, str]]:
        errors = []
        for n, entry in enumerate(self.protected):
            field = "path" if entry == self.path and n == 0 else f"paths[{n - bool(self.path)}]"
            if _is_glob(entry):
                if not any(match_glob(f, entry) for f in files):
                    errors.append(
                        (field, f"glob {entry!r} matches no file of the initial workspace")
                    )
            elif entry not in files:
                errors.append(
                    (field, f"{entry!r} is not in the initial workspace (task-authoring error)")
                )
        return errors


@check("file_not_modified", params=FileNotModifiedParams)
def file_not_modified(p: FileNotModifiedParams, ctx: CheckContext) -> CheckResult:
    """Passes when every protected file is byte-identical to the start; fails on any change."""
    ws = ctx.workspace
    if missing := p.task_errors(ws.initial):
        # Validation rejects this before a run; reaching it means a bypassed loader.
        return ctx.result(Status.INFRA, 0.0, f"task-authoring error: {missing[0][1]}")
    candidates = sorted(
        {f for entry in p.protected for f in ws.glob(entry) + ws.glob(entry, initial=True)}
    )
    changed = [f for f in candidates if ws.changed(f)]
    if not changed:
        return ctx.passed(
            f"{len(candidates)} protected file(s) unchanged", protected=list(p.protected)
        )
    changes = {f: _describe(ws.initial.get(f), ws.files.get(f)) for f in changed}
    steps = {f: [e.step_index for e in ctx.trajectory.file_edits() if e.path == f] for f in changed}
    first = changed[0]
    where = f" at step {steps[first][0]}" if steps[first] else ""
    more = f" (+{len(changed) - 1} more)" if len(changed) > 1 else ""
    return ctx.failed(
        f"protected file {first} was {changes[first]}{where}{more}", changed=changes, steps=steps
    )


def _describe(before: bytes | None, after: bytes | None) -> str:
    if before is None:
        return "added"
    if after is None:
        return "deleted"
    return "modified"
