"""Find and classify suite documents: tasks, trajectories and manifests.

A document's kind is read from its keys: ``steps`` makes a trajectory,
``task_files``/``task_subset`` a manifest, anything else is validated as a task.
Directories named in `SKIPPED_DIRS` hold fixtures and reference code, whose own
JSON/YAML files (``package.json``…) are not suite documents.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from benchwright.checks import CheckRegistry
from benchwright.dsl._documents import DOCUMENT_SUFFIXES, display_path, read_document
from benchwright.dsl.manifest import MANIFEST_KEYS, load_manifest
from benchwright.dsl.suite import load_suite
from benchwright.dsl.task import task_from_dict
from benchwright.dsl.trajectory import trajectory_from_dict
from benchwright.errors import SpecError, SpecErrors
from benchwright.model import Task

SKIPPED_DIRS = frozenset(
    {"fixtures", "fixture", "reference", "solution", "solutions", "stamps"}
    | {"selftest", "contract"}  # a checker's fixtures, a frozen API contract (suites/ace)
    | {"node_modules", "__pycache__"}
)
Kind = Literal["task", "trajectory", "manifest", "suite"]


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
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(_walk(path))
        elif path.exists():
            found.append(path)
        else:
            raise SpecError.single(display_path(path), "no such file or directory")
    return found


def _walk(root: Path) -> Iterator[Path]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIPPED_DIRS)
        for name in sorted(filenames):
            if Path(name).suffix.lower() in DOCUMENT_SUFFIXES:
                yield Path(dirpath, name)


@dataclass(frozen=True, slots=True)
class Validated:
    path: Path
    kind: Kind


def validate_documents(
    paths: Iterable[Path], registry: CheckRegistry | None = None
) -> list[Validated]:
    """Validate every document below ``paths``; raise `SpecErrors` with all problems."""
    ok: list[Validated] = []

    def validate(path: Path, raw: Any, kind: Kind) -> None:
        if kind == "task":
            task_from_dict(raw, path, registry)
        elif kind == "trajectory":
            trajectory_from_dict(raw, display_path(path))
        elif kind == "suite":
            load_suite(path, registry)
        else:
            _manifest_lists_tasks(path)
        ok.append(Validated(path, kind))

    _each_document(paths, validate)
    return ok


def _each_document(paths: Iterable[Path], handle: Callable[[Path, Any, Kind], None]) -> None:
    """Read and classify every document, hand it on, and collect every file's `SpecError`."""
    errors: list[SpecError] = []
    for path in document_files(paths):
        try:
            raw = read_document(path)
            handle(path, raw, document_kind(raw))
        except SpecError as exc:
            errors.append(exc)
    if errors:
        raise SpecErrors(errors)


def _manifest_lists_tasks(manifest: Path) -> None:
    """A manifest's files exist and are task documents (they are validated on their own)."""
    for listed in load_manifest(manifest):
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
    paths = list(paths)
    named = {p.resolve() for p in paths if not p.is_dir()}
    tasks: list[Task] = []

    def collect(path: Path, raw: Any, kind: Kind) -> None:
        if kind == "task":
            tasks.append(task_from_dict(raw, path, registry))
        elif path.resolve() in named:
            raise SpecError.single(display_path(path), f"is a {kind}, not a task")

    _each_document(paths, collect)
    if not tasks:
        where = ", ".join(display_path(p) for p in paths)
        raise SpecError.single(
            where, "no task file found (looked for .json/.yaml/.yml task documents)"
        )
    _unique_ids(tasks)
    return tasks


def _unique_ids(tasks: list[Task]) -> None:
    first: dict[str, Task] = {}
    for task in tasks:
        if task.id in first:
            raise SpecError.single(
                task.source,
                f"duplicate task id {task.id!r} (also in {first[task.id].source})",
                "id",
            )
        first[task.id] = task
