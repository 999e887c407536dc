"""Find and classify suite documents: tasks, trajectories and manifests.

A document's kind is read from its keys: ``steps`` makes a trajectory,
``task_files``/``task_subset`` a manifest, anything else is validated as a task.

A directory holds more JSON/YAML than suite documents, and those files are skipped
(counted, with the reason) rather than reported as broken tasks:

* benchwright's own reports: a scorecard, a gate report, a run's ``run.json``,
  ``summary.json`` or ``result.json`` (JUnit XML is not a document type at all);
* files inside fixture folders: the directories a task's ``fixture:`` names, and
  those named as `FIXTURE_DIRS` conventionally are (a fixture's ``package.json``, a
  reference app's config, audit ``controls/``);
* in a directory holding a suite file, task-shaped files its ``tasks:`` does not
  list (a checker's self-test fixtures, an API contract): the suite decides what its
  tasks are.

Only files found by walking a directory are skipped; a file named on the command line
is always validated.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

from benchwright.checks import CheckRegistry
from benchwright.dsl._documents import DOCUMENT_SUFFIXES, display_path, read_document
from benchwright.dsl.manifest import MANIFEST_KEYS, load_manifest
from benchwright.dsl.suite import SUITE_FILES, load_suite
from benchwright.dsl.task import task_from_dict
from benchwright.dsl.trajectory import trajectory_from_dict
from benchwright.errors import SpecError, SpecErrors
from benchwright.model import Task

FIXTURE_DIRS = frozenset(
    {"fixtures", "fixture", "reference", "solution", "solutions", "stamps", "controls"}
)
"""Folder names that hold a task's files or reference code, never suite documents."""
NEVER_READ = frozenset({"node_modules", "__pycache__"})
"""Folders not even walked (nor counted): dependencies and caches."""
SKIPPED_DIRS = FIXTURE_DIRS | NEVER_READ
REPORT = "benchwright reports"
IN_FIXTURE = "inside fixture or reference folders"
UNLISTED = "not listed by their suite file"
Kind = Literal["task", "trajectory", "manifest", "suite"]
T = TypeVar("T")


TASK_KEYS = frozenset({"prompt", "oracles", "checks", "workspace", "fixture"})


def document_kind(raw: Any) -> Kind:
    """Classify by keys; a task with a stray ``steps`` key stays a task (and is reported)."""
    if isinstance(raw, dict):
        if "steps" in raw and not TASK_KEYS & raw.keys():
            return "trajectory"
        if MANIFEST_KEYS & raw.keys():
            return "manifest"
        if "suite" in raw:
            return "suite"
    return "task"


def document_files(paths: Iterable[Path]) -> list[Path]:
    """Every JSON/YAML file named or found below the given paths, in a stable order."""
    return [found.path for found in _found(paths) if found.skipped is None]


@dataclass(frozen=True, slots=True)
class _Found:
    path: Path
    walked: bool
    """Found by walking a directory (not named on the command line)."""
    skipped: str | None = None


def _found(paths: Iterable[Path]) -> list[_Found]:
    found: list[_Found] = []
    for path in paths:
        if path.is_dir():
            found.extend(_walk(path))
        elif path.exists():
            found.append(_Found(path, walked=False))
        else:
            raise SpecError.single(display_path(path), "no such file or directory")
    return found


def _walk(root: Path) -> Iterator[_Found]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in NEVER_READ)
        inside = FIXTURE_DIRS & set(Path(dirpath).relative_to(root).parts)
        skipped = IN_FIXTURE if inside else None
        for name in sorted(filenames):
            if Path(name).suffix.lower() in DOCUMENT_SUFFIXES:
                yield _Found(Path(dirpath, name), walked=True, skipped=skipped)


def is_report(raw: Any) -> bool:
    """A JSON file benchwright wrote: versioned, and shaped as a scorecard, gate or run file."""
    if not isinstance(raw, dict) or "schema_version" not in raw:
        return False
    tool = raw.get("tool")
    ours = isinstance(tool, dict) and tool.get("name") == "benchwright"
    return ours or bool({"scorer_version", "run_id", "task_id"} & raw.keys())


