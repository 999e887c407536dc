"""Score one workspace on one ACE rung: the oracle's rows composed with a fixed denominator.

``benchwright ace score`` and ``benchwright ace selftest`` both call `grade_workspace`;
``benchwright run`` composes a rung task's rows with `rung_scorer`. The rung is looked
up by exact name in ``scorers/ace-ladder.json`` (an unknown rung is a `SpecError`
listing the rungs: there is no fallback to the full 77-point denominator).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import benchwright
from benchwright.checks.ace._env import AceEnv, Engine, detect_engine
from benchwright.checks.ace._kind import kind_problem
from benchwright.checks.ace.oracle import score
from benchwright.errors import SpecError
from benchwright.model import CheckResult, Scorecard
from benchwright.scoring import ace_fields, compose, load_scorer
from benchwright.scoring.scorer import Scorer

SKIP_DOCKER = Engine(False, "--skip-docker")
"""The engine ``--skip-docker`` stands for: absent, never probed, and saying why."""


def ace_scorer_file() -> Path:
    """``scorers/ace.yaml`` of this checkout (the ladder sits beside it)."""
    return Path(benchwright.__file__).resolve().parents[2] / "scorers" / "ace.yaml"


def rung_scorer(rung: str) -> Scorer:
    """The ACE scorer narrowed to ``rung``; `SpecError` (listing the rungs) when unknown."""
    return load_scorer(ace_scorer_file(), rung)


@dataclass(frozen=True)
class AceGrade:
    """One workspace's rows on one rung and what they compose to."""

    rung: str
    rows: tuple[CheckResult, ...]
    card: Scorecard

    @property
    def fields(self) -> dict[str, Any]:
        """ACE's report fields (points, denominators, percentages, categories)."""
        found = ace_fields(self.card)
        assert found is not None, "the ACE scorer is fixed-denominator"
        return found

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` document: the ACE fields, then every row."""
        return {**self.fields, "rows": [r.to_dict() for r in self.rows]}


def grade_workspace(
    workspace: Path,
    rung: str,
    *,
    skip_docker: bool = False,
    base_url: str | None = None,
    gradle: Literal["docker", "local"] = "docker",
    phase_changes: Mapping[str, Sequence[str]] | None = None,
    refuse_other_kinds: bool = False,
) -> AceGrade:
    """Run the oracle for ``rung``'s checks over ``workspace`` and compose the rows.

    Args:
        skip_docker: Docker-gated rows are SKIPPED "--skip-docker" without probing an engine.
        base_url: a stack the user started; F1-F9 and C2 run against it.
        gradle: ``local`` builds with this machine's JDK/Gradle instead of a container.
        phase_changes: files each phase changed (P3); None when no snapshots exist.
        refuse_other_kinds: a workspace with no Java, Kotlin or Gradle file is a
            `SpecError` saying what to grade instead (``ace score``), not a page of FAILs.
    """
    scorer = rung_scorer(rung)
    if not workspace.is_dir():
        raise SpecError.single(str(workspace), "no such workspace directory")
    if refuse_other_kinds and (problem := kind_problem(workspace, rung)):
        raise SpecError.single(str(workspace), problem)
    engine = SKIP_DOCKER if skip_docker else detect_engine()
    env = AceEnv(workspace.resolve(), engine, base_url, gradle, phase_changes)
    rows = tuple(score(env, scorer.wanted))
    return AceGrade(rung, rows, compose(rows, scorer))


def ace_summary(rung: str, rows: Iterable[CheckResult]) -> dict[str, Any]:
    """A ``benchwright run`` trial's ACE fields: its rows on ``rung`` (other rows ignored)."""
    scorer = rung_scorer(rung)
    wanted = set(scorer.wanted)
    return AceGrade(rung, (), compose([r for r in rows if r.check_id in wanted], scorer)).fields
