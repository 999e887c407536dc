"""Plain data shared by every package: tasks, checks, results, trajectories.

Nothing here performs I/O or imports another benchwright package.
"""

from benchwright.model._input import StrictInput
from benchwright.model.result import CheckResult, GateResult, ReplayError, RunResult
from benchwright.model.scorecard import (
    SCORECARD_SCHEMA_VERSION,
    Attribution,
    CategoryTally,
    ComponentValue,
    ConditionResult,
    CriticalFactor,
    ExcellenceResult,
    Flags,
    PointsSummary,
    Scorecard,
    ScoredRow,
    TierMean,
)
from benchwright.model.status import Status
from benchwright.model.task import TIERS, CheckSpec, Phase, Solution, Suite, Task
from benchwright.model.trajectory import (
    CommandStep,
    FileEdit,
    NetworkViolation,
    Replacement,
    ShellEvidence,
    StepError,
    Trajectory,
    inside_root,
    normalize_path,
    normalize_step,
    step_errors,
    step_label,
)

__all__ = [
    "SCORECARD_SCHEMA_VERSION",
    "TIERS",
    "Attribution",
    "CategoryTally",
    "CheckResult",
    "CheckSpec",
    "CommandStep",
    "ComponentValue",
    "ConditionResult",
    "CriticalFactor",
    "ExcellenceResult",
    "FileEdit",
    "Flags",
    "GateResult",
    "NetworkViolation",
    "Phase",
    "PointsSummary",
    "Replacement",
    "ReplayError",
    "RunResult",
    "Scorecard",
    "ScoredRow",
    "ShellEvidence",
    "Solution",
    "Status",
    "StepError",
    "StrictInput",
    "Suite",
    "Task",
    "TierMean",
    "Trajectory",
    "inside_root",
    "normalize_path",
    "normalize_step",
    "step_errors",
    "step_label",
]
