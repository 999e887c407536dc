"""Load and validate task files: AgentBench v0.1.0 JSON as-is, and our richer form.

Everything is validated before anything runs. Each problem names the file and
the field path (``tasks/x.yaml: oracles[2].pattern: required``), and all the
problems of a file are reported together.
"""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import ConfigDict, Field, ValidationError, field_validator

from benchwright.checks import CheckRegistry, UnknownCheckType, default_registry
from benchwright.dsl._documents import display_path, problems_from, read_document
from benchwright.dsl._rung import rung_problems
from benchwright.dsl._trial_fields import (
    phases_of,
    read_dir,
    solution_of,
    stamp_files,
    tree_conflicts,
)
from benchwright.dsl.agentbench import (
    AGENTBENCH_ORACLES,
    is_agentbench_task,
    lenient,
    parameter_keys,
)
from benchwright.dsl.tiers import guard_only_problem
from benchwright.errors import SpecError
from benchwright.model import CheckSpec, StrictInput, Task, inside_root, normalize_path
from benchwright.services.vendors import VendorProfile, vendor_profile

EMPTY = "empty"
"""``workspace: empty``: a task that starts from no files on purpose (a build task)."""
MAX_TASK_ID = 200
"""A task id names its run directory (``trials/<id>/``); file systems stop at 255 bytes."""


def task_id_problem(task_id: str) -> str | None:
    """Why ``task_id`` cannot name a directory of its own, if it cannot."""
    if len(task_id) > MAX_TASK_ID:
        return f"must be at most {MAX_TASK_ID} characters, got {len(task_id)}"
    if task_id in (".", ".."):
        return f"must not be {task_id!r}"
    if "/" in task_id or "\\" in task_id:
        return "must not contain '/' or '\\'"
    if task_id.startswith("-"):
        return "must not start with '-'"
    if any(unicodedata.category(c) == "Cc" for c in task_id):
        return "must not contain control characters"
    return None


class _TaskDocument(StrictInput):
    """The task envelope. ``oracles`` (AgentBench) and ``checks`` are the same list."""

    id: str = Field(min_length=1)
    name: str | None = None
    description: str = ""
    prompt: str | None = None
    prompt_file: str | None = Field(default=None, min_length=1)
    workspace: dict[str, str] | None = None
    """A path->content map; ``workspace: empty`` is taken off before validation (`EMPTY`)."""
    vendor: str | None = Field(default=None, min_length=1)
    fixture: str | None = None
    oracles: list[Any] | None = None
    checks: list[Any] | None = None
    tags: list[str] = Field(default_factory=list)
    task_class: str | None = Field(default=None, alias="class", min_length=1)
    budget: float | None = Field(default=None, gt=0)
    stamp: Any = None
    solution: Any = None
    phases: Any = None
    rung: str | None = Field(default=None, min_length=1)

    @field_validator("id")
    @classmethod
    def _names_a_directory(cls, value: str) -> str:
        if problem := task_id_problem(value):
            raise ValueError(f"{problem} (a task id names its run directory)")
        return value


_DOCUMENT_KEYS = frozenset(f.alias or name for name, f in _TaskDocument.model_fields.items())


class _CheckMeta(StrictInput):
    """The keys every check entry may carry besides its type's own parameters."""

    model_config = ConfigDict(extra="ignore")

    type: str
    id: str | None = Field(default=None, min_length=1)
    weight: float = Field(default=1.0, ge=0)
    tier: str | None = None
    critical: bool = False
    diagnostic: bool = False
    root: str | None = None
    requires: tuple[str, ...] = ()


_META_KEYS = frozenset(_CheckMeta.model_fields)


def load_task(path: Path, registry: CheckRegistry | None = None) -> Task:
    """Read, validate and build one task; raise `SpecError` listing every problem."""
    return task_from_dict(read_document(path), path, registry)


