"""Trial orchestration: replay, evaluate, gate."""

from benchwright.execution.evaluate import evaluate
from benchwright.execution.run import run_gate, run_task

__all__ = ["evaluate", "run_gate", "run_task"]
