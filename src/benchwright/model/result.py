"""Results: one row per check, one `RunResult` per task run."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from benchwright.model.status import Status
from benchwright.model.trajectory import step_label

T = TypeVar("T")


def _pickled_by_constructor(cls: type[T]) -> type[T]:
    """Pickle as ``cls(*values)``: a gate spools thousands of results to disk
    (execution/spool.py), and the default state protocol of a frozen slots dataclass
    calls ``dataclasses.fields`` for every object both ways - most of a large static
    gate's time went there."""
    names = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]

    def __reduce__(self: T) -> tuple[type[T], tuple[Any, ...]]:
        return cls, tuple(getattr(self, name) for name in names)

    cls.__reduce__ = __reduce__  # type: ignore[assignment,method-assign]
    return cls


@_pickled_by_constructor
@dataclass(frozen=True, slots=True)
class CheckResult:
    """One check's verdict on one piece of work, with the evidence behind it."""

    check_id: str
    status: Status
    score: float
    """Partial credit in [0, 1]; 1.0 for a PASS of a binary check, 0.0 for a FAIL."""
    detail: str
    """One line a human reads first: the rung earned, what was expected, what was seen."""
    evidence: dict[str, Any] = field(default_factory=dict)
    """Machine-readable support for the verdict (outputs, matches, paths)."""
    duration_s: float = 0.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.score <= 1.0:
            raise ValueError(f"{self.check_id}: score {self.score} outside [0, 1]")

    @property
    def passed(self) -> bool:
        return self.status is Status.PASS

    @classmethod
    def passing(cls, check_id: str, detail: str, **evidence: Any) -> CheckResult:
        return cls(check_id, Status.PASS, 1.0, detail, evidence)

    @classmethod
    def failing(cls, check_id: str, detail: str, **evidence: Any) -> CheckResult:
        return cls(check_id, Status.FAIL, 0.0, detail, evidence)

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape every report and result file uses for one check."""
        return {
            "check_id": self.check_id,
            "status": self.status.value,
            "score": self.score,
            "detail": self.detail,
            "evidence": self.evidence,
            "duration_s": round(self.duration_s, 6),
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> CheckResult:
        """The inverse of `to_dict` (evidence and duration optional)."""
        return cls(
            raw["check_id"],
            Status(raw["status"]),
            raw["score"],
            raw["detail"],
            raw.get("evidence", {}),
            raw.get("duration_s", 0.0),
        )

    def timed(self, duration_s: float) -> CheckResult:
        """The same result with its measured duration filled in."""
        return CheckResult(
            self.check_id, self.status, self.score, self.detail, self.evidence, duration_s
        )


@_pickled_by_constructor
@dataclass(frozen=True, slots=True)
class ReplayError:
    """A trajectory step that could not be applied faithfully to the workspace."""

    step_index: int
    tool: str
    path: str
    reason: str

    def __str__(self) -> str:
        return f"{step_label(self.step_index)} ({self.tool} {self.path}): {self.reason}"


@_pickled_by_constructor
@dataclass(frozen=True, slots=True)
class RunResult:
    """Every check's result for one task run against one trajectory."""

    task_id: str
    results: tuple[CheckResult, ...]
    replay_errors: tuple[ReplayError, ...] = ()
    trajectory: str = ""
    """Where the graded trajectory came from (a file path, or an agent name)."""
    duration_s: float = 0.0
    workspace: str | None = None
    """The kept workspace directory, when the user asked to keep it."""

    @property
    def passed(self) -> bool:
        """True only when every check passed and the trajectory replayed faithfully."""
        return not self.replay_errors and bool(self.results) and all(r.passed for r in self.results)

    @property
    def harness_failed(self) -> bool:
        """True when some check could not run because the harness broke."""
        return any(r.status is Status.INFRA for r in self.results)


@dataclass(frozen=True, slots=True)
class GateResult:
    """A gate over many tasks; ``complete`` is False when it stopped early."""

    runs: Sequence[RunResult]
    """In task order: a tuple, or a gate's runs spooled to disk (``execution/spool.py``)."""
    complete: bool = True
    duration_s: float = 0.0
    error: str | None = None
    """Why the gate stopped early (interrupted, harness crash), when it did."""
    isolation: str = "bwrap"
    """``bwrap`` when check commands ran sandboxed, ``none`` under ``--no-sandbox``."""

    @property
    def passed(self) -> bool:
        return self.complete and bool(self.runs) and self.passed_count == len(self.runs)

    @property
    def harness_failed(self) -> bool:
        return self.error is not None or _tally(self.runs)[1] > 0

    @property
    def passed_count(self) -> int:
        return _tally(self.runs)[0]


def _tally(runs: Sequence[RunResult]) -> tuple[int, int]:
    """(passed, harness-failed) run counts. A spooled sequence counts as it is filled
    (its ``tally()``), so a report of thousands of runs never reads them all back
    from disk just to count them."""
    tally = getattr(runs, "tally", None)
    if callable(tally):
        passed, failed = tally()
        return int(passed), int(failed)
    return sum(run.passed for run in runs), sum(run.harness_failed for run in runs)
