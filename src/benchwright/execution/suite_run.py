"""Run a suite: plan the trials, refuse bad input up front, run, persist, summarize.

`plan_run` and `plan_resume` do every check that can fail before an agent
starts (exit 2). `execute` writes each finished trial to disk at once, sealed
with the run's key, so Ctrl-C or a kill keeps them, and a resumed run skips the
ones that verify (`plan_resume` says why it re-runs each of the others).
"""

from __future__ import annotations

import fnmatch
import platform
import subprocess
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchwright import __version__
from benchwright.agents import Agent, build_agent, preflight
from benchwright.agents.builtin import unsolved_line
from benchwright.agents.model.config import ModelConfig
from benchwright.dsl import load_suite
from benchwright.errors import (
    EXIT_FAILED,
    EXIT_HARNESS,
    EXIT_INTERRUPTED,
    EXIT_PASSED,
    SpecError,
)
from benchwright.execution import integrity, key_index, store, verification
from benchwright.execution.executor import Done, Executor, Job, SerialExecutor, fitted
from benchwright.execution.isolation import IsolationRequest, choose_confinement
from benchwright.execution.records import SCHEMA_VERSION, TrialResult
from benchwright.execution.run_exit import (
    RunningTrials,
    Stopped,
    budget_message,
    interrupt_message,
)
from benchwright.execution.summary import summarize
from benchwright.execution.trial import TrialOptions, run_trial
from benchwright.execution.trial_job import TrialSpec, run_trial_spec, trial_spec
from benchwright.model import Suite
from benchwright.sandbox import Network
from benchwright.services.build_vendor import allow_list, require_one_at_a_time
from benchwright.workspace import WorkspaceCaps

LIVE_DIR = "live"
"""Under a run directory: the model agent's live trajectories, ``<task>/<phase>-….jsonl``
(not sealed: the trial's ``trajectory.json`` is the record; these are for ``watch``)."""


@dataclass
class RunPlan:
    suite: Suite
    agent: Agent
    task_ids: list[str]
    iterations: int
    options: TrialOptions
    run_dir: Path
    info: dict[str, Any] = field(default_factory=dict)
    """``run.json``."""
    key: bytes = b""
    """The run's MAC key (kept outside the run directory)."""
    done: dict[tuple[str, int], TrialResult] = field(default_factory=dict)
    """Trials of a resumed run whose results verified: `execute` skips them."""
    notes: list[str] = field(default_factory=list)
    """A resume's lines: how many trials run and how many verified results are kept, then
    each result that failed verification and why (or one line for a missing key)."""
    warnings: list[str] = field(default_factory=list)
    """What the user should read before the run starts (`_oracle_warnings`)."""

    @property
    def trials(self) -> list[tuple[str, int]]:
        return [(t, n) for t in self.task_ids for n in range(1, self.iterations + 1)]


def plan_run(
    suite_path: Path, agent_spec: str, *, tasks_glob: str = "*", iterations: int = 1,
    budget_s: float | None = None, env: dict[str, str] | None = None, seed: int = 0,
    out: Path = Path("runs"), isolation: IsolationRequest = IsolationRequest(),
    caps: WorkspaceCaps = WorkspaceCaps(), model: ModelConfig | None = None,
    strict: bool = False,
) -> RunPlan:  # fmt: skip
    """Load and check everything, then create the run directory and its ``run.json``.

    ``model`` (the ``--model-*`` flags) configures a ``model:`` agent; it is recorded in
    ``run.json`` without any key, and its live trajectories go to ``RUN_DIR/live``.
    ``strict`` makes a warning (`RunPlan.warnings`) a `SpecError` before anything is made.

    Raises HarnessError (exit 3) when the run needs the sandbox and it cannot run here.
    """
    if iterations < 1:
        raise SpecError.single("--iterations", f"must be >= 1, got {iterations}")
    if budget_s is not None and budget_s <= 0:
        raise SpecError.single("--budget", f"must be > 0 seconds, got {budget_s:g}")
    suite = load_suite(suite_path)
    ids = [t.id for t in suite.tasks if fnmatch.fnmatchcase(t.id, tasks_glob)]
    if not ids:
        raise SpecError.single("--tasks", f"{tasks_glob!r} matches no task of suite {suite.name}")
    agent = _agent(agent_spec, suite, ids, model)
    warnings = _oracle_warnings(agent, suite, ids, strict)
    preflight(agent, env)
    confinement = choose_confinement(isolation, [suite.task(i) for i in ids], agent.spec)
    network = _network(isolation, suite)
    egress = _egress(isolation.egress)
    env = env or {}
    run_dir = store.new_run_dir(out, agent.spec)
    model = _live_model(agent, run_dir)
    key = integrity.new_key()
    info = {
        "schema_version": SCHEMA_VERSION, "run_id": run_dir.name,
        "created_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "suite": {"name": suite.name, "path": suite.source}, "agent": agent.spec,
        "tasks_glob": tasks_glob, "tasks": ids, "iterations": iterations, "budget_s": budget_s,
        "env": sorted(env), "seed": seed, "versions": _versions(),
        "isolation": confinement.isolation, "agent_network": network and network.value,
        "agent_egress": None if egress is None else list(egress),
        "workspace_caps": {"files": caps.files, "megabytes": caps.megabytes},
    }  # fmt: skip
    if model is not None:
        info["model"] = model.record()
    # sealed: `run --resume` runs the agent and the suite it names (plan_resume)
    _seal_run_json(run_dir, info, key)
    options = TrialOptions(suite.budget_s, budget_s, env, seed, confinement=confinement,
                           agent_network=network, workspace_caps=caps,
                           agent_egress=egress, model=model)  # fmt: skip
    if model is not None:
        agent = build_agent(agent.spec, [suite.task(i) for i in ids], model)
    return RunPlan(suite, agent, ids, iterations, options, run_dir, info, key, warnings=warnings)