def task_from_dict(
    raw: object, path: Path, registry: CheckRegistry | None = None, root: Path | None = None
) -> Task:
    """Validate and build a task from a parsed document read from ``path``.

    ``root`` is the folder a ``prompt_file`` must lie in (the suite's; by default the
    task file's own).
    """
    registry = registry or default_registry()
    source = display_path(path)
    if not isinstance(raw, dict):
        raise SpecError.single(source, f"a task file holds an object, not {type(raw).__name__}")
    problems: list[tuple[str, str]] = []
    invalid: set[str] = set()
    empty = raw.get("workspace") == EMPTY
    if empty:
        raw = {k: v for k, v in raw.items() if k != "workspace"}
    # AgentBench's files keep unknown oracle keys as parameters (warnings) and need a name.
    warnings: list[str] | None = [] if is_agentbench_task(raw, path) else None
    try:
        doc = _TaskDocument.model_validate(raw)
    except ValidationError as exc:
        # Go on with the valid fields, so that one pass reports every problem of the file.
        problems.extend(problems_from(exc))
        invalid = {str(item["loc"][0]) for item in exc.errors() if item["loc"]}
        doc = _valid_part(raw, invalid)
    later: list[tuple[str, str]] = []
    key = "checks" if doc.checks is not None or "checks" in invalid else "oracles"
    entries = doc.checks if key == "checks" else doc.oracles
    latency_only = entries == [] and doc.task_class is not None
    fixture_problems: list[tuple[str, str]] = []
    files = _initial_files(doc, path.parent, fixture_problems, latency_only or empty)
    if empty and doc.fixture is not None:
        fixture_problems.append(("workspace", "'empty' and a 'fixture' exclude each other"))
    phases = phases_of(doc.phases, path.parent, later, files)
    profile = _vendor(doc.vendor, later)
    prompt = _prompt(doc, path.parent, root or path.parent, later)
    if profile is not None:
        prompt = None if prompt is None else profile.render(prompt)
        phases = tuple(replace(p, prompt=profile.render(p.prompt)) for p in phases)
    if prompt is None and not phases and not {"phases", "prompt_file"} & invalid:
        later.append(("prompt", "required (or 'prompt_file')"))
    if warnings is not None and doc.name is None and "name" not in invalid:
        later.append(("name", "required (an AgentBench task file names its task)"))
    later += fixture_problems  # in the order the fields were always reported
    if doc.checks is not None and doc.oracles is not None:
        later.append(("checks", "give either 'oracles' or 'checks', not both"))
    if not entries and not latency_only:
        later.append((key, "required: a non-empty list of checks (or [] with a class)"))
    phase_names = (
        None
        if any(f.startswith("phases") for f, _ in later)
        else (tuple(p.name for p in phases) or ("main",))
    )
    specs = _check_specs(entries or [], key, files, registry, later, phase_names, warnings)
    if doc.task_class is not None and (problem := guard_only_problem([s.type for s in specs])):
        later.append((key, problem))
    stamp = stamp_files(doc.stamp, path.parent, later)
    later += [(f"stamp[{json.dumps(p)}]", m) for p, m in tree_conflicts(files, stamp)]
    solution = solution_of(doc.solution, path.parent, "solution", later, files)
    if doc.rung is not None:
        later += rung_problems(doc.rung, [s.id for s in specs if s.type == "ace"])
    # A field already reported invalid is not reported again as missing.
    problems.extend((field, message) for field, message in later if field not in invalid)
    if problems:
        raise SpecError(source, problems)
    return Task(
        id=doc.id,
        name=doc.name or doc.id,
        description=doc.description,
        prompt=prompt if prompt is not None else "\n\n".join(p.prompt for p in phases),
        files=files,
        checks=tuple(specs),
        tags=tuple(doc.tags),
        source=source,
        fixture=doc.fixture,
        task_class=doc.task_class,
        budget_s=doc.budget,
        stamp=stamp,
        solution=solution,
        phases=phases,
        rung=doc.rung,
        empty_workspace=empty,
        vendor=doc.vendor if profile is not None else None,
        warnings=tuple(f"{source}: {line}" for line in warnings or ()),
    )


def _vendor(name: str | None, problems: list[tuple[str, str]]) -> VendorProfile | None:
    """The build vendor's profile (``vendor``), or None (none named, or unknown: reported)."""
    if name is None:
        return None
    try:
        return vendor_profile(name)
    except KeyError as exc:
        problems.append(("vendor", str(exc.args[0])))
        return None


def _prompt(
    doc: _TaskDocument, base: Path, root: Path, problems: list[tuple[str, str]]
) -> str | None:
    """``prompt``, or the text of ``prompt_file`` (relative to the task file, inside
    ``root``); None when neither is given or the file cannot be read (reported)."""
    if doc.prompt_file is None:
        return doc.prompt
    if doc.prompt is not None:
        problems.append(("prompt_file", "give either 'prompt' or 'prompt_file', not both"))
        return doc.prompt
    path = base / doc.prompt_file
    if not path.resolve().is_relative_to(root.resolve()):
        problems.append(("prompt_file", f"{doc.prompt_file!r} lies outside {display_path(root)}"))
        return None
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        problems.append(("prompt_file", f"file not found: {display_path(path)}"))
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(("prompt_file", f"cannot read {display_path(path)}: {exc}"))
    return None


def _valid_part(raw: dict[Any, Any], invalid: set[str]) -> _TaskDocument:
    """The envelope without its invalid and unknown fields (placeholders for required ones)."""
    kept = {k: v for k, v in raw.items() if k in _DOCUMENT_KEYS and k not in invalid}
    return _TaskDocument.model_validate({"id": "?", **kept})


