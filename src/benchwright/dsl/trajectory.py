"""Load and validate trajectory files: ``{metadata?, steps: [objects], answer?}``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchwright.dsl._documents import display_path, read_document
from benchwright.errors import SpecError
from benchwright.model import StepError, Trajectory


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
    trajectory = Trajectory(tuple(steps), metadata=metadata, answer=answer, source=source)
    try:
        trajectory.validate()
    except StepError as exc:
        # Report every bad step, not only the first: validate them one by one.
        first = (f"steps[{exc.index}].{exc.field_path}", exc.message)
        raise SpecError(source, _step_problems(steps) or [first]) from None
    return trajectory


def _step_problems(steps: list[dict[str, Any]]) -> list[tuple[str, str]]:
    problems = []
    for n, step in enumerate(steps):
        try:
            Trajectory((step,)).validate()
        except StepError as exc:
            problems.append((f"steps[{n}].{exc.field_path}", exc.message))
    return problems


def load_trajectory(path: Path) -> Trajectory:
    """Read and validate one trajectory file."""
    return trajectory_from_dict(read_document(path), display_path(path))