def _live_model(agent: Agent, run_dir: Path) -> ModelConfig | None:
    """A model agent's config, its live trajectories under ``RUN_DIR/live`` (`watch` them)."""
    config = getattr(agent, "config", None)
    if not isinstance(config, ModelConfig):
        return None
    return replace(config, live_dir=str((run_dir / LIVE_DIR).resolve()))


def _seal_run_json(run_dir: Path, info: dict[str, Any], key: bytes) -> None:
    """Make the run one sealed here: its row in the run index, then its sealed ``run.json``."""
    sealed = integrity.seal(info, key)
    key_index.record(info.get("run_id"), run_dir, key, sealed[integrity.MAC_FIELD])
    store.write_json(run_dir / "run.json", sealed)


def plan_resume(
    run_dir: Path,
    env: dict[str, str] | None = None,
    isolation: IsolationRequest = IsolationRequest(),
    allow_unverified: bool = False,
    strict: bool = False,
) -> RunPlan:
    """The plan of an earlier run, minus nothing: `execute` skips its finished trials.

    Raises:
        SpecError: ``run.json`` fails verification with the run's key, or cannot be
            verified here and ``allow_unverified`` is False (see `_trusted_run_json`), or
            names a schema, suite or task that is not there.
    """
    info, entry = _trusted_run_json(run_dir, allow_unverified)
    if info.get("schema_version") != SCHEMA_VERSION:
        raise SpecError.single(
            str(run_dir), f"run schema {info.get('schema_version')} is not {SCHEMA_VERSION}"
        )
    suite = load_suite(Path(info["suite"]["path"]))
    missing = [i for i in info["tasks"] if i not in suite.tiers]
    if missing:
        raise SpecError.single(str(run_dir), f"task {missing[0]!r} is no longer in the suite")
    recorded = info.get("model")
    model = ModelConfig.from_record(recorded) if isinstance(recorded, dict) else None
    agent = _agent(info["agent"], suite, info["tasks"], model)
    warnings = _oracle_warnings(agent, suite, info["tasks"], strict)
    preflight(agent, env)
    model = _live_model(agent, run_dir)
    if model is not None:
        agent = build_agent(agent.spec, [suite.task(i) for i in info["tasks"]], model)
    confinement = choose_confinement(isolation, [suite.task(i) for i in info["tasks"]], agent.spec)
    options = TrialOptions(
        suite.budget_s, info.get("budget_s"), env or {}, info.get("seed", 0),
        confinement=confinement, agent_network=_network(isolation, suite),
        workspace_caps=WorkspaceCaps(**info.get("workspace_caps", {})), model=model,
        agent_egress=_egress(isolation.egress if isolation.egress is not None
                             else info.get("agent_egress")),
    )  # fmt: skip
    plan = RunPlan(suite, agent, list(info["tasks"]), info["iterations"], options, run_dir, info,
                   warnings=warnings)  # fmt: skip
    _verify_finished(plan, entry)
    return plan


