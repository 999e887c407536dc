"""Plain data shared by every package: tasks, checks, results, trajectories.

Nothing here performs I/O or imports another benchwright package.
"""

from benchwright.model.result import CheckResult, GateResult, ReplayError, RunResult
from benchwright.model.status import Status
from benchwright.model.task import CheckSpec, Suite, Task
from benchwright.model.trajectory import (
    CommandStep,
    FileEdit,
    NetworkViolation,
    Replacement,
    StepError,
    Trajectory,
    inside_root,
    normalize_path,
    normalize_step,
    step_errors,
)

__all__ = [
    "CheckResult",
    "CheckSpec",
    "CommandStep",
    "FileEdit",
    "GateResult",
    "NetworkViolation",
    "Replacement",
    "ReplayError",
    "RunResult",
    "Status",
    "StepError",
    "Suite",
    "Task",
    "Trajectory",
    "inside_root",
    "normalize_path",
    "normalize_step",
    "step_errors",
]
