"""Assemble a gate's inputs: which tasks, and the trajectory graded against each.

Everything is validated here, before the first check runs: either loaded
(`select_tasks`, `pair_trajectories`) or, for a gate over thousands of files,
validated and dropped (`scan_selected`, `trajectory_files`) so that the gate loads
each task again when it grades it and never holds them all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from benchwright.checks import CheckRegistry
from benchwright.dsl._documents import DOCUMENT_SUFFIXES, display_path
from benchwright.dsl.discover import T, scan_tasks
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
    return list(scan_selected(tasks_dir, manifest, lambda task: task, registry, on_note).values())


def scan_selected(
    tasks_dir: Path | None,
    manifest: Path | None,
    keep: Callable[[Task], T],
    registry: CheckRegistry | None = None,
    on_note: Callable[[str], None] = lambda line: None,
) -> dict[Path, T]:
    """`select_tasks`' files, each validated and only what ``keep`` returns of it kept."""
    if manifest is None:
        if tasks_dir is None:
            raise SpecError.single("gate", "give --tasks DIR or --manifest FILE")
        return scan_tasks([tasks_dir], keep, registry)
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
    return scan_tasks(files, keep, registry)


def pair_trajectories(tasks: list[Task], trajectory: Path) -> list[tuple[Task, Trajectory]]:
    """Pair each task with its trajectory.

    A file is graded against every task (the AgentBench gate); a directory holds
    one trajectory per task, named ``<task id>.json`` (or ``.yaml``/``.yml``).
    """
    if not trajectory.is_dir():
        shared = load_trajectory(trajectory)
        return [(task, shared) for task in tasks]
    files = trajectory_files([task.id for task in tasks], trajectory)
    return [(task, load_trajectory(file)) for task, file in zip(tasks, files, strict=True)]


def trajectory_files(task_ids: Iterable[str], trajectory: Path) -> list[Path]:
    """The trajectory file of each task id, in order, every one validated (and dropped):
    `SpecErrors` lists every task without a valid one."""
    if not trajectory.is_dir():
        load_trajectory(trajectory)
        return [trajectory for _ in task_ids]
    files: list[Path] = []
    errors: list[SpecError] = []
    for task_id in task_ids:
        candidates = [trajectory / f"{task_id}{suffix}" for suffix in sorted(DOCUMENT_SUFFIXES)]
        found = [c for c in candidates if c.is_file()]
        try:
            if not found:
                raise SpecError.single(
                    display_path(trajectory),
                    f"no trajectory for task {task_id!r} ({task_id}.json|.yaml)",
                )
            load_trajectory(found[0])
            files.append(found[0])
        except SpecError as exc:
            errors.append(exc)
    if errors:
        raise SpecErrors(errors)
    return files
