"""One trial: isolate, run the agent phase by phase, snapshot, stamp, check, judge.

The order is the turn benchmark's and it is the point: hidden oracle files
arrive only after the agent's last snapshot, and checks judge what is on disk
then. Every step is timed, so the harness's own overhead is measurable.
"""

from __future__ import annotations

import dataclasses
import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchwright.agents import Agent, AgentOutcome, AgentRequest
from benchwright.checks import CheckRegistry
from benchwright.errors import HarnessError
from benchwright.execution import evidence
from benchwright.execution._git import Snapshots
from benchwright.execution.evaluate import evaluate
from benchwright.execution.records import PhaseRecord, TrialResult, phase_log
from benchwright.execution.run_meta import HARNESS_KEY, harness_facts, run_block
from benchwright.execution.stamp import stamp_task
from benchwright.execution.verdict import read_only_error, verdict_of
from benchwright.model import CheckResult, Phase, Task, Trajectory
from benchwright.sandbox import CONFINED, Confinement, Edge, Network
from benchwright.services.build_vendor import build_vendor
from benchwright.workspace import Workspace, WorkspaceCaps, over_caps

if TYPE_CHECKING:
    from benchwright.agents.model.config import ModelConfig

STEPS = ("isolate_s", "agent_s", "snapshot_s", "stamp_s", "checks_s")
_OWN_PREFIXES = ("stamp", "agent", "budget", "read-only", "limit")


@dataclass(frozen=True)
class TrialOptions:
    """What every trial of a run shares."""

    suite_budget_s: float = 600.0
    budget_s: float | None = None
    """The command line's ``--budget``: overrides every phase's budget."""
    env: Mapping[str, str] = field(default_factory=dict)
    seed: int = 0
    registry: CheckRegistry | None = None
    on_phase: Callable[[str], None] | None = None
    """Told each phase's name as it starts (progress display)."""
    confinement: Confinement = CONFINED
    """How agents and check commands are sandboxed (``--no-sandbox``: not at all)."""
    agent_network: Network | None = None
    """``--agent-network``: the agent's network policy; None keeps the agent's default."""
    workspace_caps: WorkspaceCaps = field(default_factory=WorkspaceCaps)
    """``--max-workspace-files``/``--max-workspace-mb``: what a phase may leave behind."""
    agent_egress: tuple[str, ...] | None = None
    """``--agent-egress``: the hosts an agent building against a vendor in its own namespace
    may reach through the egress proxy; None keeps the agent's own (a preset's provider)."""
    model: ModelConfig | None = None
    """The ``--model-*`` settings of a ``model:`` agent (no key: only its variable's name),
    so a worker rebuilds the same agent (`trial_job.run_trial_spec`)."""

    def budget(self, task: Task, phase: Phase) -> float:
        """``--budget``, then the phase's, the task's, the suite's (docs/suites.md, Budgets)."""
        return self.budget_s or phase.budget_s or task.budget_s or self.suite_budget_s


def run_trial(
    task: Task, tier: str, agent: Agent, iteration: int, options: TrialOptions
) -> TrialResult:
    """Run ``agent`` on a fresh copy of ``task`` and judge the result; never raises but Ctrl-C."""
    trial = _Trial(task, agent, options)
    try:
        trial.run()
    except HarnessError as exc:
        message = str(exc)
        own = message.split(":", 1)[0] in _OWN_PREFIXES
        trial.error = trial.error or (message if own else f"harness: {message}")
    except Exception as exc:  # a harness or agent bug: this trial errored, the run goes on
        trial.error = f"harness: {type(exc).__name__}: {exc}"
        trial.log += "\n" + traceback.format_exc()
    finally:
        trial.workspace.cleanup()
    return trial.result(tier, iteration)