@dataclass(frozen=True, slots=True)
class _Facts:
    """What deciding whether a walked file is skipped needs of its document: kept
    instead of the document, so a directory of thousands is never all in memory."""

    kind: Kind
    report: bool
    fixture: Path | None = None
    """The directory its ``fixture:`` names (a task's)."""
    listed: frozenset[Path] | None = None
    """The task files its ``tasks:`` lists (a suite file's)."""


def _facts(path: Path, raw: Any) -> _Facts:
    kind, fixture, listed = document_kind(raw), None, None
    if isinstance(raw, dict):
        if isinstance(raw.get("fixture"), str):
            where = (path.parent / raw["fixture"]).resolve()
            if where.is_dir() and not path.resolve().is_relative_to(where):  # else invalid
                fixture = where
        if path.name in SUITE_FILES and kind == "suite":
            listed = frozenset(_listed_tasks(path, raw))
    return _Facts(kind, is_report(raw), fixture, listed)


def _skip_reasons(found: list[_Found], facts: dict[Path, _Facts]) -> dict[Path, str]:
    """Why each walked file that is not a suite document is skipped."""
    walked = [f for f in found if f.walked]
    reasons = {f.path: f.skipped for f in walked if f.skipped}
    fixtures = [f.fixture for f in facts.values() if f.fixture is not None]
    listed = {p.parent.resolve(): f.listed for p, f in facts.items() if f.listed is not None}
    for f in walked:
        if f.path in reasons or f.path not in facts:
            continue
        fact = facts[f.path]
        if fact.report:
            reasons[f.path] = REPORT
            continue
        if not fixtures and not listed:
            continue  # nothing to be inside: resolving thousands of paths would be waste
        where = f.path.resolve()
        if any(where.is_relative_to(d) for d in fixtures):
            reasons[f.path] = IN_FIXTURE
        elif fact.kind == "task" and any(
            where.is_relative_to(d) and where not in tasks for d, tasks in listed.items()
        ):
            reasons[f.path] = UNLISTED
    return reasons


def _listed_tasks(suite: Path, raw: dict[str, Any]) -> set[Path]:
    patterns = raw.get("tasks")
    if not isinstance(patterns, list):
        return set()
    base = suite.parent
    return {p.resolve() for g in patterns if isinstance(g, str) for p in base.glob(g)}


@dataclass(frozen=True, slots=True)
class Validated:
    path: Path
    kind: Kind
    skipped: str | None = None
    """Why the file is not a suite document (`REPORT`, `IN_FIXTURE`, `UNLISTED`); not
    validated then."""
    unsolved: tuple[str, ...] = ()
    """A suite's graded tasks without a solution (`Task.unsolved`), by id: a suite is what
    ``run --agent oracle`` runs (a task outside one is graded by ``gate`` or replayed)."""


def validate_documents(
    paths: Iterable[Path], registry: CheckRegistry | None = None, tasks_dir: Path | None = None
) -> list[Validated]:
    """Validate every document below ``paths``; raise `SpecErrors` with all problems.

    A manifest's task files are looked for in ``tasks_dir`` first, as a gate with
    ``--tasks`` looks for them (`read_manifest`).

    Returns the valid documents, then the skipped files (``skipped`` says why).
    """

    def validate(path: Path, raw: Any, kind: Kind) -> Validated:
        tasks: tuple[Task, ...] = ()
        if kind == "task":
            task_from_dict(raw, path, registry)
        elif kind == "trajectory":
            trajectory_from_dict(raw, display_path(path))
        elif kind == "suite":
            tasks = load_suite(path, registry).tasks
        else:
            _manifest_lists_tasks(path, tasks_dir)
        return Validated(path, kind, unsolved=tuple(t.id for t in tasks if t.unsolved))

    ok, skipped = _each_document(paths, validate)
    return [*ok.values(), *(Validated(path, "task", why) for path, why in skipped.items())]


def skipped_line(checked: Iterable[Validated]) -> str | None:
    """``skipped 3 file(s) that are not suite documents: 1 benchwright reports, …``."""
    counts = Counter(v.skipped for v in checked if v.skipped)
    if not counts:
        return None
    reasons = ", ".join(f"{n} {why}" for why, n in counts.items())
    return f"skipped {counts.total()} file(s) that are not suite documents: {reasons}"


