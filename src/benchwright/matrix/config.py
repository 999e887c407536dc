"""The matrix config: AgentBench's keys, read with its semantics, validated strictly.

Keys (AgentBench v0.1.0): ``name``, ``tasks_dir`` (default ``tasks``), ``task_files``
(names inside ``tasks_dir``) or ``task_subset`` (a manifest), ``cells`` (or ``runs``),
each ``{model, prompt, trajectory}``, ``baseline`` and ``drift_threshold`` (default
0.05). benchwright adds ``confidence`` (default 0.95), the level of the intervals.

A relative path is looked up beside the config first, then in the current directory
(where AgentBench reads it), so a config written for either works unchanged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError, model_validator

from benchwright.dsl._documents import display_path, problems_from, read_document
from benchwright.errors import SpecError
from benchwright.model import StrictInput


class Counted(StrictInput):
    """A baseline rate with its sample size, as `benchwright matrix --json` writes it."""

    passed: int = Field(ge=0)
    total: int = Field(ge=1)

    @model_validator(mode="after")
    def _at_most_total(self) -> Counted:
        if self.passed > self.total:
            raise ValueError(f"passed ({self.passed}) exceeds total ({self.total})")
        return self


BaselineValue = float | Counted
"""A pass rate in [0, 1] (AgentBench) or passed/total counts (benchwright)."""


class Baseline(StrictInput):
    """Expected pass rates; cells are keyed ``model/prompt``."""

    overall_pass_rate: BaselineValue | None = None
    by_model: dict[str, BaselineValue] = Field(default_factory=dict)
    by_prompt: dict[str, BaselineValue] = Field(default_factory=dict)
    cells: dict[str, BaselineValue] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _rates_in_range(self) -> Baseline:
        values = [self.overall_pass_rate, *self.by_model.values(), *self.by_prompt.values(),
                  *self.cells.values()]  # fmt: skip
        bad = [v for v in values if isinstance(v, float) and not 0.0 <= v <= 1.0]
        if bad:
            raise ValueError(f"a pass rate is between 0 and 1, got {bad[0]}")
        return self


class Cell(StrictInput):
    """One model/prompt combination and the trajectory recorded for it."""

    model: str = Field(min_length=1)
    prompt: str = Field(min_length=1)
    trajectory: str = Field(min_length=1)

    @property
    def key(self) -> str:
        return f"{self.model}/{self.prompt}"


class MatrixConfig(StrictInput):
    name: str = "matrix"
    tasks_dir: str = "tasks"
    task_files: list[str] | None = None
    task_subset: str | None = None
    cells: list[Cell] = Field(min_length=1)
    baseline: Baseline | None = None
    drift_threshold: float = Field(default=0.05, ge=0.0, le=1.0)
    confidence: float = Field(default=0.95, gt=0.5, lt=1.0)

    @model_validator(mode="after")
    def _distinct_cells(self) -> MatrixConfig:
        if self.task_files is not None and self.task_subset is not None:
            raise ValueError("give either 'task_files' or 'task_subset', not both")
        keys = [cell.key for cell in self.cells]
        twice = sorted({k for k in keys if keys.count(k) > 1})
        if twice:
            raise ValueError(f"cell {twice[0]} is listed twice")
        return self


def read_config(path: Path) -> MatrixConfig:
    """The config at ``path``; ``runs`` is read as ``cells`` (AgentBench's older key)."""
    raw = read_document(path)
    source = display_path(path)
    if not isinstance(raw, dict):
        raise SpecError.single(source, "a matrix config is a mapping")
    if "runs" in raw and "cells" not in raw:
        raw = {("cells" if k == "runs" else k): v for k, v in raw.items()}
    return _validated(MatrixConfig, raw, source)


def read_baseline(path: Path) -> Baseline:
    """A baseline file: the baseline mapping itself, or a ``matrix --json`` report's."""
    raw = read_document(path)
    source = display_path(path)
    if isinstance(raw, dict) and "schema" in raw and "baseline" in raw:
        raw = raw["baseline"]
    return _validated(Baseline, raw, source)


def _validated(model: type[Any], raw: Any, source: str) -> Any:
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise SpecError(source, problems_from(exc)) from None


def locate(raw: str, config: Path, field: str, *, directory: bool = False) -> Path:
    """``raw`` beside the config, else in the current directory (AgentBench's reading)."""
    candidates = [Path(raw)] if Path(raw).is_absolute() else [config.parent / raw, Path(raw)]
    for candidate in candidates:
        if candidate.is_dir() if directory else candidate.is_file():
            return candidate
    kind = "directory" if directory else "file"
    tried = " or ".join(dict.fromkeys(display_path(c) for c in candidates))
    raise SpecError.single(display_path(config), f"{kind} not found: {tried}", field)
