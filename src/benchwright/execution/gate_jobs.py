"""A gate over many task files: validate every file first holding none of them, then
grade each as an executor job that loads its task (and trajectory) where it runs.

Holding every loaded task until the last one ran made a gate's memory grow with its
task count (about 8 KiB a task). Here the first pass keeps a task's id, warnings and
whether it runs agent code; the second loads one task per job, in a worker when
there are many (static checks spread over ``--workers``). Invalid files are all
reported by the first pass (exit 2) before any result is reported.

Loading every task twice doubled a static gate's time, so without ``--workers`` above
1 the first pass also grades each static task the moment it validates ("ahead",
into a spool): a static task grades in a fraction of a millisecond. Those results are
used only if the files all turn out valid and the gate's confinement is the one they
were graded under; tasks that run agent code always wait for the second pass.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from benchwright.dsl import load_task, load_trajectory, scan_selected, trajectory_files
from benchwright.errors import SpecError, SpecErrors
from benchwright.execution.executor import Executor, Job, default_workers, make_executor
from benchwright.execution.isolation import IsolationRequest, confinement_for, runs_agent_code
from benchwright.execution.run import collect_gate, run_task
from benchwright.execution.spool import SpooledRuns
from benchwright.model import CheckResult, GateResult, RunResult, Status, Task, Trajectory
from benchwright.sandbox import Confinement

POOL_MIN_TASKS = 200
"""Without ``--workers``, a gate of fewer tasks grades them in this process: starting a
pool costs more than a few hundred static tasks take."""


@dataclass(frozen=True, slots=True)
class GateJob:
    """One task file and the trajectory graded against it: what a worker needs."""

    task_id: str
    task_file: str
    trajectory: str
    keep: bool = False
    confinement: Confinement | None = None
    ahead: int = -1
    """Where the first pass left its result in `GatePlan.graded`; -1: not graded yet."""


@dataclass(frozen=True)
class GatePlan:
    jobs: list[GateJob]
    """In the order the tasks were found: the report's order."""
    warnings: list[str]
    confinement: Confinement
    graded: SpooledRuns | None = None
    """Results the first pass graded ahead (`GateJob.ahead` indexes them)."""

    @property
    def pending(self) -> int:
        """Jobs the executor still has to run."""
        return sum(job.ahead < 0 for job in self.jobs)


def grades_ahead(executor: str, workers: int | None, keep: bool) -> bool:
    """Grade static tasks while validating unless ``--workers`` asks to spread them (or
    ``--keep``: a task that turns out skipped must not leave a kept workspace)."""
    return executor == "local" and workers in (None, 1) and not keep


def plan_gate(
    tasks_dir: Path | None, manifest: Path | None, trajectory: Path,
    isolation: IsolationRequest, keep: bool = False,
    on_note: Callable[[str], None] = lambda line: None, ahead: bool = False,
) -> GatePlan:  # fmt: skip
    """Validate every task and trajectory (`SpecErrors` lists every invalid file), keeping
    of each task only its id, warnings and whether it runs agent code; ``ahead``: grade
    static tasks meanwhile (`grades_ahead`)."""
    grader = _Ahead(trajectory, isolation) if ahead else None

    def facts(task: Task) -> tuple[str, tuple[str, ...], bool, int]:
        task_id, lines, runs = _facts(task)
        return task_id, lines, runs, grader(task) if grader and not runs else -1

    found = scan_selected(tasks_dir, manifest, facts, on_note=on_note)
    ids = [task_id for task_id, _, _, _ in found.values()]
    trajectories = trajectory_files(ids, trajectory)
    needed = any(runs for _, _, runs, _ in found.values())
    confinement = confinement_for(isolation, needed)
    warnings = [line for _, lines, _, _ in found.values() for line in lines]
    graded = grader.runs if grader and grader.confinement == confinement else None
    jobs = [
        GateJob(task_id, str(path), str(file), keep, confinement, index if graded else -1)
        for (path, (task_id, _, _, index)), file in zip(found.items(), trajectories, strict=True)
    ]
    return GatePlan(jobs, warnings, confinement, graded)


class _Ahead:
    """Grades a static task as soon as it validates, into a spool (see the module doc)."""

    def __init__(self, trajectory: Path, isolation: IsolationRequest) -> None:
        self.confinement = confinement_for(isolation, False)
        self.directory = trajectory if trajectory.is_dir() else None
        self.shared = None if self.directory else _loaded_or_none(trajectory)
        self.runs = SpooledRuns()

    def __call__(self, task: Task) -> int:
        trajectory = self.shared or self._own(task.id)
        if trajectory is None:  # reported by the validation of trajectories
            return -1
        index = len(self.runs)
        self.runs.append(index, run_task(task, trajectory, confinement=self.confinement))
        return index

    def _own(self, task_id: str) -> Trajectory | None:
        if self.directory is None:
            return None
        try:
            [file] = trajectory_files([task_id], self.directory)
        except SpecErrors:
            return None
        return _loaded_or_none(file)


def _loaded_or_none(path: Path) -> Trajectory | None:
    try:
        return load_trajectory(path)
    except SpecError:
        return None


