"""Trial orchestration: replay and evaluate, trials of live agents, suite runs on disk.

Names are imported on first use (PEP 562): ``gate`` needs only replay and evaluation,
and loading suite runs, agents and the ACE summary for it cost every gate process
megabytes it never used (a gate's peak memory is measured: benchmarks/gate_memory.py).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Imported now, not lazily: the submodule shares the function's name, and importing a
# submodule binds its name on the package - to the module, shadowing a lazy export.
from benchwright.execution.evaluate import evaluate

if TYPE_CHECKING:
    from benchwright.execution.records import SCHEMA_VERSION, PhaseRecord, TrialResult
    from benchwright.execution.run import run_gate, run_task
    from benchwright.execution.suite_run import (
        RunOutcome,
        RunPlan,
        execute,
        exit_status,
        plan_resume,
        plan_run,
    )
    from benchwright.execution.summary import compare_summaries, read_summary, summarize
    from benchwright.execution.trial import TrialOptions, run_trial

_HOMES = {
    "SCHEMA_VERSION": "records", "PhaseRecord": "records", "TrialResult": "records",
    "run_gate": "run", "run_task": "run",
    "RunOutcome": "suite_run", "RunPlan": "suite_run", "execute": "suite_run",
    "exit_status": "suite_run", "plan_resume": "suite_run", "plan_run": "suite_run",
    "compare_summaries": "summary", "read_summary": "summary", "summarize": "summary",
    "TrialOptions": "trial", "run_trial": "trial",
}  # fmt: skip

__all__ = [
    "SCHEMA_VERSION",
    "PhaseRecord",
    "RunOutcome",
    "RunPlan",
    "TrialOptions",
    "TrialResult",
    "compare_summaries",
    "evaluate",
    "execute",
    "exit_status",
    "plan_resume",
    "plan_run",
    "read_summary",
    "run_gate",
    "run_task",
    "run_trial",
    "summarize",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
