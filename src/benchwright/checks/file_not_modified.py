"""``file_not_modified``: protected files end exactly as they started.

Beyond the AgentBench seed, ``paths`` takes globs (``tests/**``): any protected
file edited, deleted, or *added* under a protected glob fails the check. The
comparison is on the final workspace, so a file edited by a file tool and later
restored byte for byte passes.

Replay does not run recorded shell commands, so a ``sed -i`` there changes no
file; the check therefore also reads every recorded command as evidence
(`Trajectory.shell_evidence`) and fails when one may write a protected path:
``rm``, ``mv`` (source and destination), ``cp``/``ln``/``install``/``rsync``
onto it, ``sed -i``, ``perl -i``, ``>``/``>>``, ``tee``, ``truncate``, ``touch``,
``dd of=``, ``chmod``/``chown`` (a mode change can make a test unreadable or
inert, which no byte comparison sees), ``git checkout``/``restore``/``rm``/``mv``,
``find -delete``/``-exec``, and ``open(p, "w")``-style writes in inline code. A
directory or glob counts for every protected file under it. This is a heuristic
that errs towards "may write", and it judges intent, so a command that wrote
and later restored a file still fails.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import field_validator, model_validator

from benchwright.checks._context import CheckContext
from benchwright.checks._registry import CheckParams, check
from benchwright.model import CheckResult, ShellEvidence, Status, normalize_path, step_label
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
    """Passes when every protected file is byte-identical to the start and no recorded
    command may have written one; fails naming the first file and the step."""
    ws = ctx.workspace
    if missing := p.task_errors(ws.initial):
        # Validation rejects this before a run; reaching it means a bypassed loader.
        return ctx.result(Status.INFRA, 0.0, f"task-authoring error: {missing[0][1]}")
    initial = sorted({f for entry in p.protected for f in ws.glob(entry, initial=True)})
    candidates = sorted(set(initial).union(*(ws.glob(entry) for entry in p.protected)))
    changed = [f for f in candidates if ws.changed(f)]
    evidence = () if ctx.live else ctx.trajectory.shell_evidence
    shell = _written_by_commands(p.protected, initial, evidence)
    if not changed and not shell:
        return ctx.passed(
            f"{len(candidates)} protected file(s) unchanged", protected=list(p.protected)
        )
    changes = {f: _describe(ws.initial.get(f), ws.files.get(f)) for f in changed}
    steps = {f: [e.step_index for e in ctx.trajectory.file_edits() if e.path == f] for f in changed}
    offenders = sorted({*changed, *shell})
    first = offenders[0]
    more = f" (+{len(offenders) - 1} more)" if len(offenders) > 1 else ""
    if first in changes:
        where = f" at {step_label(steps[first][0])}" if steps[first] else ""
        detail = f"protected file {first} was {changes[first]}{where}{more}"
    else:
        by = shell[first][0]
        detail = (
            f"protected file {first} written by a shell command at {step_label(by.step_index)} "
            f"({by.tool}): {_shortened(by.fragment)}{more}"
        )
    commands = {
        f: [{"step": e.step_index, "tool": e.tool, "command": e.fragment} for e in found]
        for f, found in shell.items()
    }
    return ctx.failed(detail, changed=changes, steps=steps, shell=commands)


def _written_by_commands(
    protected: tuple[str, ...], initial: list[str], evidence: tuple[ShellEvidence, ...]
) -> dict[str, list[ShellEvidence]]:
    """Each protected path some recorded command may write, with those commands.

    An initial protected file is hit when a command names it, a glob matching it,
    or (recursively) a directory above it. A path a command may *create* is hit
    when it falls under a protected entry, as an added file would.
    """
    hits: dict[str, list[ShellEvidence]] = {}
    for command in evidence:
        for path in command.paths:
            found = [f for f in initial if _covers(path, f, command.recursive)]
            creatable = path and command.adds and not _is_glob(path)
            if creatable and any(path == e or match_glob(path, e) for e in protected):
                found.append(path)
            for f in found:
                if command not in hits.setdefault(f, []):
                    hits[f].append(command)
    return hits


def _covers(path: str, file: str, recursive: bool) -> bool:
    """``path`` (maybe a glob, "" for the root) names ``file`` or, recursively, a parent."""
    if match_glob(file, path):
        return True
    parents = file.split("/")[:-1]
    return recursive and (
        not path or any(match_glob("/".join(parents[:n]), path) for n in range(1, len(parents) + 1))
    )


def _shortened(fragment: str, limit: int = 200) -> str:
    return fragment if len(fragment) <= limit else fragment[: limit - 3] + "..."


def _describe(before: bytes | None, after: bytes | None) -> str:
    if before is None:
        return "added"
    if after is None:
        return "deleted"
    return "modified"
