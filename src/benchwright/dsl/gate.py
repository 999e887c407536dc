"""Assemble a gate's inputs: which tasks, and the trajectory graded against each.

Everything is loaded and validated here, before the first check runs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from benchwright.checks import CheckRegistry
from benchwright.dsl._documents import DOCUMENT_SUFFIXES, display_path
from benchwright.dsl.discover import load_tasks
from benchwright.dsl.manifest import read_manifest
from benchwright.dsl.trajectory import load_trajectory
from benchwright.errors import SpecError, SpecErrors
from benchwright.model import Task, Trajectory


def select_tasks(
    tasks_dir: Path | None,
    manifest: Path | None,
    registry: CheckRegistry | None = None,
    on_note: Callable[[str], None] = lambda line: None,
) -> list[Task]:
    """All tasks under ``tasks_dir``, or the manifest's task files (which must lie under it).

    The manifest's files are looked for in ``tasks_dir`` first (`read_manifest`); ``on_note``
    receives the one line saying where they were found.
    """
    if manifest is None:
        if tasks_dir is None:
            raise SpecError.single("gate", "give --tasks DIR or --manifest FILE")
        return load_tasks([tasks_dir], registry)
    selection = read_manifest(manifest, tasks_dir)
    files = selection.files
    on_note(selection.note)
    if tasks_dir is not None:
        root = tasks_dir.resolve()
        outside = [f for f in files if not f.is_relative_to(root)]
        if outside:
            raise SpecError.single(
                display_path(manifest),
                f"{display_path(outside[0])} is not under --tasks {display_path(tasks_dir)}",
                "task_files",
            )
    return load_tasks(files, registry)


def pair_trajectories(tasks: list[Task], trajectory: Path) -> list[tuple[Task, Trajectory]]:
    """Pair each task with its trajectory.

    A file is graded against every task (the AgentBench gate); a directory holds
    one trajectory per task, named ``<task id>.json`` (or ``.yaml``/``.yml``).
    """
    if not trajectory.is_dir():
        shared = load_trajectory(trajectory)
        return [(task, shared) for task in tasks]
    pairs: list[tuple[Task, Trajectory]] = []
    errors: list[SpecError] = []
    for task in tasks:
        candidates = [trajectory / f"{task.id}{suffix}" for suffix in sorted(DOCUMENT_SUFFIXES)]
        found = [c for c in candidates if c.is_file()]
        try:
            if not found:
                raise SpecError.single(
                    display_path(trajectory),
                    f"no trajectory for task {task.id!r} ({task.id}.json|.yaml)",
                )
            pairs.append((task, load_trajectory(found[0])))
        except SpecError as exc:
            errors.append(exc)
    if errors:
        raise SpecErrors(errors)
    return pairs
