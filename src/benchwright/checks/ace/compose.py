"""C1: the agent's docker compose stack, from a source-only copy, brings >= 3 services healthy.

First the anti-gaming guards (`_guards`), which read files only and so run with
or without an engine: a Dockerfile ``COPY``/``ADD`` of a prebuilt artefact
without ``--from=`` FAILs ("host-built artefact"), and so does an absolute host
path in a compose build context or bind mount. ACE gates C1 on Docker; we read
that gate as "the stack cannot be *run* here", not "nothing can be *seen*": a
violation is a detection, and the selftest's committed-jar cheat must fail by it
on a machine without an engine. For the same reason a workspace with no compose
file, or one that does not parse, FAILs offline. Only what needs the running
stack is SKIPPED without an engine.

With an engine, the root-most compose file is brought up from the scratch copy
and read as `_compose_up` says; PASS needs >= 3 healthy non-database services
and none bad. `stack` is the same bring-up for the oracle, which needs a base
URL for C2 and F1-F9.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Any

import yaml

from benchwright.checks.ace._compose_up import MIN_HEALTHY, Stack, read, running
from benchwright.checks.ace._env import AceEnv
from benchwright.checks.ace._files import COMPOSE_NAMES, compose_files
from benchwright.checks.ace._guards import (
    Violation,
    compose_violations,
    dockerfile_violations,
    is_dockerfile,
)
from benchwright.checks.ace._scratch import copy_sources, scratch_area, select
from benchwright.model import CheckResult, Status

IDS = frozenset({"C1"})
READ_LIMIT = 1024 * 1024


def run(env: AceEnv, wanted: Collection[str]) -> dict[str, CheckResult]:
    """C1's record when wanted (see the module docstring for what passes)."""
    if "C1" not in wanted:
        return {}
    return {"C1": _c1(env)}


def compose_file(files: Collection[str]) -> str | None:
    """The root-most compose file (fewest directories, then by name): the stack definition."""
    return next(iter(compose_files(files)), None)


@contextlib.contextmanager
def stack(env: AceEnv) -> Iterator[Stack | None]:
    """The workspace's stack, up from a source-only copy; None without an engine or a
    compose file. Always brought down afterwards (unverified: needs an engine)."""
    chosen = select(env.workspace)
    file = compose_file(chosen.files)
    try:
        document = None if file is None else _load(env.workspace, file)
    except (OSError, ValueError, yaml.YAMLError):
        document = None  # C1 says why; the oracle only learns there is no stack
    if not env.engine.available or file is None or document is None:
        yield None
        return
    with scratch_area(env.scratch) as area:
        copy = area / "source"
        copy_sources(env.workspace, copy)
        with running(_project(), copy, file, document) as up:
            yield up


def _c1(env: AceEnv) -> CheckResult:
    chosen = select(env.workspace)
    file = compose_file(chosen.files)
    if file is None:
        return CheckResult.failing("C1", f"no compose file ({' / '.join(COMPOSE_NAMES)})")
    try:
        document = _load(env.workspace, file)
    except (ValueError, yaml.YAMLError) as exc:
        return CheckResult.failing("C1", f"{file} does not parse: {_first_line(exc)}", file=file)
    except OSError as exc:
        return CheckResult("C1", Status.INFRA, 0.0, f"cannot read {file}: {exc}", {"file": file})
    violations = compose_violations(file, document)
    for rel in filter(is_dockerfile, chosen.files):
        try:
            violations += dockerfile_violations(rel, _read(env.workspace / rel))
        except OSError as exc:
            return CheckResult("C1", Status.INFRA, 0.0, f"cannot read {rel}: {exc}", {})
    evidence: dict[str, Any] = {"file": file, "violations": [str(v) for v in violations]}
    if violations:
        return CheckResult.failing("C1", _guard_detail(violations), **evidence)
    if not env.engine.available:
        return CheckResult("C1", Status.SKIPPED, 0.0, env.engine.reason, evidence)
    with stack(env) as up:
        return _judge(up, evidence)


def _judge(up: Stack | None, evidence: dict[str, Any]) -> CheckResult:
    if up is None:
        return CheckResult("C1", Status.INFRA, 0.0, "the stack could not be brought up", evidence)
    reading = read(up.states)
    evidence = {
        **evidence,
        "healthy": reading.healthy,
        "bad": reading.bad,
        "settling": reading.settling,
        "not_counted": reading.databases,
        "up_error": up.up_error,
    }
    healthy = f"{len(reading.healthy)} healthy non-database services"
    if reading.bad:
        return CheckResult.failing(
            "C1", f"{healthy}, but bad: {', '.join(reading.bad)}", **evidence
        )
    if len(reading.healthy) < MIN_HEALTHY:
        why = f" (compose up: {up.up_error})" if up.up_error else ""
        return CheckResult.failing("C1", f"{healthy} (need {MIN_HEALTHY}){why}", **evidence)
    return CheckResult.passing("C1", f"{healthy}: {', '.join(reading.healthy)}", **evidence)


def _guard_detail(violations: list[Violation]) -> str:
    more = f" (and {len(violations) - 1} more)" if len(violations) > 1 else ""
    return f"{violations[0]}{more}"


def _load(workspace: Path, file: str) -> Any:
    return yaml.safe_load(_read(workspace / file))


def _read(path: Path) -> str:
    with path.open("rb") as handle:
        return handle.read(READ_LIMIT).decode("utf-8", errors="replace")


def _project() -> str:
    return f"bw-ace-{uuid.uuid4().hex[:10]}"


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