def one_task_plan(
    task_file: Path, trajectory: Path, isolation: IsolationRequest, keep: bool = False
) -> GatePlan:
    """The plan of grading one task file (``run --task --trajectory``), validated now."""
    task = load_task(task_file)
    load_trajectory(trajectory)
    task_id, warnings, needed = _facts(task)
    confinement = confinement_for(isolation, needed)
    job = GateJob(task_id, str(task_file), str(trajectory), keep, confinement)
    return GatePlan([job], list(warnings), confinement)


def plan_tasks(plan: GatePlan) -> Iterator[Task]:
    """The plan's tasks loaded again one at a time (a report that needs their checks)."""
    return (load_task(Path(job.task_file)) for job in plan.jobs)


def _facts(task: Task) -> tuple[str, tuple[str, ...], bool]:
    return task.id, tuple(task.warnings), runs_agent_code([task], None)


def gate_executor(name: str, workers: int | None, ray_address: str | None, tasks: int) -> Executor:
    """``--workers`` as given; without it, a pool only for a gate of `POOL_MIN_TASKS`."""
    if workers is None and name == "local":
        workers = default_workers() if tasks >= POOL_MIN_TASKS else 1
    return make_executor(name, workers, ray_address)


def grade_batch(batch: tuple[GateJob, ...]) -> list[RunResult]:
    """Grade a few tasks in a row (in a worker, or here): a static task takes about a
    millisecond, less than sending it to a worker and its result back."""
    return [_grade_one(job) for job in batch]


def _grade_one(job: GateJob) -> RunResult:
    try:
        task = load_task(Path(job.task_file))
        trajectory = _trajectory(job.trajectory)
    except Exception as exc:  # the file changed since it was validated: this task only
        return _harness_failure(job, f"{type(exc).__name__}: {exc}")
    return run_task(task, trajectory, keep=job.keep, confinement=job.confinement)


def batch_size(tasks: int, workers: int) -> int:
    """One task a job for one worker; for a pool, about `BATCHES_PER_WORKER` jobs per
    worker (so they finish close together), at most `MAX_BATCH` tasks each."""
    if workers <= 1:
        return 1
    return max(1, min(MAX_BATCH, -(-tasks // (workers * BATCHES_PER_WORKER))))


BATCHES_PER_WORKER = 8
MAX_BATCH = 50


@lru_cache(maxsize=1)
def _trajectory(path: str) -> Trajectory:
    """A gate usually grades one trajectory against every task: read it once."""
    return load_trajectory(Path(path))


def run_gate_jobs(
    plan: GatePlan,
    executor: Executor,
    on_start: Callable[[str], None] = lambda task_id: None,
    on_result: Callable[[RunResult], None] = lambda run: None,
) -> GateResult:
    """Grade every job not graded ahead through ``executor``, a batch at a time; the
    report keeps the jobs' order."""
    pending = [(position, job) for position, job in enumerate(plan.jobs) if job.ahead < 0]
    if not pending and plan.graded is not None and _in_place(plan):
        return _graded_ahead(plan, on_start, on_result)
    size = batch_size(len(pending), executor.workers)

    def batches() -> Iterator[Job[tuple[GateJob, ...]]]:
        for first in range(0, len(pending), size):
            batch = tuple(job for _, job in pending[first : first + size])
            for job in batch:
                on_start(job.task_id)
            yield Job(str(first), batch)

    def outcomes() -> Iterator[tuple[int, RunResult]]:
        if plan.graded is not None:
            for position, job in enumerate(plan.jobs):
                if job.ahead >= 0:
                    on_start(job.task_id)
                    run = plan.graded[job.ahead]
                    yield position, run
                    on_result(run)
        with closing(executor.run(grade_batch, batches())) as stream:
            for done in stream:
                batch = pending[int(done.key) : int(done.key) + size]
                runs = done.result or [_harness_failure(job, str(done.error)) for _, job in batch]
                for (position, _), run in zip(batch, runs, strict=True):
                    yield position, run
                    on_result(run)

    return collect_gate(outcomes(), len(plan.jobs), plan.confinement)


def _in_place(plan: GatePlan) -> bool:
    """Every job's result sits at the job's own position of the ahead spool (no file
    graded ahead was skipped afterwards), so the spool is already the report's order."""
    return (
        plan.graded is not None
        and len(plan.graded) == len(plan.jobs)
        and all(job.ahead == position for position, job in enumerate(plan.jobs))
    )


def _graded_ahead(
    plan: GatePlan, on_start: Callable[[str], None], on_result: Callable[[RunResult], None]
) -> GateResult:
    """The gate whose every task was graded while validating: its spool is the result
    (copying thousands of results into a second spool cost a tenth of such a gate)."""
    assert plan.graded is not None
    started = time.perf_counter()
    for job, run in zip(plan.jobs, plan.graded, strict=True):
        on_start(job.task_id)
        on_result(run)
    return GateResult(
        plan.graded, duration_s=time.perf_counter() - started, isolation=plan.confinement.isolation
    )


def _harness_failure(job: GateJob, error: str) -> RunResult:
    """A task that could not be graded: an INFRA row, never a silent pass."""
    row = CheckResult("harness", Status.INFRA, 0.0, f"not graded: {error}")
    return RunResult(task_id=job.task_id, results=(row,), trajectory=job.trajectory)
