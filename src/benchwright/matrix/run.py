"""Grade every cell of a matrix: each cell's trajectory against every selected task.

Pass rates follow AgentBench: a cell's rate is tasks passed over tasks; the overall,
per-model and per-prompt rates pool the cells they cover (with equal task counts per
cell, as here, pooling equals AgentBench's mean of cell rates). Pooled trials share
tasks, so their intervals are narrower than independent samples would justify; the
cell intervals carry no such caveat.

Each task is graded once per cell (one trajectory), so a cell's per-trial figures
(`benchwright.execution.pass_at_k`, the run summary's) are pass@1, its pass rate, and
the mean score over its tasks: partial credit the pass rate does not show.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchwright.dsl import load_manifest, load_tasks, load_trajectory
from benchwright.execution import run_gate
from benchwright.execution.isolation import IsolationRequest, choose_confinement
from benchwright.execution.pass_at_k import TrialOutcome, pooled_figures, task_figures, trial_score
from benchwright.matrix.config import MatrixConfig, locate
from benchwright.matrix.stats import Rate, z_for
from benchwright.model import RunResult, Task


@dataclass(frozen=True)
class CellResult:
    model: str
    prompt: str
    trajectory: str
    rate: Rate
    tasks: list[dict[str, Any]] = field(default_factory=list)
    """Per task: ``task_id``, ``passed``, ``score`` and the failed checks with their detail."""
    harness_failed: bool = False
    per_trial: dict[str, Any] | None = None
    """pass@1 and the mean score over the cell's tasks (`pass_at_k.pooled_figures`)."""

    @property
    def key(self) -> str:
        return f"{self.model}/{self.prompt}"

    @property
    def mean_score(self) -> float | None:
        return self.per_trial["mean_score"] if self.per_trial else None


@dataclass(frozen=True)
class MatrixResult:
    name: str
    cells: list[CellResult]
    confidence: float

    @property
    def harness_failed(self) -> bool:
        return any(cell.harness_failed for cell in self.cells)

    @property
    def overall(self) -> Rate:
        return self._pool(self.cells)

    def by(self, attribute: str) -> dict[str, Rate]:
        """Pooled rates per ``model`` or per ``prompt``, in first-seen order."""
        keys = dict.fromkeys(getattr(cell, attribute) for cell in self.cells)
        return {k: self._pool([c for c in self.cells if getattr(c, attribute) == k]) for k in keys}

    def _pool(self, cells: list[CellResult]) -> Rate:
        z = z_for(self.confidence)
        return Rate(sum(c.rate.passed for c in cells), sum(c.rate.total for c in cells), z)

    def mean_score(self, attribute: str | None = None, key: str | None = None) -> float | None:
        """The mean score over every task graded in the cells whose ``attribute`` is
        ``key`` (all cells without one): each task of each cell weighs the same."""
        cells = [c for c in self.cells if attribute is None or getattr(c, attribute) == key]
        figures = [task_figures([_outcome(t)], 1) for c in cells for t in c.tasks]
        pooled = pooled_figures(figures)
        return pooled["mean_score"] if pooled else None


def run_matrix(
    config: MatrixConfig, config_path: Path, tasks_dir: Path | None = None,
    isolation: IsolationRequest | None = None,
) -> MatrixResult:  # fmt: skip
    """Load the tasks and every cell's trajectory (all validated first), then grade each cell.

    Check commands run confined as in ``gate`` (``isolation`` carries ``--no-sandbox``).
    """
    tasks = select_matrix_tasks(config, config_path, tasks_dir)
    confinement = choose_confinement(isolation or IsolationRequest(), tasks)
    trajectories = [
        load_trajectory(locate(cell.trajectory, config_path, f"cells[{n}].trajectory"))
        for n, cell in enumerate(config.cells)
    ]
    z = z_for(config.confidence)
    cells = []
    for cell, trajectory in zip(config.cells, trajectories, strict=True):
        gate = run_gate([(task, trajectory) for task in tasks], confinement=confinement)
        by_id = {task.id: task for task in tasks}
        runs = [_task_row(by_id[run.task_id], run) for run in gate.runs]
        passed = sum(run.passed for run in gate.runs)
        rate = Rate(passed, len(tasks), z)
        per_trial = pooled_figures([task_figures([_outcome(row)], 1) for row in runs])
        cells.append(CellResult(cell.model, cell.prompt, cell.trajectory, rate, runs,
                                gate.harness_failed, per_trial))  # fmt: skip
    return MatrixResult(config.name, cells, config.confidence)


def _task_row(task: Task, run: RunResult) -> dict[str, Any]:
    """A task's row in a cell: passed, errored (a check the harness could not run), its
    score (`pass_at_k.trial_score`) and the failed checks with their detail."""
    errored = run.harness_failed
    return {
        "task_id": run.task_id,
        "passed": run.passed,
        "errored": errored,
        "score": round(trial_score(task, run.results, errored=errored), 6),
        "failures": {r.check_id: r.detail for r in run.results if not r.passed},
    }


def _outcome(row: dict[str, Any]) -> TrialOutcome:
    return TrialOutcome(bool(row["passed"]), bool(row["errored"]), float(row["score"]))


def select_matrix_tasks(
    config: MatrixConfig, config_path: Path, tasks_dir: Path | None = None
) -> list[Task]:
    """``task_files`` inside ``tasks_dir``, the ``task_subset`` manifest's (its names are
    looked up in ``tasks_dir`` first, as AgentBench does), or every task there."""
    root = tasks_dir or locate(config.tasks_dir, config_path, "tasks_dir", directory=True)
    if config.task_files is not None:
        return load_tasks([root / name for name in config.task_files])
    if config.task_subset is not None:
        manifest = locate(config.task_subset, config_path, "task_subset")
        return load_tasks(load_manifest(manifest, root))
    return load_tasks([root])
