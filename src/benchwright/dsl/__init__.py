"""Reading and validating suite files; every error names the file and the field."""

from benchwright.dsl.discover import (
    SKIPPED_DIRS,
    Validated,
    document_files,
    document_kind,
    load_tasks,
    skipped_line,
    validate_documents,
)
from benchwright.dsl.gate import (
    pair_trajectories,
    scan_selected,
    select_tasks,
    trajectory_files,
)
from benchwright.dsl.manifest import load_manifest
from benchwright.dsl.suite import load_suite, suite_file
from benchwright.dsl.task import load_task, task_from_dict
from benchwright.dsl.tiers import GUARD_CHECKS, tier_of
from benchwright.dsl.trajectory import load_trajectory, trajectory_from_dict

__all__ = [
    "GUARD_CHECKS",
    "SKIPPED_DIRS",
    "Validated",
    "document_files",
    "document_kind",
    "load_manifest",
    "load_suite",
    "load_task",
    "load_tasks",
    "load_trajectory",
    "pair_trajectories",
    "scan_selected",
    "select_tasks",
    "skipped_line",
    "suite_file",
    "task_from_dict",
    "tier_of",
    "trajectory_files",
    "trajectory_from_dict",
    "validate_documents",
]
