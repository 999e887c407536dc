"""ACE S1-S9: the offline structure checks, pure filesystem and text scans.

Each check names, in its detail, the file(s) that decided it. The walk skips
build outputs and vendored trees (`_files.SKIPPED_DIRS`) and counts regular
files only, so a directory named ``Broken.java`` or ``gradlew`` never stands in
for a file. Choices the registry leaves open, made here:

- S5: a service's ``src/main`` must hold at least one non-empty ``.java`` or
  ``.kt`` file ("a real source tree"); the build script is read with comments
  stripped, so ``// org.springframework.boot`` applies nothing.
- S7: YAML keys count when they start a line (column 0, optionally quoted);
  JSON is parsed and its top-level object must hold both keys.
- S8: ``package.json`` is parsed; its top-level ``dependencies`` object must
  have the key ``react`` (``devDependencies``, prose and ``react-dom`` alone do not).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection
from pathlib import PurePosixPath
from typing import Any

from benchwright.checks.ace._env import AceEnv
from benchwright.checks.ace._files import Tree, compose_files, root_most
from benchwright.checks.ace._source import strip_comments
from benchwright.model import CheckResult

DOCS = {
    "S1": "docs/TASK_DEFINITION.md",
    "S2": "docs/IMPLEMENTATION_PLAN.md",
    "S3": "docs/PROGRESS.md",
}
DOC_MIN_BYTES = 200
"""S1-S3 need a file *over* this many bytes."""
MIGRATION_MIN_BYTES = 20
WRAPPER_MIN_BYTES = 1024
MIN_SERVICES = 3

_SPRING_BOOT = re.compile(r"org\.springframework\.boot|spring-boot")
_OPENAPI_FILE = re.compile(r"(openapi|api).*\.(ya?ml|json)", re.IGNORECASE)
_YAML_KEY = r"^[\"']?{}[\"']?[ \t]*:"
_SERVICE_SOURCE = (".java", ".kt")
_WRAPPER_PROPS = "gradle/wrapper/gradle-wrapper.properties"


def _doc(check_id: str) -> Callable[[Tree], CheckResult]:
    rel = DOCS[check_id]

    def check(tree: Tree) -> CheckResult:
        size = tree.size(rel)
        if size is None:
            return CheckResult.failing(check_id, f"{rel} is missing (or not a regular file)")
        if size <= DOC_MIN_BYTES:
            return CheckResult.failing(
                check_id,
                f"{rel} is {size} bytes (needs over {DOC_MIN_BYTES})",
                file=rel,
                bytes=size,
            )
        return CheckResult.passing(check_id, f"{rel} is {size} bytes", file=rel, bytes=size)

    return check


def _name(rel: str) -> str:
    return PurePosixPath(rel).name


def _parent(rel: str) -> str:
    parent = PurePosixPath(rel).parent.as_posix()
    return "" if parent == "." else parent


def _join(base: str, rel: str) -> str:
    return f"{base}/{rel}" if base else rel


def _s4(tree: Tree) -> CheckResult:
    found = compose_files(tree.files)
    if not found:
        return CheckResult.failing("S4", "no docker-compose.y*ml or compose.y*ml file")
    more = f" (root-most of {len(found)})" if len(found) > 1 else ""
    return CheckResult.passing("S4", f"compose file {found[0]}{more}", file=found[0], all=found)


def _s5(tree: Tree) -> CheckResult:
    services: dict[str, str] = {}
    rejected: dict[str, str] = {}
    for build in (f for f in tree.files if _name(f).startswith("build.gradle")):
        base = _parent(build)
        if not _SPRING_BOOT.search(strip_comments(tree.text(build), "java")):
            rejected[build] = "does not apply the Spring Boot plugin"
            continue
        main = _join(base, "src/main") + "/"
        source = next(
            (
                f
                for f in tree.files
                if f.startswith(main) and f.endswith(_SERVICE_SOURCE) and tree.size(f)
            ),
            None,
        )
        if source is None:
            rejected[build] = "has no non-empty .java/.kt file under src/main"
        else:
            services[base or "."] = source
    evidence: dict[str, Any] = {"services": services, "rejected": rejected}
    names = ", ".join(services) or "none"
    why = "; ".join(f"{b} {r}" for b, r in rejected.items())
    if len(services) >= MIN_SERVICES:
        return CheckResult.passing(
            "S5", f"{len(services)} Spring Boot services: {names}", **evidence
        )
    return CheckResult.failing(
        "S5",
        f"{len(services)} real Spring Boot service(s) (needs {MIN_SERVICES}): {names}"
        + (f"; {why}" if why else ""),
        **evidence,
    )


def _s6(tree: Tree) -> CheckResult:
    seen: dict[str, str] = {}
    for script in (f for f in tree.files if _name(f) == "gradlew"):
        base = _parent(script)
        size = tree.size(script) or 0
        props = tree.size(_join(base, _WRAPPER_PROPS)) is not None
        if size > WRAPPER_MIN_BYTES and props:
            return CheckResult.passing(
                "S6", f"Gradle wrapper in {base or '.'}: gradlew {size} bytes + properties",
                root=base or ".", gradlew_bytes=size,
            )  # fmt: skip
        seen[script] = f"{size} bytes" + ("" if props else f", no {_WRAPPER_PROPS} beside it")
    if not seen:
        return CheckResult.failing("S6", "no gradlew script")
    why = "; ".join(f"{s} {r}" for s, r in seen.items())
    return CheckResult.failing(
        "S6", f"no real wrapper (gradlew over {WRAPPER_MIN_BYTES} bytes + properties): {why}",
        candidates=seen,
    )  # fmt: skip


def _openapi_keys(text: str, rel: str) -> set[str]:
    if rel.lower().endswith(".json"):
        try:
            doc = json.loads(text)
        except ValueError:
            return set()
        return {k for k in ("openapi", "paths") if isinstance(doc, dict) and k in doc}
    return {k for k in ("openapi", "paths") if re.search(_YAML_KEY.format(k), text, re.MULTILINE)}


def openapi_candidates(tree: Tree) -> dict[str, set[str]]:
    """Every ``openapi*``/``api*`` .yml/.yaml/.json file, root-most first, with the
    top-level keys of ``openapi``/``paths`` it has (S7 and F6 read the same document)."""
    named = [f for f in tree.files if _OPENAPI_FILE.fullmatch(_name(f))]
    return {rel: _openapi_keys(tree.text(rel), rel) for rel in root_most(named)}


def openapi_document(tree: Tree) -> str | None:
    """The root-most file that looks like an OpenAPI document (S7's rule), or None."""
    return _first_document(openapi_candidates(tree))


def _first_document(found: dict[str, set[str]]) -> str | None:
    return next((rel for rel, keys in found.items() if keys == {"openapi", "paths"}), None)


def _s7(tree: Tree) -> CheckResult:
    found = openapi_candidates(tree)
    rel = _first_document(found)
    if rel is not None:
        return CheckResult.passing("S7", f"{rel} has top-level openapi: and paths:", file=rel)
    if not found:
        return CheckResult.failing("S7", "no openapi*/api* .yml/.yaml/.json file")
    seen = {f: sorted({"openapi", "paths"} - keys) for f, keys in found.items()}
    why = "; ".join(f"{f} lacks top-level {' and '.join(m)}" for f, m in seen.items())
    return CheckResult.failing("S7", f"no OpenAPI document: {why}", candidates=seen)


def _react_dependency(text: str) -> bool:
    try:
        doc = json.loads(text)
    except ValueError:
        return False
    deps = doc.get("dependencies") if isinstance(doc, dict) else None
    return isinstance(deps, dict) and "react" in deps


def _s8(tree: Tree) -> CheckResult:
    manifests = [f for f in tree.files if _name(f) == "package.json"]
    for rel in manifests:
        if _react_dependency(tree.text(rel)):
            return CheckResult.passing("S8", f"{rel} lists react in dependencies", file=rel)
    if not manifests:
        return CheckResult.failing("S8", "no package.json")
    return CheckResult.failing(
        "S8", f"react is in no dependencies block of {', '.join(manifests)}", checked=manifests
    )


def _is_migration(rel: str) -> bool:
    flyway = rel.endswith(".sql") and _parent(rel).split("/")[-2:] == ["db", "migration"]
    return flyway or "changelog" in _name(rel).lower()


def _s9(tree: Tree) -> CheckResult:
    found = {f: tree.size(f) or 0 for f in tree.files if _is_migration(f)}
    real = [f for f, size in found.items() if size > MIGRATION_MIN_BYTES]
    if real:
        return CheckResult.passing("S9", f"migration {real[0]}", files=real)
    if not found:
        return CheckResult.failing("S9", "no db/migration/*.sql or *changelog* file")
    sizes = ", ".join(f"{f} ({size} bytes)" for f, size in found.items())
    return CheckResult.failing(
        "S9", f"no migration over {MIGRATION_MIN_BYTES} bytes: {sizes}", files=list(found)
    )


_CHECKS: dict[str, Callable[[Tree], CheckResult]] = {
    **{check_id: _doc(check_id) for check_id in DOCS},
    "S4": _s4,
    "S5": _s5,
    "S6": _s6,
    "S7": _s7,
    "S8": _s8,
    "S9": _s9,
}
IDS = frozenset(_CHECKS)


def run(env: AceEnv, wanted: Collection[str]) -> dict[str, CheckResult]:
    """One record per wanted structure id (S1-S9)."""
    tree = Tree(env.workspace)
    return {check_id: _CHECKS[check_id](tree) for check_id in sorted(IDS & set(wanted))}
