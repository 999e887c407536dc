"""Gate manifests: which task files a gate runs.

A manifest lists ``task_files`` or names another manifest as ``task_subset``
(relative to the manifest that names it). A gate given ``--tasks DIR`` looks for each
task file in DIR first, as AgentBench does, and beside the manifest that lists it
second; `ManifestFiles.note` says which, so a surprise is visible. Without a tasks
directory, task files are relative to their manifest.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from benchwright.dsl._documents import display_path, read_document
from benchwright.errors import SpecError

MANIFEST_KEYS = frozenset({"task_files", "task_subset"})


@dataclass(frozen=True, slots=True)
class ManifestFiles:
    """The task files a manifest selects, and one line saying where they were found."""

    files: list[Path]
    note: str


def load_manifest(path: Path, tasks_dir: Path | None = None) -> list[Path]:
    """The task files a manifest selects, resolved and checked to exist."""
    return read_manifest(path, tasks_dir).files


def read_manifest(path: Path, tasks_dir: Path | None = None) -> ManifestFiles:
    """The task files a manifest selects: in ``tasks_dir`` first, beside the manifest second."""
    return _resolve(path.resolve(), (), tasks_dir.resolve() if tasks_dir else None)


def _resolve(path: Path, chain: tuple[Path, ...], tasks_dir: Path | None) -> ManifestFiles:
    source = display_path(path)
    if path in chain:
        cycle = " -> ".join(display_path(p) for p in (*chain, path))
        raise SpecError.single(source, f"manifest cycle: {cycle}", "task_subset")
    raw = read_document(path)
    if not isinstance(raw, dict) or not MANIFEST_KEYS & raw.keys():
        raise SpecError.single(
            source, "a manifest holds 'task_files' (a list) or 'task_subset' (a manifest path)"
        )
    if raw.keys() >= MANIFEST_KEYS:
        raise SpecError.single(source, "give either 'task_files' or 'task_subset', not both")
    if "task_subset" in raw:
        subset = raw["task_subset"]
        if not isinstance(subset, str) or not subset or "\0" in subset:
            raise SpecError.single(source, "must be a manifest path (no NUL bytes)", "task_subset")
        return _resolve((path.parent / subset).resolve(), (*chain, path), tasks_dir)
    entries = raw["task_files"]
    if not isinstance(entries, list) or not entries:
        raise SpecError.single(source, "must be a non-empty list of task file paths", "task_files")
    problems: list[tuple[str, str]] = []
    files: list[Path] = []
    listed: dict[Path, int] = {}
    beside = 0
    for n, entry in enumerate(entries):
        if not isinstance(entry, str) or "\0" in entry:
            problems.append((f"task_files[{n}]", "must be a path string (no NUL bytes)"))
            continue
        candidates = [(d / entry).resolve() for d in (tasks_dir, path.parent) if d is not None]
        found = [c for c in candidates if c.is_file()]
        if not found:
            looked = " or ".join(display_path(c) for c in dict.fromkeys(candidates))
            problems.append((f"task_files[{n}]", f"file not found: {looked}"))
            continue
        target = found[0]
        beside += tasks_dir is not None and target != candidates[0]
        if target in listed:
            problems.append((f"task_files[{n}]", f"same file as task_files[{listed[target]}]"))
        listed.setdefault(target, n)
        files.append(target)
    if problems:
        raise SpecError(source, problems)
    return ManifestFiles(files, _note(source, len(files), beside, tasks_dir))


def _note(source: str, total: int, beside: int, tasks_dir: Path | None) -> str:
    """Where a manifest's task files were found: the one line a gate prints about it."""
    if tasks_dir is None:
        where = "beside the manifest"
    elif beside == 0:
        where = f"in --tasks {display_path(tasks_dir)}"
    elif beside == total:
        where = f"beside the manifest (not in --tasks {display_path(tasks_dir)})"
    else:
        where = (
            f"{total - beside} in --tasks {display_path(tasks_dir)}, "
            f"{beside} beside the manifest (not in --tasks)"
        )
    return f"manifest {source}: {total} task file(s) found {where}"