def _initial_files(
    doc: _TaskDocument, base: Path, problems: list[tuple[str, str]], may_be_empty: bool = False
) -> dict[str, bytes]:
    """The fixture's files (if any) overlaid with the inline workspace (if any); none at
    all only when ``may_be_empty`` (a latency-only task, or ``workspace: empty``)."""
    files: dict[str, bytes] = {}
    if doc.fixture is not None:
        root = base / doc.fixture
        if not root.is_dir():
            problems.append(("fixture", f"directory not found: {display_path(root)}"))
        elif base.resolve().is_relative_to(root.resolve()):
            problems.append(("fixture", "must not contain the task file itself"))
        else:
            files.update(read_dir(root, "fixture", problems))
    inline: dict[str, str] = {}
    for raw_path, content in (doc.workspace or {}).items():
        rel = normalize_path(raw_path)
        if not inside_root(rel):
            problems.append(
                (f"workspace[{json.dumps(raw_path)}]", "path escapes the workspace root")
            )
            continue
        files[rel] = content.encode()
        inline[rel] = raw_path
    for rel, message in tree_conflicts((), files):
        where = f"workspace[{json.dumps(inline[rel])}]" if rel in inline else "fixture"
        problems.append((where, f"{rel}: {message}" if where == "fixture" else message))
    if doc.workspace is None and doc.fixture is None:
        if may_be_empty:  # no oracle to feed, or an empty start on purpose
            return files
        problems.append(
            ("workspace", "required: a non-empty path→content map (or 'fixture: <dir>')")
        )
    elif not files and not problems:
        if doc.workspace is not None:
            problems.append(("workspace", "must not be empty"))
        else:
            problems.append(
                ("fixture", f"directory holds no files: {display_path(base / doc.fixture)}")
            )
    return files


def _check_specs(
    entries: list[Any],
    key: str,
    files: dict[str, bytes],
    registry: CheckRegistry,
    problems: list[tuple[str, str]],
    phase_names: tuple[str, ...] | None,
    warnings: list[str] | None = None,
) -> list[CheckSpec]:
    """Validate each check entry; ``warnings`` (AgentBench files only) collects the unknown
    keys kept as parameters of AgentBench's oracle types, where our own files refuse them."""
    type_counts = Counter(
        e["type"] for e in entries if isinstance(e, dict) and isinstance(e.get("type"), str)
    )
    seen_of_type: Counter[str] = Counter()
    specs: list[tuple[int, CheckSpec]] = []
    for n, entry in enumerate(entries):
        where = f"{key}[{n}]"
        if not isinstance(entry, dict):
            problems.append((where, "must be an object with a 'type'"))
            continue
        try:
            meta = _CheckMeta.model_validate(entry)
        except ValidationError as exc:
            problems.extend(problems_from(exc, where))
            continue
        try:
            check_type = registry.get(meta.type)
        except UnknownCheckType as exc:
            problems.append((f"{where}.type", str(exc)))
            continue
        seen_of_type[meta.type] += 1
        params_raw = {k: v for k, v in entry.items() if k not in _META_KEYS}
        model = check_type.params
        if warnings is not None and meta.type in AGENTBENCH_ORACLES:
            extra = sorted(params_raw.keys() - parameter_keys(model))
            if extra:
                model = lenient(model)
                names = ", ".join(repr(k) for k in extra)
                warnings.append(f"{where}: unknown key(s) {names} kept as parameters "
                                "(AgentBench compatibility; no check reads them)")  # fmt: skip
        try:
            params = model.model_validate(params_raw)
        except ValidationError as exc:
            allowed = sorted(_META_KEYS | check_type.params.model_fields.keys())
            problems.extend(problems_from(exc, where, meta.type, allowed))
            continue
        problems.extend((f"{where}.{f}", m) for f, m in params.task_errors(files))
        if phase_names is not None:
            problems.extend((f"{where}.{f}", m) for f, m in params.phase_errors(phase_names))
        default_id = (
            meta.type if type_counts[meta.type] == 1 else f"{meta.type}#{seen_of_type[meta.type]}"
        )
        problems.extend((f"{where}.{f}", m) for f, m in params.id_errors(meta.id or default_id))
        specs.append(
            (
                n,
                CheckSpec(
                    id=meta.id or default_id,
                    type=meta.type,
                    params=params,
                    tier=meta.tier,
                    weight=meta.weight,
                    critical=meta.critical,
                    diagnostic=meta.diagnostic,
                    root=meta.root,
                    requires=meta.requires,
                ),
            )
        )
    _cross_check(specs, key, problems)
    return [spec for _, spec in specs]


def _cross_check(
    specs: list[tuple[int, CheckSpec]], key: str, problems: list[tuple[str, str]]
) -> None:
    """Ids are unique and roots name a check of the same task."""
    ids = Counter(spec.id for _, spec in specs)
    for n, spec in specs:
        if ids[spec.id] > 1:
            problems.append((f"{key}[{n}].id", f"duplicate check id {spec.id!r}"))
        if spec.root == spec.id:
            problems.append((f"{key}[{n}].root", "a check cannot be its own root"))
        elif spec.root is not None and spec.root not in ids:
            problems.append((f"{key}[{n}].root", f"no check with id {spec.root!r} in this task"))
