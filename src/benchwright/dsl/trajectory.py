"""Load and validate trajectory files: ``{metadata?, steps: [objects], answer?}``."""

from __future__ import annotations

from pathlib import Path

from benchwright.dsl._documents import display_path, read_document
from benchwright.errors import SpecError
from benchwright.model import Trajectory, step_errors


def trajectory_from_dict(raw: object, source: str) -> Trajectory:
    """Build and validate a trajectory from a parsed document."""
    if not isinstance(raw, dict):
        raise SpecError.single(source, f"a trajectory holds an object, not {type(raw).__name__}")
    problems: list[tuple[str, str]] = []
    steps = raw.get("steps")
    metadata = raw.get("metadata", {})
    answer = raw.get("answer")
    if steps is None:
        problems.append(("steps", "required: a list of step objects"))
        steps = []
    elif not isinstance(steps, list):
        problems.append(("steps", f"must be a list of step objects, got {type(steps).__name__}"))
        steps = []
    problems.extend(
        (f"steps[{n}]", "must be an object") for n, s in enumerate(steps) if not isinstance(s, dict)
    )
    if not isinstance(metadata, dict):
        problems.append(("metadata", "must be an object"))
    if answer is not None and not isinstance(answer, str):
        problems.append(("answer", "must be a string"))
    if problems:
        raise SpecError(source, problems)
    if errors := step_errors(steps):
        raise SpecError(source, [(f"steps[{e.index}].{e.field_path}", e.message) for e in errors])
    return Trajectory(tuple(steps), metadata=metadata, answer=answer, source=source)


def load_trajectory(path: Path) -> Trajectory:
    """Read and validate one trajectory file."""
    return trajectory_from_dict(read_document(path), display_path(path))