def _trusted_run_json(
    run_dir: Path, allow_unverified: bool
) -> tuple[dict[str, Any], key_index.Entry | None]:
    """``run.json`` without its MAC, and the run's row, refused unless it verifies.

    A resume runs the agent command and loads the suite that ``run.json`` names, with
    whatever ``--env`` secrets are given again, so a ``run.json`` this machine did not
    seal could be code of someone else's choosing run with them: a tampered one is
    refused, and one that cannot be verified (a run never sealed here, or a ``run.json``
    from before they were sealed) only with ``allow_unverified`` (every trial re-runs).
    """
    info = store.read_run_json(run_dir)
    entry = verification.sealed_entry(run_dir, info)
    seal = verification.run_json_seal(run_dir, info, entry)
    tampered = seal.state == verification.TAMPERED
    if tampered or (seal.state == verification.UNVERIFIED and not allow_unverified):
        fix = "start a new run" if tampered else "read it, then pass --allow-unverified to run them"
        raise SpecError.single(
            str(seal.path),
            f"{seal.phrase}: refused, because a resume runs the agent and suite it names; {fix}",
        )
    return {k: v for k, v in info.items() if k != integrity.MAC_FIELD}, entry


def _verify_finished(plan: RunPlan, entry: key_index.Entry | None) -> None:
    """Keep the results that verify; note every other trial, and why it runs again."""
    store.clear_temporary(plan.run_dir)
    plan.key = entry.key if entry else integrity.new_key()
    plan.done, reruns = verification.verified_results(plan.run_dir, plan.trials, plan.key)
    if entry is None:
        run_id = plan.info.get("run_id")
        plan.notes = [f"resume: run {run_id} was {verification.NEVER_SEALED}: "
                      f"every trial re-runs ({len(reruns)})"]  # fmt: skip
    else:  # one line for the run; one more per result that did not verify, and why
        plan.notes = [f"resuming: {_trials(len(reruns))} to run, {len(plan.done)} verified kept"]
        plan.notes += [f"resume: re-running {t} #{n}: {why}" for (t, n), why in reruns.items()
                       if why != verification.NOT_RUN]  # fmt: skip
    if entry is None or entry.run_json_mac is None:
        # allowed unverified: the run is this machine's from now on, run.json sealed with it
        _seal_run_json(plan.run_dir, plan.info, plan.key)


def _trials(n: int) -> str:
    return f"{n} trial" if n == 1 else f"{n} trials"


def _network(isolation: IsolationRequest, suite: Suite) -> Network | None:
    """``--agent-network``, else the suite's ``agent_network``, else None (the agent's own)."""
    if isolation.agent_network is not None:
        return isolation.agent_network
    return Network(suite.agent_network) if suite.agent_network else None


def _egress(hosts: Sequence[str] | None) -> tuple[str, ...] | None:
    """``--agent-egress`` checked before anything runs (None: each agent's own)."""
    if hosts is None:
        return None
    try:
        allow_list(hosts)
    except ValueError as exc:
        raise SpecError.single("--agent-egress", str(exc)) from None
    return tuple(hosts)


def _agent(spec: str, suite: Suite, ids: Sequence[str], model: ModelConfig | None = None) -> Agent:
    tasks = [suite.task(i) for i in ids]
    for task in tasks:  # the seed's false pass: an oracle run in the caller's directory
        if task.checks and not task.files and not task.empty_workspace:
            raise SpecError.single(
                task.source, "has checks but no workspace: refused (a task that starts from "
                "no files on purpose says 'workspace: empty')", "fixture",
            )  # fmt: skip
    return build_agent(spec, tasks, model)


def _oracle_warnings(agent: Agent, suite: Suite, ids: Sequence[str], strict: bool) -> list[str]:
    """``oracle`` on graded tasks without a solution changes nothing, as ``nop`` would: its
    failures there say nothing of the tasks. Named in a warning; refused under ``strict``."""
    unsolved = [i for i in ids if suite.task(i).unsolved] if agent.spec == "oracle" else []
    if not unsolved:
        return []
    if strict:
        raise SpecError.single("--agent oracle", f"{unsolved_line(unsolved)} (--strict)")
    return [unsolved_line(unsolved)]


def _versions() -> dict[str, str]:
    try:
        git = subprocess.run(["git", "--version"], capture_output=True, text=True, timeout=10)
        git_version = git.stdout.strip().removeprefix("git version ")
    except (OSError, subprocess.TimeoutExpired):
        git_version = "unavailable"
    return {"benchwright": __version__, "python": platform.python_version(),
            "git": git_version, "platform": platform.platform()}  # fmt: skip


@dataclass
class RunOutcome:
    summary: dict[str, Any]
    """As written to ``summary.json``, sealed: a copy (``run --json``) verifies too."""
    results: dict[tuple[str, int], TrialResult]
    run_dir: Path
    total: int
    """Trials planned (tasks x iterations)."""
    interrupted: bool = False
    stopped: tuple[Stopped, ...] = ()
    """Interrupted: the trials that were running (they run again on resume)."""
    elapsed_s: float = 0.0


Listener = Callable[[str, Any], None]
"""``(event, payload)``: ``start`` (task id, iteration), ``phase`` name, ``result`` TrialResult,
``note`` one line to tell the user (why a resume re-runs a trial)."""


