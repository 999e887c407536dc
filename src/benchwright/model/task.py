"""Tasks and the checks they declare, as validated plain data.

`dsl/` builds these from files; nothing here reads a file or runs anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from pydantic import BaseModel


@dataclass(frozen=True, slots=True)
class CheckSpec:
    """One check a task wants, with its already-validated parameters."""

    id: str
    """Unique within the task; defaults to the type name (``type#n`` when repeated)."""
    type: str
    """Registered check type, e.g. ``assertion_exists``."""
    params: BaseModel
    """The type's parameter model, validated when the task file loaded."""
    tier: str | None = None
    weight: float = 1.0
    critical: bool = False
    diagnostic: bool = False
    """Computed and reported, excluded from every mean."""
    root: str | None = None
    """The check whose failure explains this one (attribution, never scoring)."""
    requires: tuple[str, ...] = ()
    """Capabilities the check needs (``docker``, ``browser``); absent ones mean SKIPPED."""


@dataclass(frozen=True, slots=True)
class Task:
    """A prompt, the workspace it starts from, and the checks that grade the result."""

    id: str
    name: str
    description: str
    prompt: str
    files: Mapping[str, bytes]
    """The initial workspace: relative POSIX path to content."""
    checks: tuple[CheckSpec, ...]
    tags: tuple[str, ...] = ()
    source: str = ""
    """The file this task was loaded from, for messages and provenance."""
    fixture: str | None = None
    """The fixture directory the files came from, when not inline."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "files", MappingProxyType(dict(self.files)))

    def check(self, check_id: str) -> CheckSpec:
        for spec in self.checks:
            if spec.id == check_id:
                return spec
        raise KeyError(check_id)


@dataclass(frozen=True, slots=True)
class Suite:
    """Tasks loaded together, e.g. every task file under a directory."""

    name: str
    tasks: tuple[Task, ...] = field(default_factory=tuple)
