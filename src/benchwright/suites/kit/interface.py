"""What a suite's grader module offers the rest of benchwright (``grade``, ``audit``,
``calibrate``, ``run``'s ``executed_app`` check): one protocol, so a new suite knows what
to export and `suites.grader_for` can refuse a module that forgot one."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol, runtime_checkable

from benchwright.suites.kit.grading import Grading
from benchwright.suites.kit.phases import Phase

INTERFACE = (
    "CALIBRATION", "MEMORY_MB", "PHASE_NAMES", "SCORER", "CheckSettings", "grade",
    "select_phases",
)  # fmt: skip
"""The names a grader module exports (`SuiteGrader`); its ``__all__`` starts with them."""


@runtime_checkable
class SuiteGrader(Protocol):
    """A suite's grader module (``benchwright.suites.<name>``)."""

    SCORER: str
    """Its scorer config's file name under ``scorers/``."""
    PHASE_NAMES: tuple[str, ...]
    """Its phases in their canonical order (what ``--phases`` accepts)."""
    MEMORY_MB: Mapping[str, int]
    """What one grading asks of a node, ``browser`` (with the browser phase) and ``http``."""
    CALIBRATION: tuple[Any, ...]
    """The timing rows ``calibrate`` fits (empty: nothing to calibrate)."""
    CheckSettings: Any
    """Its check settings type, built from a scorer with ``from_scorer``."""

    def select_phases(self, names: Iterable[str] | None) -> tuple[Phase, ...]: ...

    def grade(self, tree: Any, **options: Any) -> Grading: ...