def execute(
    plan: RunPlan, on_event: Listener | None = None, executor: Executor | None = None
) -> RunOutcome:
    """Run every trial without a result through ``executor`` (default: one by one here).

    Each result is written as it arrives, by this process alone (it holds the run key),
    so a resume works whatever ran the trials; the summary follows the plan's order,
    not the order trials finished in, so one worker and many write the same files.
    Ctrl-C cancels the trials not yet finished and keeps the others.

    Raises:
        SpecError: the build vendor would be served on the host's loopback (``--agent-network
            host``, ``--no-sandbox``) and ``executor`` runs more than one trial at a time.
    """
    running = RunningTrials(on_event or (lambda event, payload: None))
    notify: Listener = running
    executor = fitted(executor or SerialExecutor(), len(plan.trials) - len(plan.done))
    tasks = [plan.suite.task(t) for t in plan.task_ids]
    options = plan.options
    require_one_at_a_time(tasks, options.confinement, options.agent_network, executor.workers)
    for note in plan.notes:
        notify("note", note)
    results = dict(plan.done)
    interrupted = False
    stopped: tuple[Stopped, ...] = ()
    try:
        with closing(executor.run(_runner(plan, executor, notify), _jobs(plan, notify))) as done:
            for outcome in done:
                result = outcome.result or _lost(plan, outcome)
                store.write_trial(plan.run_dir, result, plan.key)
                results[(result.task_id, result.iteration)] = result
                notify("result", result)
    except KeyboardInterrupt:
        interrupted, stopped = True, running.stopped()
    results = {key: results[key] for key in plan.trials if key in results}
    complete = len(results) == len(plan.trials)
    summary = integrity.seal(summarize(
        plan.suite, plan.task_ids, results, iterations=plan.iterations,
        run_id=str(plan.info.get("run_id", plan.run_dir.name)), agent=plan.agent.spec,
        complete=complete,
    ), plan.key)  # fmt: skip
    store.write_json(plan.run_dir / verification.SUMMARY, summary)
    return RunOutcome(summary, results, plan.run_dir, len(plan.trials), interrupted, stopped,
                      running.elapsed_s())  # fmt: skip


def _jobs(plan: RunPlan, notify: Listener) -> Iterator[Job[TrialSpec]]:
    """The trials still to run, announced as the executor takes each one."""
    for task_id, iteration in plan.trials:
        if (task_id, iteration) not in plan.done:
            spec = trial_spec(plan.suite, plan.agent.spec, task_id, iteration, plan.options)
            notify("start", (task_id, iteration))
            yield Job(spec.key, spec)


def _runner(
    plan: RunPlan, executor: Executor, notify: Listener
) -> Callable[[TrialSpec], TrialResult]:
    """In this process, the plan's own suite and agent and live phase names; elsewhere,
    `run_trial_spec`, which loads them again where it runs."""
    if not isinstance(executor, SerialExecutor):
        return run_trial_spec
    options = replace(plan.options, on_phase=lambda name: notify("phase", name))

    def here(spec: TrialSpec) -> TrialResult:
        task = plan.suite.task(spec.task_id)
        return run_trial(task, plan.suite.tiers[spec.task_id], plan.agent, spec.iteration, options)

    return here


def _lost(plan: RunPlan, outcome: Done[TrialResult]) -> TrialResult:
    """An errored result for a trial whose worker failed to return one (killed, OOM)."""
    task_id, _, iteration = outcome.key.rpartition("#")
    task = plan.suite.task(task_id)
    return TrialResult(
        task_id, task.task_class, plan.suite.tiers[task_id], int(iteration), plan.agent.spec,
        "errored", f"harness: {outcome.error}", isolation=plan.options.confinement.isolation,
    )  # fmt: skip


def exit_status(outcome: RunOutcome) -> tuple[int, str | None]:
    """The exit code of docs/suites.md and, for 3, 130 and trials that all errored with
    some out of budget (1: the agent's failure), the one-line reason."""
    if outcome.interrupted:
        return EXIT_INTERRUPTED, interrupt_message(
            outcome.run_dir, len(outcome.results), outcome.total, outcome.stopped,
            outcome.elapsed_s,
        )  # fmt: skip
    results = list(outcome.results.values())
    if results and all(r.verdict == "errored" for r in results):
        if over := budget_message(results):  # the agent's failure, not the harness's
            return EXIT_FAILED, over
        first = next(r.error for r in results if r.error)
        return EXIT_HARNESS, f"every trial errored ({len(results)}); first: {first}"
    tasks = outcome.summary["tasks"].values()
    graded_ok = all(t["verdict"] in ("passed", "completed") for t in tasks)
    return (EXIT_PASSED if graded_ok and outcome.summary["complete"] else EXIT_FAILED), None