class _Trial:
    def __init__(self, task: Task, agent: Agent, options: TrialOptions) -> None:
        self.task, self.agent, self.options = task, agent, options
        self.workspace = Workspace(task.files)
        self.started = self._mark = time.perf_counter()
        self.timings = dict.fromkeys(STEPS, 0.0)
        self.phases: list[PhaseRecord] = []
        self.outcomes: list[AgentOutcome] = []
        self.checks: tuple[CheckResult, ...] = ()
        self.artifacts: dict[str, bytes] = {}
        self.error: str | None = None
        self.answer = self.log = ""
        self.commits: dict[str, str] = {}
        self.phase_changes: dict[str, list[str]] = {}
        self.phase_record: list[dict[str, str]] = []
        self.agent_started: datetime | None = None
        self.agent_finished = datetime.now(UTC)

    def run(self) -> None:
        directory = self.workspace.directory()
        scratch = directory.parent / "scratch"
        scratch.mkdir()
        snapshots = Snapshots(directory)
        self.commits = snapshots.commits
        snapshots.init()
        self._lap("isolate_s")
        options = self.options
        egress = options.agent_egress
        if egress is None:
            egress = getattr(self.agent, "egress", ())
        vendor = build_vendor(
            self.task, options.seed, options.confinement, options.agent_network, egress
        )
        with vendor as served:  # from before the first phase to after the last
            finished = self._phases(directory, scratch, snapshots, served.edge)
            build_trace = served.trace()  # the agent's phases are over: the whole build
        if not finished:
            return
        snapshots.tag("agent", self.phases[-1].commit or "")
        self.workspace.refresh()
        self.answer = self.outcomes[-1].answer or ""
        steps = self.steps()
        output = "\n".join(o.stdout + o.stderr for o in self.outcomes)
        changed = dict(self.workspace.files) != dict(self.task.files)
        if error := read_only_error(self.task, changed, steps, output):
            self.error = error
            return
        canaries = stamp_task(directory, self.task, self.answer)
        if not self.options.confinement.enabled:
            # Unconfined, a straggler may have written since the look above: judge the tree
            # as it is after stamping (stamped paths keep the agent's version). Sandboxed,
            # no agent process outlived its phase, so that look is already the final one.
            self.workspace.refresh(preserve=self.task.stamp)
        self._lap("stamp_s")
        if self.task.checks:
            trajectory = Trajectory(tuple(steps), self.metadata(), self.answer, self.agent.spec)
            root = directory.parent / evidence.EVIDENCE_DIR  # the agent never had it
            dirs = evidence.prepare(root, (c.id for c in self.task.checks))
            trace = None if build_trace is None else evidence.write_build_trace(root, build_trace)
            checks = evaluate(
                self.task, self.workspace, trajectory,
                registry=self.options.registry, confinement=self.options.confinement,
                canaries=canaries, evidence_dirs=dirs, seed=self.options.seed,
                build_trace=trace,
            )  # fmt: skip
            self.artifacts, self.checks = evidence.collect(root, checks)
        self._lap("checks_s")

    def _phases(
        self, directory: Path, scratch: Path, snapshots: Snapshots, edge: Edge | None
    ) -> bool:
        """Run every phase, a snapshot after each; False when one errored (the rest are
        skipped). ``edge``: the build vendor's relay, which every agent sandbox runs behind."""
        phases = self.task.agent_phases
        for n, phase in enumerate(phases):
            budget = self.options.budget(self.task, phase)
            request = AgentRequest(
                self.task, phase, n == len(phases) - 1, directory, budget,
                scratch / "answer.txt", scratch, self.options.env, self.options.seed,
                self.options.confinement, self.options.agent_network,
                caps=self.options.workspace_caps, edge=edge,
            )  # fmt: skip
            if self.options.on_phase is not None:
                self.options.on_phase(phase.name)
            self.agent_started = self.agent_started or datetime.now(UTC)
            outcome = self.agent.run(request)
            self.agent_finished = datetime.now(UTC)
            self._lap("agent_s")
            commit = None
            if limit := over_caps(directory, self.options.workspace_caps):
                # Past a cap, snapshotting, reading back and checking the tree would cost
                # the harness unbounded time: the trial ends here, the cap its reason.
                outcome = dataclasses.replace(outcome, limit=limit, error=limit)
            else:
                before = self.phases[-1].commit if self.phases else snapshots.commits["start"]
                commit = snapshots.snapshot(f"phase/{phase.name}")
                self.phase_changes[phase.name] = snapshots.changed(before, commit)
                diff = snapshots.diff(before, commit)
                self.phase_record.append({"name": phase.name, "prompt": phase.prompt, "diff": diff})
                self._lap("snapshot_s")
            self.outcomes.append(outcome)
            self.phases.append(PhaseRecord(
                phase.name, outcome.exit_code, outcome.wall_s, budget, outcome.timed_out,
                commit, outcome.limit,
            ))  # fmt: skip
            self.log += phase_log(phase.name, outcome)
            if outcome.error:
                self.error = outcome.error
                return False
        return True

    def steps(self) -> list[Mapping[str, Any]]:
        return [step for outcome in self.outcomes for step in outcome.steps]

    def metadata(self) -> dict[str, Any]:
        """The agents' metadata, then the harness's facts under ``benchwright`` (set last: an
        agent's own ``benchwright`` key is replaced, never merged): the snapshots, and when
        the agent ran, when it started (`run_meta.harness_facts`)."""
        merged: dict[str, Any] = {}
        for outcome in self.outcomes:
            merged = _merged(merged, outcome.metadata)
        facts = {
            "snapshots": dict(self.commits),
            "phase_changes": dict(self.phase_changes),
            "live": not self.agent.spec.startswith("replay:"),
        }
        if self.agent_started is not None:
            wall = self.timings["agent_s"]
            facts |= harness_facts(self.agent_started, self.agent_finished, wall)
        return {**merged, HARNESS_KEY: facts}

    def result(self, tier: str, iteration: int) -> TrialResult:
        replay_errors = [e for o in self.outcomes for e in o.replay_errors]
        exit_codes = [p.exit_code for p in self.phases]
        verdict, error = verdict_of(tier, self.error, exit_codes, self.checks, replay_errors)
        self.timings["total_s"] = time.perf_counter() - self.started
        metadata, steps = self.metadata(), self.steps()
        trajectory = {"metadata": metadata, "steps": [dict(s) for s in steps],
                      "answer": self.answer}  # fmt: skip
        return TrialResult(
            self.task.id, self.task.task_class, tier, iteration, self.agent.spec, verdict,
            error, tuple(self.phases), self.checks, tuple(map(str, replay_errors)),
            self.answer, self.timings, self.log, trajectory, self.options.confinement.isolation,
            tuple(self.phase_record), self.artifacts, evidence.digests(self.artifacts),
            run=run_block(metadata, len(steps)),
        )  # fmt: skip

    def _lap(self, key: str) -> None:
        now = time.perf_counter()
        self.timings[key] += now - self._mark
        self._mark = now


def _merged(earlier: Mapping[str, Any], later: Mapping[str, Any]) -> dict[str, Any]:
    """Two phases' agent metadata as one trial's: a later phase's keys win, but what the
    phases spent adds up (``usage`` tokens and cost, ``model_calls``, ``tool_steps``,
    ``repair_rounds``) and ``endpoints`` is every endpoint either used (docs/agents.md)."""
    merged = {**earlier, **later}
    for key in ("model_calls", "tool_steps", "repair_rounds"):
        if isinstance(earlier.get(key), int) and isinstance(later.get(key), int):
            merged[key] = earlier[key] + later[key]
    if isinstance(earlier.get("endpoints"), list) and isinstance(later.get("endpoints"), list):
        merged["endpoints"] = list(dict.fromkeys([*earlier["endpoints"], *later["endpoints"]]))
    before, after = earlier.get("usage"), later.get("usage")
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        usage = {k: before.get(k, 0) + after.get(k, 0) for k in ("input_tokens", "output_tokens")}
        costs = (before.get("cost_usd"), after.get("cost_usd"))
        usage["cost_usd"] = None if None in costs else sum(costs)  # type: ignore[arg-type]
        merged["usage"] = usage
    return merged
