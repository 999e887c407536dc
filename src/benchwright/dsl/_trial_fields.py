"""The task fields trials use: ``stamp``, ``solution`` and ``phases`` (docs/suites.md).

Each reader appends ``(field, message)`` problems instead of raising, so that
one pass over a task file reports every problem, as the rest of the loader does.
Paths are resolved against the task file's directory and read now: a run never
discovers a missing solution half-way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Any

from benchwright.dsl._documents import display_path
from benchwright.dsl.trajectory import load_trajectory
from benchwright.errors import SpecError
from benchwright.model import Phase, Solution, inside_root, normalize_path
from benchwright.workspace import Workspace, read_tree, replay

Problems = list[tuple[str, str]]
HARNESS_DIRS = (".git", ".benchwright")
"""Where the harness keeps its own files; a stamp there would corrupt or fake them."""
PHASE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")
_SOLUTION_KEYS = frozenset({"files", "edits", "script", "answer"})
_PHASE_KEYS = frozenset({"name", "prompt", "budget", "solution"})


def tree_conflicts(existing: Collection[str], added: Iterable[str]) -> list[tuple[str, str]]:
    """``(path, message)`` for each added path that needs a file where the other needs a
    directory: ``a`` and ``a/b`` cannot both be written, and whichever comes second
    would fail half-way through a trial (materializing, stamping, copying a solution)."""
    added = list(added)
    every = set(existing) | set(added)
    directories = {p.rsplit("/", n)[0] for p in existing for n in range(1, p.count("/") + 1)}
    found = []
    for path in added:
        parts = path.split("/")
        clash = next((a for n in range(1, len(parts)) if (a := "/".join(parts[:n])) in every), None)
        if clash is None and path in directories:
            clash = next(p for p in existing if p.startswith(path + "/"))
        if clash is not None:
            found.append((path, f"conflicts with {clash!r} (one path, a file and a directory)"))
    return found


def read_dir(root: Path, where: str, problems: Problems) -> dict[str, bytes]:
    """The files of a fixture, stamp or solution directory; an entry `read_tree` refuses
    (a link out of the directory, a device, a FIFO) is reported, naming it."""
    try:
        return dict(read_tree(root))
    except OSError as exc:
        entry = Path(exc.filename or root)  # shown as named: display_path would follow a link
        problems.append(
            (where, f"cannot read {display_path(entry.parent)}/{entry.name}: {exc.strerror}")
        )
        return {}


def _path_text(raw: Any, where: str, problems: Problems) -> str | None:
    """A path given as text, relative to the task file; None (reported) when it is not one."""
    if not isinstance(raw, str) or "\0" in raw:
        problems.append((where, "must be a path string without NUL bytes"))
        return None
    return raw


def workspace_path_problem(rel: str) -> str | None:
    """Why ``rel`` cannot be written by the harness into a workspace, if it cannot."""
    if not inside_root(rel):
        return "path escapes the workspace root"
    if rel.split("/", 1)[0] in HARNESS_DIRS:
        return f"path is under {rel.split('/', 1)[0]}/, which the harness owns"
    return None


def stamp_files(raw: Any, base: Path, problems: Problems) -> dict[str, bytes]:
    """``stamp``: a map path → content, or a directory whose files are stamped."""
    if raw is None:
        return {}
    if isinstance(raw, str):
        if _path_text(raw, "stamp", problems) is None:
            return {}
        root = base / raw
        if not root.is_dir():
            problems.append(("stamp", f"directory not found: {display_path(root)}"))
            return {}
        known = len(problems)
        files = read_dir(root, "stamp", problems)
        if not files and len(problems) == known:
            problems.append(("stamp", f"directory holds no files: {display_path(root)}"))
        return files
    if not isinstance(raw, dict) or not raw:
        problems.append(("stamp", "must be a non-empty map path → content, or a directory"))
        return {}
    files: dict[str, bytes] = {}
    for raw_path, content in raw.items():
        where = f"stamp[{json.dumps(raw_path)}]"
        rel = normalize_path(str(raw_path))
        if problem := workspace_path_problem(rel):
            problems.append((where, problem))
        elif not isinstance(content, str):
            problems.append((where, f"must be a string, got {type(content).__name__}"))
        else:
            files[rel] = content.encode()
    return files


def solution_of(
    raw: Any, base: Path, where: str, problems: Problems, start: Mapping[str, bytes]
) -> Solution | None:
    """``solution``: a directory, edits (``.json``), a script, or ``{files, edits, script,
    answer}``; ``start`` is the workspace the edits are replayed onto."""
    if raw is None:
        return None
    if isinstance(raw, str):
        if _path_text(raw, where, problems) is None:
            return None
        target = base / raw
        if target.is_dir():
            raw = {"files": raw}
        elif target.is_file() and target.suffix == ".json":
            raw = {"edits": raw}
        elif target.is_file():
            raw = {"script": raw}
        else:
            problems.append((where, f"no such directory or script: {display_path(target)}"))
            return None
    if not isinstance(raw, dict) or not raw:
        problems.append(
            (where, "must be a directory, a script, or an object (files|script|answer)")
        )
        return None
    if unknown := sorted(set(raw) - _SOLUTION_KEYS):
        allowed = ", ".join(sorted(_SOLUTION_KEYS))
        problems.append((f"{where}.{unknown[0]}", f"unknown field (allowed: {allowed})"))
        return None
    named = {k: _path_text(raw[k], f"{where}.{k}", problems) for k in ("files", "edits", "script")
             if k in raw}  # fmt: skip
    files: dict[str, bytes] = {}
    if named.get("files") is not None:
        root = base / named["files"]
        if root.is_dir():
            files = read_dir(root, f"{where}.files", problems)
            conflicts = tree_conflicts(start, files)
            problems.extend((f"{where}.files", f"{p}: {m}") for p, m in conflicts)
        else:
            problems.append((f"{where}.files", f"directory not found: {display_path(root)}"))
    if named.get("edits") is not None:
        files |= _edited(base / named["edits"], {**start, **files}, f"{where}.edits", problems)
    script = None
    if named.get("script") is not None:
        path = base / named["script"]
        if path.is_file():
            script = str(path.resolve())
        else:
            problems.append((f"{where}.script", f"file not found: {display_path(path)}"))
    answer = raw.get("answer")
    if answer is not None and not isinstance(answer, str):
        problems.append((f"{where}.answer", f"must be a string, got {type(answer).__name__}"))
        answer = None
    return Solution(files=files, script=script, answer=answer)


def _edited(
    path: Path, start: Mapping[str, bytes], where: str, problems: Problems
) -> dict[str, bytes]:
    """The files an edit trajectory adds or changes when replayed onto ``start``.

    A reference solution stored as edits says what it changes instead of copying whole
    fixture files; an edit that no longer applies is reported now, naming its step.
    """
    if not path.is_file():
        problems.append((where, f"file not found: {display_path(path)}"))
        return {}
    try:
        trajectory = load_trajectory(path)
    except SpecError as exc:
        problems.extend((where, line) for line in exc.lines())
        return {}
    workspace = Workspace(dict(start))
    failed = replay(workspace, trajectory)
    problems.extend((where, f"{display_path(path)}: steps[{e.step_index}]: {e.path}: {e.reason}")
                    for e in failed)  # fmt: skip
    return {p: data for p, data in workspace.files.items() if start.get(p) != data}


def phases_of(
    raw: Any, base: Path, problems: Problems, start: Mapping[str, bytes]
) -> tuple[Phase, ...]:
    """``phases``: ordered ``{name, prompt, budget?, solution?}`` objects with unique names;
    a phase's edits replay onto ``start`` plus the earlier phases' solution files."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or not raw:
        problems.append(("phases", "must be a non-empty list of phase objects"))
        return ()
    phases: list[Phase] = []
    current = dict(start)
    for n, entry in enumerate(raw):
        where = f"phases[{n}]"
        if not isinstance(entry, dict):
            problems.append((where, "must be an object with a name and a prompt"))
            continue
        if unknown := sorted(set(entry) - _PHASE_KEYS):
            allowed = ", ".join(sorted(_PHASE_KEYS))
            problems.append((f"{where}.{unknown[0]}", f"unknown field (allowed: {allowed})"))
            continue
        name, prompt, budget = entry.get("name"), entry.get("prompt"), entry.get("budget")
        if not isinstance(name, str) or not PHASE_NAME.fullmatch(name):
            problems.append((f"{where}.name", "required: lower-case letters, digits, _ and -"))
        elif any(p.name == name for p in phases):
            problems.append((f"{where}.name", f"duplicate phase name {name!r}"))
        if not isinstance(prompt, str) or not prompt.strip():
            problems.append((f"{where}.prompt", "required: a non-empty string"))
        seconds_given = isinstance(budget, int | float) and not isinstance(budget, bool)
        if budget is not None and (not seconds_given or budget <= 0):
            problems.append((f"{where}.budget", f"must be a number > 0, got {budget!r}"))
        solution = solution_of(entry.get("solution"), base, f"{where}.solution", problems, current)
        current |= solution.files if solution else {}
        if isinstance(name, str) and isinstance(prompt, str):
            seconds = float(budget) if seconds_given else None
            phases.append(Phase(name, prompt, seconds, solution))
    return tuple(phases)
