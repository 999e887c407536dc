"""The tasks of the run being watched, so that each session is judged by its own task.

A run of the model agent writes ``RUN_DIR/live/<task>/<phase>-….jsonl``, each file opening
with a metadata line that names its task, and ``RUN_DIR/run.json`` names the suite. When
``watch`` follows such a directory without ``--task``, each session gets its task's rules
(`rules_for`): a task whose prompt asks for new tests has no ``file_not_modified`` over
``tests/**``, so writing them must not alert, as the default rules would. The defaults are
for sessions whose task is not known (a Claude Code or Codex session, a task not in the
suite). ``run.json`` is read without verifying its seal: it only chooses what to alert on.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from benchwright.dsl import load_suite
from benchwright.errors import BenchwrightError
from benchwright.execution.suite_run import LIVE_DIR
from benchwright.watch.rules import Rules, rules_for


@dataclass(frozen=True)
class RunTasks:
    run_id: str
    suite: str
    rules: Mapping[str, Rules]
    """Task id → the rules of that task."""

    def describe(self, default: Rules) -> str:
        return (f"each session: its task's checks, from run {self.run_id} (suite {self.suite}); "
                f"a session of no known task: {default.describe()}")  # fmt: skip


def find_run_tasks(root: Path, warn: Callable[[str], None]) -> RunTasks | None:
    """The tasks of the run ``root`` belongs to (the run, its ``live/`` or a file in it);
    None when it is no run's, or its suite cannot be loaded (said through ``warn``)."""
    run_dir = _run_dir(root.resolve())
    if run_dir is None:
        return None
    try:
        info = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
        suite = load_suite(Path(info["suite"]["path"]))
    except (OSError, ValueError, KeyError, TypeError, BenchwrightError) as exc:
        warn(f"{run_dir / 'run.json'}: cannot load the run's suite ({_reason(exc)}): "
             "the default rules apply")  # fmt: skip
        return None
    rules = {task.id: rules_for(task) for task in suite.tasks}
    return RunTasks(str(info.get("run_id", run_dir.name)), suite.name, rules)


def _run_dir(root: Path) -> Path | None:
    """The run directory holding ``root``: the run itself, or an ancestor whose ``live/``
    contains it."""
    for candidate in (root, *root.parents):
        if (candidate / "run.json").is_file() and (
            candidate == root or root.is_relative_to(candidate / LIVE_DIR)
        ):
            return candidate
    return None


def _reason(exc: Exception) -> str:
    if isinstance(exc, KeyError | TypeError):
        return "no suite.path"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
