"""Helpers for suite-run tests: the mini suite, and small suites built from dicts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from benchwright.agents import Agent
from benchwright.dsl import load_suite
from benchwright.execution import TrialOptions, TrialResult, run_trial
from benchwright.model import Suite

MINISUITE = Path(__file__).resolve().parents[1] / "data" / "minisuite"
GRADED = ("edit-rename", "fix-double", "nav-count", "phased-plan")


def make_suite(root: Path, task_docs: list[dict[str, Any]], **suite: Any) -> Path:
    """A suite directory with one YAML file per task (``tasks/<id>.yaml``)."""
    (root / "tasks").mkdir(parents=True, exist_ok=True)
    classes = sorted({t["class"] for t in task_docs if isinstance(t.get("class"), str)})
    doc = {"suite": "tmp", "classes": {c: c for c in classes}, "tasks": ["tasks/*.yaml"], **suite}
    (root / "suite.yaml").write_text(yaml.safe_dump(doc))
    for task in task_docs:
        task = {"prompt": "do it", **task}
        name = str(task["id"]).replace("/", "_")
        (root / "tasks" / f"{name}.yaml").write_text(yaml.safe_dump(task))
    return root


def trial(suite: Suite, task_id: str, agent: Agent, **options: Any) -> TrialResult:
    """One trial of ``task_id`` with default options."""
    task = suite.task(task_id)
    return run_trial(task, suite.tiers[task_id], agent, 1, TrialOptions(**options))


def minisuite() -> Suite:
    return load_suite(MINISUITE)
