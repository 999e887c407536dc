"""The source-only scratch copy B1-B3 and C1 build from.

ACE grades packaging from a clean checkout: whatever the agent built on its own
machine (``build/``, ``target/``, ``node_modules/``, a committed jar) must not
reach a build, or an image could ship an artefact the sources cannot produce.
The copy keeps sources only and records what it left out, by kind, as evidence.

What counts as a build output:

- ``.git``, ``.gradle``, ``node_modules`` and IDE state (``.idea``) anywhere;
- ``build``, ``target``, ``out`` and ``dist`` anywhere except under a ``src``
  directory, where such a name is a Java package (``com.acme.build``), not output;
- files ending ``.jar``, ``.war`` or ``.class``, except Gradle's own wrapper jar
  (``gradle/wrapper/gradle-wrapper.jar``), which is source;
- symbolic links, which could point a build at anything on the host.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

ALWAYS_STRIPPED = frozenset({".git", ".gradle", "node_modules", ".idea"})
OUTPUT_DIRS = frozenset({"build", "target", "out", "dist"})
ARTEFACT_SUFFIXES = (".jar", ".war", ".class")
WRAPPER_JAR = ("gradle", "wrapper", "gradle-wrapper.jar")


@dataclass(frozen=True, slots=True)
class Selection:
    """The workspace's source files (relative POSIX paths) and what was left out, by kind."""

    files: tuple[str, ...]
    stripped: dict[str, list[str]] = field(default_factory=dict)
    """``directory``, ``artefact`` and ``symlink`` -> relative paths left out."""


@contextlib.contextmanager
def scratch_area(parent: Path | None) -> Iterator[Path]:
    """A private temporary directory (under ``parent`` when given), removed afterwards."""
    if parent is not None:
        parent.mkdir(parents=True, exist_ok=True)
    made = Path(tempfile.mkdtemp(prefix="bw-ace-", dir=parent))
    try:
        yield made
    finally:
        shutil.rmtree(made, ignore_errors=True)


def select(workspace: Path) -> Selection:
    """The source files of ``workspace``, without build outputs, artefacts or links."""
    files: list[str] = []
    stripped: dict[str, list[str]] = {}
    for rel, kind in _walk(workspace):
        if kind == "file":
            files.append(rel)
        else:
            stripped.setdefault(kind, []).append(rel)
    return Selection(tuple(sorted(files)), stripped)


def copy_sources(workspace: Path, dest: Path) -> Selection:
    """Copy the source files of ``workspace`` into ``dest`` (created); returns the selection."""
    chosen = select(workspace)
    dest.mkdir(parents=True, exist_ok=True)
    for rel in chosen.files:
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(workspace / rel, target, follow_symlinks=False)
    return chosen


def _walk(workspace: Path) -> Iterator[tuple[str, str]]:
    """(relative path, kind) for every entry: ``file`` or the kind it was stripped as."""
    for top, dirs, names in os.walk(workspace):
        here = PurePosixPath(Path(top).relative_to(workspace).as_posix())
        kept: list[str] = []
        for name in sorted(dirs):
            rel = (here / name).as_posix()
            if Path(top, name).is_symlink():
                yield rel, "symlink"
            elif _is_output_dir(here, name):
                yield rel, "directory"
            else:
                kept.append(name)
        dirs[:] = kept
        for name in sorted(names):
            rel = here / name
            if Path(top, name).is_symlink():
                yield rel.as_posix(), "symlink"
            elif _is_artefact(rel):
                yield rel.as_posix(), "artefact"
            elif Path(top, name).is_file():
                yield rel.as_posix(), "file"


def _is_output_dir(parent: PurePosixPath, name: str) -> bool:
    if name in ALWAYS_STRIPPED:
        return True
    return name in OUTPUT_DIRS and "src" not in parent.parts


def _is_artefact(rel: PurePosixPath) -> bool:
    if not rel.name.endswith(ARTEFACT_SUFFIXES):
        return False
    return rel.parts[-3:] != WRAPPER_JAR
