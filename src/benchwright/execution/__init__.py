"""Trial orchestration: replay and evaluate, trials of live agents, suite runs on disk."""

from benchwright.execution.evaluate import evaluate
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
