"""Which directories of a workspace are Gradle roots: the builds B1-B3 run.

ACE runs "every discovered Gradle root". A root is a directory holding a
``settings.gradle``/``settings.gradle.kts`` (a build, possibly multi-project), or
a ``build.gradle``/``build.gradle.kts`` with no settings file above it in the
workspace (a single-project build, as each service of a three-service stack often
is). A root inside another root is that root's subproject, ``buildSrc`` or
included build: the outer build owns it, and it is not run on its own. So the
roots are the outermost directories holding any settings or build script.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import PurePosixPath

SCRIPTS = frozenset({"settings.gradle", "settings.gradle.kts", "build.gradle", "build.gradle.kts"})


def gradle_roots(files: Iterable[str]) -> list[str]:
    """The Gradle roots among ``files`` (relative POSIX paths), as relative dirs, outermost.

    ``"."`` is the workspace itself.
    """
    holders = {PurePosixPath(f).parent for f in files if PurePosixPath(f).name in SCRIPTS}
    roots = [d for d in holders if not any(o != d and d.is_relative_to(o) for o in holders)]
    return sorted(r.as_posix() for r in roots)


def build_scripts(files: Iterable[str]) -> list[str]:
    """Every Gradle script among ``files`` (settings and build, Groovy and Kotlin DSL)."""
    return sorted(f for f in files if PurePosixPath(f).name in SCRIPTS)
