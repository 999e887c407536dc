"""Gate manifests: which task files a gate runs.

A manifest lists ``task_files`` or names another manifest as ``task_subset``;
paths are relative to the manifest file that holds them.
"""

from __future__ import annotations

from pathlib import Path

from benchwright.dsl._documents import display_path, read_document
from benchwright.errors import SpecError

MANIFEST_KEYS = frozenset({"task_files", "task_subset"})


def load_manifest(path: Path) -> list[Path]:
    """The task files a manifest selects, resolved and checked to exist."""
    return _resolve(path.resolve(), ())


def _resolve(path: Path, chain: tuple[Path, ...]) -> list[Path]:
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
        return _resolve((path.parent / subset).resolve(), (*chain, path))
    entries = raw["task_files"]
    if not isinstance(entries, list) or not entries:
        raise SpecError.single(source, "must be a non-empty list of task file paths", "task_files")
    problems: list[tuple[str, str]] = []
    files: list[Path] = []
    listed: dict[Path, int] = {}
    for n, entry in enumerate(entries):
        if not isinstance(entry, str) or "\0" in entry:
            problems.append((f"task_files[{n}]", "must be a path string (no NUL bytes)"))
            continue
        target = (path.parent / entry).resolve()
        if not target.is_file():
            problems.append((f"task_files[{n}]", f"file not found: {display_path(target)}"))
        elif target in listed:
            problems.append((f"task_files[{n}]", f"same file as task_files[{listed[target]}]"))
        listed.setdefault(target, n)
        files.append(target)
    if problems:
        raise SpecError(source, problems)
    return files
