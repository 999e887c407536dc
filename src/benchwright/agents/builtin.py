"""The built-in agents that need no model: ``nop``, ``oracle`` and ``replay:``.

``nop`` proves that an oracle can fail (every graded task must fail under it);
``oracle`` proves that it can pass (every graded task must pass under it);
``replay:`` grades a recorded session as if it were running live.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchwright.agents._env import agent_env
from benchwright.agents._process import run_process
from benchwright.agents._protocol import AgentOutcome, AgentRequest
from benchwright.errors import HarnessError
from benchwright.model import Trajectory
from benchwright.sandbox import Network
from benchwright.workspace import Workspace, read_tree, replay
from benchwright.workspace._workspace import HARNESS_DIRS


@dataclass(frozen=True)
class NopAgent:
    """Does nothing and says nothing: the floor every oracle must reject."""

    spec: str = "nop"

    def run(self, request: AgentRequest) -> AgentOutcome:
        return AgentOutcome(exit_code=0, wall_s=0.0)


UNSOLVED_SHOWN = 10
"""Task ids an unsolved-tasks line names before ``and N more``."""


def unsolved_line(task_ids: Sequence[str]) -> str:
    """What ``validate`` and ``run --agent oracle`` say of graded tasks without a solution."""
    shown = ", ".join(task_ids[:UNSOLVED_SHOWN])
    more = f" and {len(task_ids) - UNSOLVED_SHOWN} more" if len(task_ids) > UNSOLVED_SHOWN else ""
    return (f"{len(task_ids)} task(s) with checks have no solution, so --agent oracle "
            f"changes nothing in them, as nop would: {shown}{more}")  # fmt: skip


@dataclass(frozen=True)
class OracleAgent:
    """Applies the phase's solution, and the task's own in the last phase."""

    spec: str = "oracle"

    def run(self, request: AgentRequest) -> AgentOutcome:
        started = time.perf_counter()
        solutions = [request.phase.solution]
        if request.last_phase:
            solutions.append(request.task.solution)
        answer, exit_code, out, err = None, 0, "", ""
        for solution in (s for s in solutions if s is not None):
            _write(request.workspace, solution.files)
            if solution.script:
                script = Path(solution.script)
                done = run_process(
                    _script_argv(solution.script),
                    request.workspace,
                    agent_env(request),
                    request.budget_s,
                    request.log_dir(),
                    request.sandbox(Network.NONE, readable=(script,)),
                )
                if done.error or done.timed_out:
                    reason = done.error or f"budget: solution script exceeded {request.budget_s:g}s"
                    return AgentOutcome(
                        None, done.duration_s, done.stdout, done.stderr, error=reason
                    )
                exit_code = done.exit_code or exit_code
                out, err = out + done.stdout, err + done.stderr
                if (written := request.read_answer()) is not None:
                    answer = written
            answer = solution.answer if solution.answer is not None else answer
        return AgentOutcome(exit_code, time.perf_counter() - started, out, err, answer=answer)


def _script_argv(script: str) -> list[str]:
    return [sys.executable, script] if script.endswith(".py") else ["/bin/sh", script]


def _write(root: Path, files: Mapping[str, bytes]) -> None:
    for rel, data in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


@dataclass(frozen=True)
class ReplayAgent:
    """Replays a recorded trajectory in the last phase (earlier phases do nothing)."""

    spec: str
    trajectories: Mapping[str, Trajectory] = field(default_factory=dict)
    """Task id → its trajectory."""

    def run(self, request: AgentRequest) -> AgentOutcome:
        trajectory = self.trajectories[request.task.id]
        if not request.last_phase:
            return AgentOutcome(exit_code=0, wall_s=0.0)
        started = time.perf_counter()
        before = dict(read_tree(request.workspace, skip=HARNESS_DIRS, lenient=True))
        view = Workspace(before)
        errors = replay(view, trajectory, request.caps)
        try:
            _write(request.workspace, {p: d for p, d in view.files.items() if before.get(p) != d})
            for gone in before.keys() - view.files.keys():
                (request.workspace / gone).unlink()
        except OSError as exc:
            raise HarnessError(f"cannot apply the replayed trajectory: {exc}") from exc
        return AgentOutcome(
            exit_code=0,
            wall_s=time.perf_counter() - started,
            answer=trajectory.answer,
            steps=trajectory.steps,
            metadata=dict(trajectory.metadata),
            replay_errors=errors,
        )