def _each_document(
    paths: Iterable[Path], handle: Callable[[Path, Any, Kind], T]
) -> tuple[dict[Path, T], dict[Path, str]]:
    """Read and classify every document, hand it on, and collect every file's `SpecError`.

    One document at a time: each is handed on as it is read and then dropped, and
    only what `_skip_reasons` needs of it is kept. Whether a walked file is skipped is
    known only once every file is read (a task's ``fixture:`` may name a folder seen
    earlier), so what ``handle`` returned or raised for a skipped file is dropped then.
    Returns ``handle``'s value per file, and the files skipped and why.
    """
    read_errors: list[SpecError] = []
    errors: dict[Path, SpecError] = {}
    values: dict[Path, T] = {}
    found = _found(paths)
    facts: dict[Path, _Facts] = {}
    for f in found:
        if f.skipped is not None:
            continue
        try:
            raw = read_document(f.path)
        except SpecError as exc:
            read_errors.append(exc)
            continue
        facts[f.path] = fact = _facts(f.path, raw)
        if fact.report and f.walked:
            continue
        try:
            values[f.path] = handle(f.path, raw, fact.kind)
        except SpecError as exc:
            errors[f.path] = exc
        del raw
    skipped = _skip_reasons(found, facts)
    problems = read_errors + [exc for path, exc in errors.items() if path not in skipped]
    if problems:
        raise SpecErrors(problems)
    return {path: v for path, v in values.items() if path not in skipped}, skipped


def _manifest_lists_tasks(manifest: Path, tasks_dir: Path | None) -> None:
    """A manifest's files exist and are task documents (they are validated on their own)."""
    for listed in load_manifest(manifest, tasks_dir):
        kind = document_kind(read_document(listed))
        if kind != "task":
            raise SpecError.single(
                display_path(manifest),
                f"{display_path(listed)} is a {kind}, not a task",
                "task_files",
            )


def load_tasks(paths: Iterable[Path], registry: CheckRegistry | None = None) -> list[Task]:
    """Every task below ``paths`` (trajectories and manifests there are passed over).

    Raises `SpecErrors` listing every invalid file, and a `SpecError` when no task is found:
    an empty gate must never pass. A file named explicitly (not found in a directory)
    must be a task.
    """
    return list(scan_tasks(paths, lambda task: task, registry).values())


def scan_tasks(
    paths: Iterable[Path], keep: Callable[[Task], T], registry: CheckRegistry | None = None
) -> dict[Path, T]:
    """Validate every task below ``paths`` as `load_tasks` does, keeping only what ``keep``
    returns of each: a gate over thousands of files loads each task again when it runs
    it, and holds none of them meanwhile. Raises as `load_tasks` does."""
    paths = list(paths)
    named = {p.resolve() for p in paths if not p.is_dir()}

    def collect(path: Path, raw: Any, kind: Kind) -> tuple[str, str, T] | None:
        if kind == "task":
            task = task_from_dict(raw, path, registry)
            return task.id, task.source, keep(task)
        if path.resolve() in named:
            raise SpecError.single(display_path(path), f"is a {kind}, not a task")
        return None

    values, _ = _each_document(paths, collect)
    found = {path: value for path, value in values.items() if value is not None}
    if not found:
        where = ", ".join(display_path(p) for p in paths)
        raise SpecError.single(
            where, "no task file found (looked for .json/.yaml/.yml task documents)"
        )
    _unique_ids((task_id, source) for task_id, source, _ in found.values())
    return {path: kept for path, (_, _, kept) in found.items()}


def _unique_ids(tasks: Iterable[tuple[str, str]]) -> None:
    """Refuse a task id twice, naming both files (``(id, source)`` pairs)."""
    first: dict[str, str] = {}
    for task_id, source in tasks:
        if task_id in first:
            raise SpecError.single(
                source, f"duplicate task id {task_id!r} (also in {first[task_id]})", "id"
            )
        first[task_id] = source
