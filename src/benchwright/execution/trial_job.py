"""One trial as an executor job: a small picklable spec, re-loaded where it runs.

A spawned worker (or a Ray node) shares no memory with the driver, and a loaded
`Suite` or a built `Agent` is neither small nor meant to cross a process boundary.
So the job carries names - the suite's path, the task id, the agent spec - and
`run_trial_spec` loads them again in the worker, once per worker for the suite.
The driver alone writes results (it holds the run key), so a worker never touches
the run directory.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from benchwright.agents import build_agent
from benchwright.dsl import load_suite
from benchwright.execution.records import TrialResult
from benchwright.execution.trial import TrialOptions, run_trial
from benchwright.model import Suite


@dataclass(frozen=True)
class TrialSpec:
    """What a worker needs to run one trial of a run."""

    suite_path: str
    task_id: str
    iteration: int
    agent_spec: str
    options: TrialOptions
    """The run's options without callbacks (``on_phase`` cannot cross processes)."""

    @property
    def key(self) -> str:
        """The executor key: unique within a run, and how results are matched."""
        return f"{self.task_id}#{self.iteration}"


def trial_spec(
    suite: Suite, agent_spec: str, task_id: str, iteration: int, options: TrialOptions
) -> TrialSpec:
    """The job of ``task_id`` #``iteration`` (the suite by absolute path: workers may
    start elsewhere)."""
    path = str(Path(suite.source).resolve())
    return TrialSpec(path, task_id, iteration, agent_spec, replace(options, on_phase=None))


def run_trial_spec(spec: TrialSpec) -> TrialResult:
    """Run one trial from its spec (in a worker): load, build the agent, run, return."""
    suite = _suite(spec.suite_path)
    task = suite.task(spec.task_id)
    agent = build_agent(spec.agent_spec, [task], spec.options.model)
    return run_trial(task, suite.tiers[spec.task_id], agent, spec.iteration, spec.options)


@lru_cache(maxsize=4)
def _suite(path: str) -> Suite:
    """A worker runs many trials of one suite: load it once per process."""
    return load_suite(Path(path))
