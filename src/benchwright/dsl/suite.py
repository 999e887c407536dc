"""Suite files: a name, the classes tasks may declare, and the task files to run.

Everything a run needs is loaded and checked here, before any agent starts:
every listed task file, every task's class, unique ids usable as directory
names, and each task's tier (see `benchwright.dsl.tiers`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

from benchwright.checks import CheckRegistry
from benchwright.dsl._documents import display_path, problems_from, read_document
from benchwright.dsl.task import task_from_dict
from benchwright.dsl.tiers import tier_of
from benchwright.errors import SpecError, SpecErrors
from benchwright.model import StrictInput, Suite, Task

SUITE_FILES = ("suite.yaml", "suite.yml", "suite.json")
TASK_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
DEFAULT_BUDGET_S = 600.0


class _SuiteDocument(StrictInput):
    suite: str = Field(min_length=1)
    description: str = ""
    budget: float = Field(default=DEFAULT_BUDGET_S, gt=0)
    classes: dict[str, str] = Field(min_length=1)
    build_only_classes: list[str] = Field(default_factory=list)
    tasks: list[str] = Field(min_length=1)
    agent_network: Literal["none", "loopback", "host"] | None = None
    default_class: str | None = None
    """The class of every task that declares none (AgentBench JSON has no ``class``)."""


def suite_file(path: Path) -> Path:
    """The suite file named by ``path``: the file itself, or the one inside a directory."""
    if not path.is_dir():
        if not path.is_file():
            raise SpecError.single(display_path(path), "no such suite file or directory")
        return path
    found = [path / name for name in SUITE_FILES if (path / name).is_file()]
    if len(found) != 1:
        wanted = " | ".join(SUITE_FILES)
        what = "no suite file" if not found else "more than one suite file"
        raise SpecError.single(display_path(path), f"{what} ({wanted})")
    return found[0]


def load_suite(path: Path, registry: CheckRegistry | None = None) -> Suite:
    """Load a suite and all its tasks; raise `SpecError`/`SpecErrors` naming every problem."""
    file = suite_file(path).resolve()
    source = display_path(file)
    raw = read_document(file)
    if not isinstance(raw, dict):
        raise SpecError.single(source, f"a suite file holds an object, not {type(raw).__name__}")
    try:
        doc = _SuiteDocument.model_validate(raw)
    except ValidationError as exc:
        raise SpecError(source, problems_from(exc)) from None
    unknown = [c for c in doc.build_only_classes if c not in doc.classes]
    if unknown:
        raise SpecError.single(
            source, f"{unknown[0]!r} is not a key of 'classes'", "build_only_classes"
        )
    if doc.default_class is not None and doc.default_class not in doc.classes:
        raise SpecError.single(
            source, f"{doc.default_class!r} is not a key of 'classes'", "default_class"
        )
    tasks = _tasks(file, source, doc, registry)
    return Suite(
        name=doc.suite,
        tasks=tuple(tasks),
        description=doc.description,
        classes=dict(doc.classes),
        build_only_classes=tuple(doc.build_only_classes),
        budget_s=doc.budget,
        agent_network=doc.agent_network,
        tiers={task.id: tier_of(task, doc.build_only_classes) for task in tasks},
        source=str(file),
    )


def _tasks(
    file: Path, source: str, doc: _SuiteDocument, registry: CheckRegistry | None
) -> list[Task]:
    paths: list[Path] = []
    for n, pattern in enumerate(doc.tasks):
        matched = sorted(p for p in file.parent.glob(pattern) if p.is_file())
        if not matched:
            raise SpecError.single(source, f"{pattern!r} matches no file", f"tasks[{n}]")
        paths.extend(p for p in matched if p not in paths)
    tasks: list[Task] = []
    errors: list[SpecError] = []
    for task_path in paths:
        try:
            tasks.append(_suite_task(task_path, doc, registry, file.parent))
        except SpecError as exc:
            errors.append(exc)
    if errors:
        raise SpecErrors(errors)
    seen: dict[str, str] = {}
    for task in tasks:
        if task.id in seen:
            raise SpecError.single(
                task.source, f"duplicate task id {task.id!r} (also in {seen[task.id]})", "id"
            )
        seen[task.id] = task.source
    return tasks


def _suite_task(
    path: Path, doc: _SuiteDocument, registry: CheckRegistry | None, root: Path
) -> Task:
    raw: Any = read_document(path)
    if isinstance(raw, dict) and "suite" in raw:
        raise SpecError.single(display_path(path), "is a suite file, not a task")
    task = task_from_dict(raw, path, registry, root)
    if task.task_class is None and doc.default_class is not None:
        task = replace(task, task_class=doc.default_class)
    if not TASK_ID.fullmatch(task.id):
        raise SpecError.single(
            task.source, "must match [A-Za-z0-9][A-Za-z0-9._-]* in a suite", "id"
        )
    if task.task_class is None:
        raise SpecError.single(
            task.source,
            "required in a suite (one of the suite's classes, or the suite's default_class)",
            "class",
        )
    if task.task_class not in doc.classes:
        known = ", ".join(sorted(doc.classes))
        raise SpecError.single(
            task.source, f"unknown class {task.task_class!r}; known: {known}", "class"
        )
    return task
