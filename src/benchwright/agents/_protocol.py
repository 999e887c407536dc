"""The Agent protocol: given a workspace, a prompt and a budget, produce an outcome.

An agent works on a real directory. It never grades and never sees the
task's hidden files: the trial stamps those after the last phase.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from benchwright.model import Phase, ReplayError, Task
from benchwright.sandbox import CONFINED, Confinement, Edge, Network, Sandbox
from benchwright.workspace import WorkspaceCaps, read_regular

ANSWER_LIMIT = 2_000_000
"""Bytes of an answer file read back; an agent cannot make the harness read a huge file."""


@dataclass(frozen=True, slots=True)
class AgentRequest:
    """One phase of one trial, as an agent receives it."""

    task: Task
    phase: Phase
    last_phase: bool
    workspace: Path
    """The directory to work in; the harness snapshots it from outside (never via ``.git``)."""
    budget_s: float
    """Wall-clock seconds for this phase; past them the agent is killed."""
    answer_file: Path
    """Where the agent may write its final answer (outside the workspace)."""
    scratch: Path
    """A private directory outside the workspace for prompt files and agent logs."""
    env: Mapping[str, str] = field(default_factory=dict)
    """Variables the user passed on (``--env``), on top of the allow-listed ones."""
    seed: int = 0
    confinement: Confinement = CONFINED
    """How the agent's processes are confined: a sandbox where only ``workspace`` and
    ``scratch`` are writable and every process ends with the phase."""
    network: Network | None = None
    """The run's network policy for the agent; None means the agent's own default."""
    logs: Path | None = None
    """A directory for the agent's stdout/stderr files that the agent itself cannot reach;
    None: a ``logs-<phase>`` directory beside ``scratch``."""
    caps: WorkspaceCaps = field(default_factory=WorkspaceCaps)
    """How much the workspace may hold after the phase (a replay stops at them)."""
    edge: Edge | None = None
    """The build vendor's relay (a task with ``vendor:``): every sandbox of this request
    runs behind it, in a network namespace of its own where the vendor answers at the
    address the prompt names and nothing else of the host does. None: no build vendor,
    or it is served on the host's loopback (`benchwright.services.build_vendor`)."""

    def read_answer(self) -> str | None:
        """What the agent left in ``answer_file``: a regular file only, never read through
        a link it planted (``answer.txt -> /etc/shadow``), at most `ANSWER_LIMIT` bytes."""
        data = read_regular(self.answer_file, ANSWER_LIMIT)
        return None if data is None else data.decode("utf-8", errors="replace")

    def log_dir(self) -> Path:
        """This phase's directory for ``stdout.txt``/``stderr.txt``, created if needed."""
        logs = self.logs or self.scratch.parent / f"logs-{self.phase.name}"
        logs.mkdir(parents=True, exist_ok=True)
        return logs

    def sandbox(self, default_network: Network, readable: tuple[Path, ...] = ()) -> Sandbox | None:
        """The agent's sandbox: ``workspace`` and ``scratch`` writable, nothing else; behind
        the build vendor's relay when the task has one (`edge`)."""
        return self.confinement.sandbox(
            (self.workspace, self.scratch), readable=readable,
            network=self.network or default_network, edge=self.edge,
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class AgentOutcome:
    """What one phase produced. ``error`` set means the phase did not run as asked."""

    exit_code: int | None
    """None when the agent never started or was killed at its budget."""
    wall_s: float
    stdout: str = ""
    stderr: str = ""
    answer: str | None = None
    """The final answer, when the agent gave one."""
    steps: tuple[Mapping[str, Any], ...] = ()
    """Trajectory steps (the normalized vocabulary), when the agent's transcript is known."""
    metadata: Mapping[str, Any] = field(default_factory=dict)
    timed_out: bool = False
    error: str | None = None
    """One line starting with its cause (``agent:``, ``budget:``), when the phase failed to run."""
    limit: str | None = None
    """The sandbox limit the agent hit (``limit: memory … exhausted``), when it shows one."""
    replay_errors: tuple[ReplayError, ...] = ()


class Agent(Protocol):
    """Anything that can work on a task's workspace for one phase."""

    spec: str
    """The spec that built it (``nop``, ``command:…``), recorded in every result."""

    def run(self, request: AgentRequest) -> AgentOutcome: ...
