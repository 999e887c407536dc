"""Choosing a run's confinement before anything starts.

A run that will execute agent-controlled code — a live agent, the oracle's solution
scripts, a check command — is refused up front when the sandbox cannot run here,
unless the user passed ``--no-sandbox``; a run that only replays edits and reads
files needs no sandbox and is never refused for want of one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchwright.model import Task
from benchwright.sandbox import Confinement, Network, require


@dataclass(frozen=True, slots=True)
class IsolationRequest:
    """What the command line asked for: ``--no-sandbox``, ``--sandbox-ro``, ``--agent-network``,
    ``--agent-egress``."""

    no_sandbox: bool = False
    readable: tuple[Path, ...] = ()
    agent_network: Network | None = None
    egress: tuple[str, ...] | None = None
    """``--agent-egress``: None keeps each agent's own (services/_egress.py)."""


PROCESS_CHECKS = frozenset({"test_must_pass", "executed_app"})
"""Built-in check types that run a command over the agent's files (or boot its app)."""


def runs_agent_code(tasks: Sequence[Task], agent_spec: str | None) -> bool:
    """Would this run execute code the agent controls (or that runs over what it wrote)?"""
    if any(spec.type in PROCESS_CHECKS for task in tasks for spec in task.checks):
        return True
    if agent_spec is None or agent_spec == "nop" or agent_spec.startswith("replay:"):
        return False
    if agent_spec == "oracle":
        solutions = [t.solution for t in tasks] + [p.solution for t in tasks for p in t.phases]
        return any(s is not None and s.script for s in solutions)
    return True


def choose_confinement(
    request: IsolationRequest, tasks: Sequence[Task], agent_spec: str | None = None
) -> Confinement:
    """The run's confinement: refused (HarnessError) only when it is needed and unavailable."""
    return confinement_for(request, request.no_sandbox or runs_agent_code(tasks, agent_spec))


def confinement_for(request: IsolationRequest, needed: bool) -> Confinement:
    """`choose_confinement` once it is known whether agent code runs (``needed``): a gate
    streaming its tasks learns that while validating them, without keeping them."""
    if request.no_sandbox or needed:
        return require(request.no_sandbox, request.readable)
    return Confinement(readable=request.readable)
