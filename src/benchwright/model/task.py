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
class Solution:
    """A task's reference work, applied by the ``oracle`` agent (see docs/suites.md)."""

    files: Mapping[str, bytes] = field(default_factory=dict)
    """Copied over the workspace: relative POSIX path to content."""
    script: str | None = None
    """Absolute path of a script run in the workspace after ``files`` are copied."""
    answer: str | None = None
    """The oracle's final answer (nav tasks)."""


@dataclass(frozen=True, slots=True)
class Phase:
    """One agent turn of a task: its own prompt, budget and (for ``oracle``) solution."""

    name: str
    prompt: str
    budget_s: float | None = None
    solution: Solution | None = None


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
    task_class: str | None = None
    """The suite class (``class:`` in the file); decides the tier with the checks."""
    budget_s: float | None = None
    """Default wall-clock seconds per agent phase."""
    stamp: Mapping[str, bytes] = field(default_factory=dict)
    """Hidden oracle files written after the agent ran, never seen by it."""
    solution: Solution | None = None
    phases: tuple[Phase, ...] = ()
    """Declared phases; empty means one implicit phase named ``main``."""
    rung: str | None = None
    """An ACE ladder rung (``scorers/ace-ladder.json``): the run composes the task's ``ace``
    rows on it with the fixed denominator."""
    empty_workspace: bool = False
    """``workspace: empty``: the task starts from no files on purpose (a build task), so
    its checks judge only what the agent made (an implicit empty start is refused)."""
    vendor: str | None = None
    """The build vendor's profile name (``vendor: meridian``): a mock of it is served to
    the agent at the address its prompt names (`benchwright.services.vendors`)."""
    warnings: tuple[str, ...] = ()
    """Lines the loader wants a user to read (``file: field: why``) that do not stop the task:
    an AgentBench file's unknown oracle keys, kept as parameters (benchwright.dsl.agentbench)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "files", MappingProxyType(dict(self.files)))
        object.__setattr__(self, "stamp", MappingProxyType(dict(self.stamp)))

    @property
    def unsolved(self) -> bool:
        """Graded (it has checks) but with no solution, its own or a phase's: ``--agent
        oracle`` then changes nothing, as ``nop`` does, and its failure proves nothing."""
        return (
            bool(self.checks)
            and self.solution is None
            and not any(phase.solution for phase in self.phases)
        )

    @property
    def agent_phases(self) -> tuple[Phase, ...]:
        """The phases an agent runs, in order (the implicit ``main`` when none are declared)."""
        return self.phases or (Phase("main", self.prompt),)

    def check(self, check_id: str) -> CheckSpec:
        for spec in self.checks:
            if spec.id == check_id:
                return spec
        raise KeyError(check_id)


TIERS = ("correctness", "build", "latency")
"""Every task is in exactly one tier (docs/suites.md, "Tiers")."""


@dataclass(frozen=True, slots=True)
class Suite:
    """Tasks loaded together, e.g. every task file under a directory, or a suite file."""

    name: str
    tasks: tuple[Task, ...] = field(default_factory=tuple)
    description: str = ""
    classes: Mapping[str, str] = field(default_factory=dict)
    build_only_classes: tuple[str, ...] = ()
    budget_s: float = 600.0
    """Default wall-clock seconds per agent phase when a task or phase gives none."""
    tiers: Mapping[str, str] = field(default_factory=dict)
    """Task id → its tier, decided when the suite loaded."""
    source: str = ""
    """The suite file, absolute, so that a resumed run reloads the same suite."""
    agent_network: str | None = None
    """The agents' network policy for this suite (``none``, ``loopback``, ``host``); None
    keeps each agent's default. ``--agent-network`` overrides it."""

    def task(self, task_id: str) -> Task:
        for task in self.tasks:
            if task.id == task_id:
                return task
        raise KeyError(task_id)
