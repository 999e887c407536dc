"""Grade one kitdemo tree: the executed-app kit runs kitdemo's phases, then its checks.

What is kitdemo's is here: where its package is, its database's name, the context and
empty record of one grading, and its check table. The kit does the rest
(`kit.grade_tree`): a fresh copy of the tree, a leased port, the app started and
stopped, the evidence kept, the provenance of the result.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from benchwright.errors import SpecError
from benchwright.model import CheckResult
from benchwright.sandbox import Confinement
from benchwright.suites.kit import (
    AppSuite,
    Grading,
    PhaseListener,
    PhaseLog,
    grade_tree,
)
from benchwright.suites.kit.workspace import Workspace
from benchwright.suites.kitdemo.checks import CheckSettings, build_table
from benchwright.suites.kitdemo.context import GradeContext, GradeSettings
from benchwright.suites.kitdemo.phases import select_phases

PACKAGE = "kitdemo"


def grade(
    tree: Path,
    *,
    seed: int = 0,
    phases: Iterable[str] | None = None,
    settings: GradeSettings | None = None,
    check_settings: CheckSettings | None = None,
    evidence_dir: Path | None = None,
    evidence_prefix: str = "",
    confinement: Confinement | None = None,
    on_phase: PhaseListener | None = None,
    vendor_url: str | None = None,
) -> Grading:
    """Run the selected phases (None: all) on a fresh copy of ``tree``; every check's row.

    Raises:
        SpecError: the tree is not a directory, a phase name is unknown, or a vendor URL
            was given (kitdemo talks to no vendor).
    """
    if vendor_url is not None:
        raise SpecError.single("--vendor-url", "kitdemo talks to no vendor")
    suite = kitdemo(settings or GradeSettings(), check_settings or CheckSettings())
    return grade_tree(suite, tree, select_phases(phases), seed=seed, staged=(),
                      confinement=confinement, on_phase=on_phase, evidence_dir=evidence_dir,
                      evidence_prefix=evidence_prefix)  # fmt: skip


def kitdemo(settings: GradeSettings, checks: CheckSettings) -> AppSuite[PhaseLog]:
    """kitdemo for one grading: its phases' context, an empty record, its rows."""
    table = build_table()

    def prepare(space: Workspace) -> tuple[GradeContext, PhaseLog]:
        return GradeContext(space.tree, settings), PhaseLog()

    def judge(obs: PhaseLog) -> list[CheckResult]:
        return table.evaluate(obs, checks)

    return AppSuite(PACKAGE, "kitdemo.db", prepare, judge)
