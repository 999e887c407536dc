"""The ACE oracle's two-sided regression gate over workspace fixtures.

A checker can go wrong in two directions: it stops passing a correct workspace,
or it starts passing a cheat. The expectations file pins both: a positive control
with a floor (a minimum partial percentage, ids that must PASS) and adversarial
fixtures with ceilings (a maximum partial percentage, ids that must FAIL *by
detection* - a FAIL the oracle filled in for a missing or crashed checker proves
nothing about the cheat).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import Field, ValidationError, field_validator

from benchwright.checks.ace.grade import AceGrade, grade_workspace, rung_scorer
from benchwright.checks.ace.oracle import ACE_IDS, failed_by_detection
from benchwright.dsl._documents import display_path, problems_from, read_document
from benchwright.errors import HarnessError, SpecError
from benchwright.execution.executor import Executor, Job, SerialExecutor
from benchwright.execution.progress import ProgressDisplay
from benchwright.execution.tracked import tracked
from benchwright.model import Status, StrictInput

EXPECTATIONS = "expectations.yaml"


def _ace_ids(ids: list[str]) -> list[str]:
    unknown = [i for i in ids if i not in ACE_IDS]
    if unknown:
        raise ValueError(f"unknown ACE id {unknown[0]!r} (known: {', '.join(ACE_IDS)})")
    return ids


class PositiveControl(StrictInput):
    workspace: str = Field(min_length=1)
    """Fixture directory, relative to the expectations file."""
    min_partial_pct: float = Field(ge=0, le=100)
    """The partial percentage must be at least this."""
    must_pass: list[str] = Field(default_factory=list)
    """ACE ids that must PASS."""

    _ids = field_validator("must_pass")(_ace_ids)


class Adversary(StrictInput):
    workspace: str = Field(min_length=1)
    """Fixture directory, relative to the expectations file."""
    cheat: str = ""
    """What the fixture fakes, for the report."""
    max_partial_pct: float = Field(ge=0, le=100)
    """The partial percentage must be at most this."""
    must_fail: list[str] = Field(min_length=1)
    """ACE ids a checker must FAIL by detection (never a missing or crashed checker)."""

    _ids = field_validator("must_fail")(_ace_ids)


class Expectations(StrictInput):
    rung: str = Field(min_length=1)
    """The ladder rung every fixture is scored on."""
    skip_docker: bool = True
    """Docker-gated rows SKIPPED without probing, so the gate runs on any machine."""
    positive: PositiveControl
    adversarial: list[Adversary] = Field(min_length=1)


@dataclass(frozen=True)
class FixtureOutcome:
    workspace: str
    partial_pct: float | None
    broken: tuple[str, ...]
    """Each expectation this fixture broke, one line each; empty when all held."""


def load_expectations(directory: Path) -> Expectations:
    """``directory/expectations.yaml``, validated; `SpecError` naming file and field."""
    path = directory / EXPECTATIONS
    source = display_path(path)
    if not path.is_file():
        raise SpecError.single(source, "no expectations file")
    try:
        found = Expectations.model_validate(read_document(path))
    except ValidationError as exc:
        raise SpecError(source, problems_from(exc)) from None
    fixtures = [("positive.workspace", found.positive.workspace)] + [
        (f"adversarial[{n}].workspace", a.workspace) for n, a in enumerate(found.adversarial)
    ]
    missing = [(f, f"no such fixture directory: {w}") for f, w in fixtures
               if not (directory / w).is_dir()]  # fmt: skip
    try:
        rung_scorer(found.rung)
    except SpecError as exc:
        missing.insert(0, ("rung", exc.problems[0][1]))
    if missing:
        raise SpecError(source, missing)
    return found


def run_selftest(directory: Path, executor: Executor | None = None) -> list[FixtureOutcome]:
    """Grade every fixture, one job each on ``executor`` (default: one after another in
    this process), and report which expectations broke, in the expectations' order.

    Raises:
        SpecError: the expectations file is invalid (before anything is graded).
        HarnessError: grading a fixture raised (named), after the others were cancelled.
    """
    exp = load_expectations(directory)
    workspaces = [exp.positive.workspace] + [a.workspace for a in exp.adversarial]
    # a workspace may be named twice (as the positive and as a cheat): keys stay unique
    keys = [w if workspaces.index(w) == n else f"{w}#{n}" for n, w in enumerate(workspaces)]
    jobs = [Job(k, FixtureJob(directory, n)) for n, k in enumerate(keys)]
    outcomes: dict[str, FixtureOutcome] = {}
    with ProgressDisplay(len(jobs), "fixtures") as shown:
        for done in tracked(executor or SerialExecutor(), check_fixture, jobs, shown):
            if done.result is None:
                raise HarnessError(f"ace selftest fixture {done.key}: {done.error}")
            outcomes[done.key] = done.result
            shown.finished(done.key, not done.result.broken)
    return [outcomes[k] for k in keys]


@dataclass(frozen=True)
class FixtureJob:
    """One fixture by position: 0 the positive control, n the n-th adversary."""

    directory: Path
    index: int


def check_fixture(job: FixtureJob) -> FixtureOutcome:
    """Grade one fixture against its expectations (runs in a worker: rereads the file)."""
    exp = load_expectations(job.directory)
    if job.index == 0:
        return _positive(job.directory, exp)
    return _adversary(job.directory, exp, exp.adversarial[job.index - 1])


def _grade(directory: Path, workspace: str, exp: Expectations) -> AceGrade:
    return grade_workspace(directory / workspace, exp.rung, skip_docker=exp.skip_docker)


def _positive(directory: Path, exp: Expectations) -> FixtureOutcome:
    control = exp.positive
    grade = _grade(directory, control.workspace, exp)
    pct = grade.fields["partial_score_pct"]
    broken = []
    if pct is None or pct < control.min_partial_pct:
        broken.append(f"partial {pct}% is under the floor {control.min_partial_pct:g}%")
    rows = {r.check_id: r for r in grade.rows}
    for ace_id in control.must_pass:
        row = rows.get(ace_id)
        if row is None:
            broken.append(f"{ace_id} must pass but rung {exp.rung} does not score it")
        elif row.status is not Status.PASS:
            broken.append(f"{ace_id} must pass, got {row.status.value}: {row.detail}")
    return FixtureOutcome(control.workspace, pct, tuple(broken))


def _adversary(directory: Path, exp: Expectations, adversary: Adversary) -> FixtureOutcome:
    grade = _grade(directory, adversary.workspace, exp)
    pct = grade.fields["partial_score_pct"]
    broken = []
    if pct is not None and pct > adversary.max_partial_pct:
        broken.append(f"partial {pct}% is over the ceiling {adversary.max_partial_pct:g}%")
    rows = {r.check_id: r for r in grade.rows}
    for ace_id in adversary.must_fail:
        row = rows.get(ace_id)
        if row is None:
            broken.append(f"{ace_id} must fail but rung {exp.rung} does not score it")
        elif not failed_by_detection(row):
            broken.append(f"{ace_id} must fail by detection, got {row.status.value}: {row.detail}")
    return FixtureOutcome(adversary.workspace, pct, tuple(broken))
