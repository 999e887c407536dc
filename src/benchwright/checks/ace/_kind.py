"""Is this a workspace ACE can grade at all? Its every rung reads Java/Kotlin source or a
Gradle build, so ``ace score`` on anything else printed a page of FAILs that each said
a different part of "wrong kind of workspace" (issue #26: the Python reference stack
``suites/ace/reference/trading``, which is served for ``--base-url``, never scored).
"""

from __future__ import annotations

import os
from pathlib import Path

JVM_FILES = frozenset(
    {"build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "gradlew",
     "pom.xml"}
)  # fmt: skip
JVM_SUFFIXES = (".java", ".kt")
SKIPPED_DIRS = frozenset({".git", "node_modules", ".venv", "__pycache__"})
MAX_ENTRIES = 50_000
"""Entries looked at before the workspace is taken as one (a huge tree is not refused)."""
WORKING_EXAMPLE = "suites/ace/selftest/good"
"""The shipped workspace ``ace score`` grades as meant (docs/ace.md)."""


def _names(workspace: Path) -> set[str] | None:
    """Every file name under ``workspace`` (skipping VCS and dependency folders), or None
    past `MAX_ENTRIES` (a huge tree is not refused)."""
    names: set[str] = set()
    seen = 0
    for _root, dirs, files in os.walk(workspace):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS]
        names.update(files)
        seen += len(files) + len(dirs)
        if seen > MAX_ENTRIES:
            return None
    return names


def kind_problem(workspace: Path, rung: str) -> str | None:
    """Why ``workspace`` cannot be graded on ``rung``, in one line, or None: it holds no
    Gradle/Maven build file and no Java/Kotlin source anywhere."""
    names = _names(workspace)
    if names is None or any(n in JVM_FILES or n.endswith(JVM_SUFFIXES) for n in names):
        return None
    held = "a Python project" if any(n.endswith(".py") for n in names) else "no Java source"
    return (
        f"not a Java/Gradle workspace ({held}): rung {rung} grades a Java 21 / Spring Boot / "
        f"Gradle project; score one such as {WORKING_EXAMPLE}, and serve a running stack "
        "(suites/ace/reference: python -m trading) for --base-url"
    )
