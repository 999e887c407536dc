"""C1's two anti-gaming guards, read before anything is built.

1. No Dockerfile may ``COPY``/``ADD`` a prebuilt artefact without ``--from=``: a
   ``.jar``/``.war``/``.class`` file or a build output directory (``build/``,
   ``target/``, ``out/``, ``dist/``) exists only where someone built it on the host,
   never in a clean checkout. Gradle's wrapper jar is source and is allowed; a
   ``--from=`` copy takes the artefact from an earlier build stage, which is the
   point. Instructions are read line by line, continuations joined, comments
   skipped, in both the shell form and the JSON-array form.
2. The compose file may not name an absolute host path (``/...``, ``~...``, a drive
   letter) as a build context, a Dockerfile or a bind-mount source, nor a relative
   one that climbs out of the workspace: nothing may escape the source-only copy.
"""

from __future__ import annotations

import json
import posixpath
import re
import shlex
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from benchwright.checks.ace._scratch import ARTEFACT_SUFFIXES, OUTPUT_DIRS, WRAPPER_JAR

_DOCKERFILE = re.compile(r"(?:.*\.)?[Dd]ockerfile(?:\..*)?")
_COPYING = re.compile(r"^\s*(COPY|ADD)\s+(.*)$", re.I | re.S)
_ABSOLUTE = re.compile(r"^(?:/|~|[A-Za-z]:[\\/])")
_REMOTE = re.compile(r"^(?:[a-z][\w+.-]*://|git@)", re.I)


@dataclass(frozen=True, slots=True)
class Violation:
    """One guard finding: the file, where in it, and what it does."""

    path: str
    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.path}{self.where}: {self.what}"


def is_dockerfile(rel: str) -> bool:
    """``Dockerfile``, ``Dockerfile.prod``, ``api.Dockerfile`` and the like."""
    return _DOCKERFILE.fullmatch(PurePosixPath(rel).name) is not None


def dockerfile_violations(path: str, text: str) -> list[Violation]:
    """Every ``COPY``/``ADD`` of a prebuilt artefact without ``--from=`` in one Dockerfile."""
    found = []
    for line, instruction in _instructions(text):
        copying = _COPYING.match(instruction)
        if copying is None:
            continue
        words = _arguments(copying.group(2))
        if any(w.lower().startswith("--from") for w in words):
            continue
        sources = [w for w in words if not w.startswith("--")][:-1]
        artefacts = [s for s in sources if _is_artefact(s)]
        if artefacts:
            what = f"host-built artefact: {copying.group(1).upper()} {artefacts[0]} without --from="
            found.append(Violation(path, f":{line}", what))
    return found


def compose_violations(path: str, document: Any) -> list[Violation]:
    """Every absolute (or escaping) host path of a parsed compose file's builds and binds."""
    found = []
    base = PurePosixPath(path).parent.as_posix()
    services = document.get("services") if isinstance(document, Mapping) else None
    for name, service in (services or {}).items():
        if not isinstance(service, Mapping):
            continue
        for role, value, inside in _host_paths(service):
            if why := _escapes(posixpath.join(base, inside), value):
                found.append(Violation(path, f" service {name}", f"{role} {value!r} {why}"))
    volumes = document.get("volumes") if isinstance(document, Mapping) else None
    for name, volume in (volumes or {}).items():
        device = (volume or {}).get("driver_opts", {}) if isinstance(volume, Mapping) else {}
        value = device.get("device") if isinstance(device, Mapping) else None
        if isinstance(value, str) and (why := _escapes(base, value)):
            found.append(Violation(path, f" volume {name}", f"bind device {value!r} {why}"))
    return found


def _instructions(text: str) -> Iterator[tuple[int, str]]:
    """(first line number, instruction with continuations joined), comments left out."""
    pending: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if stripped.startswith("#") or (not stripped and pending):
            continue  # a comment, or a blank line, inside or between instructions
        if not pending:
            start = number
        if stripped.endswith("\\"):
            pending.append(stripped[:-1])
            continue
        pending.append(stripped)
        yield start, " ".join(pending)
        pending = []
    if pending:
        yield start, " ".join(pending)


def _arguments(rest: str) -> list[str]:
    """The words of ``COPY``/``ADD``: flags first, then sources, the destination last."""
    flags: list[str] = []
    while (found := re.match(r"\s*(--\S+)", rest)) is not None:
        flags.append(found.group(1))
        rest = rest[found.end() :]
    rest = rest.strip()
    if rest.startswith("["):
        try:
            array = json.loads(rest)
            return [*flags, *(str(w) for w in array)]
        except ValueError:
            pass
    try:
        return [*flags, *shlex.split(rest)]
    except ValueError:
        return [*flags, *rest.split()]


def _is_artefact(source: str) -> bool:
    if _REMOTE.match(source):
        return False  # fetched by the build, not taken from the host
    parts = PurePosixPath(posixpath.normpath(source.lstrip("./") or ".")).parts
    if parts[-3:] == WRAPPER_JAR:
        return False
    if parts and parts[-1].endswith(ARTEFACT_SUFFIXES):
        return True
    return any(part in OUTPUT_DIRS for part in parts)


def _host_paths(service: Mapping[str, Any]) -> Iterator[tuple[str, str, str]]:
    """(role, host path, the directory it is relative to) of a service's build context,
    Dockerfile (relative to its context) and bind-mount sources."""
    build = service.get("build")
    if isinstance(build, str):
        yield "build context", build, "."
    elif isinstance(build, Mapping):
        context = build.get("context") if isinstance(build.get("context"), str) else "."
        yield "build context", context, "."
        if isinstance(build.get("dockerfile"), str):
            yield "dockerfile", build["dockerfile"], context
    for volume in service.get("volumes") or []:
        if isinstance(volume, str) and ":" in volume:
            drive = re.match(r"[A-Za-z]:[\\/]", volume)
            source = volume.split(":", 1)[0] if not drive else volume[: volume.find(":", 2)]
            if source.startswith(("/", ".", "~", "$")) or drive:
                yield "bind mount", source, "."
        elif (
            isinstance(volume, Mapping)
            and volume.get("type") == "bind"
            and isinstance(volume.get("source"), str)
        ):
            yield "bind mount", volume["source"], "."


def _escapes(base: str, value: str) -> str | None:
    """Why ``value`` reaches outside the workspace, or None when it stays inside."""
    if _REMOTE.match(value):
        return None  # a Git or HTTP build context: nothing of the host
    if _ABSOLUTE.match(value):
        return "is an absolute host path"
    if value.startswith("$"):
        return "is a host path taken from the environment"
    joined = posixpath.normpath(posixpath.join(base, value))
    if joined == ".." or joined.startswith("../"):
        return "climbs out of the workspace"
    return None
