"""What a check is given: the task, the agent's result, and instruments."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchwright.model import CheckResult, Status, Task, Trajectory
from benchwright.sandbox import CONFINED, Confinement
from benchwright.workspace import Workspace


@dataclass(frozen=True, slots=True)
class CheckContext:
    """Everything one check may look at. Checks judge; they build nothing here."""

    check_id: str
    task: Task
    workspace: Workspace
    trajectory: Trajectory
    confinement: Confinement = CONFINED
    """How a check that runs the agent's code must confine it (`Confinement.sandbox`)."""
    canaries: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Canary tests the stamp planted, by stamped file: tests that must be reported failed."""
    evidence_dir: Path | None = None
    """This check's own directory for evidence files (a scorecard, screenshots), outside
    the workspace; the trial seals what it holds with the result (`execution.evidence`).
    None where nothing keeps files (a gate, a test)."""
    seed: int = 0
    """The run's seed (``--seed``): what a check that builds fixtures seeds them with."""
    build_trace: Path | None = None
    """The build vendor's trace (JSONL, one line per request the agent sent the mock served
    at its prompt's address while it built), written by the harness from the mock's memory
    after the agent's last phase, outside anything the agent could write
    (`execution.evidence.BUILD_TRACE`). None: the task has no vendor, or no trial ran."""

    @property
    def answer(self) -> str | None:
        """The agent's captured final answer, if any."""
        return self.trajectory.answer

    @property
    def live(self) -> bool:
        """The harness ran a live agent here: its files on disk are the whole truth, and
        recorded commands are not evidence (a replayed trajectory's are)."""
        facts = self.trajectory.metadata.get("benchwright")
        return isinstance(facts, dict) and facts.get("live") is True

    def directory(self) -> Path:
        """The agent's workspace as a real directory (materialized on first use)."""
        return self.workspace.directory()

    def result(self, status: Status, score: float, detail: str, **evidence: Any) -> CheckResult:
        return CheckResult(self.check_id, status, score, detail, evidence)

    def passed(self, detail: str, **evidence: Any) -> CheckResult:
        return CheckResult.passing(self.check_id, detail, **evidence)

    def failed(self, detail: str, **evidence: Any) -> CheckResult:
        return CheckResult.failing(self.check_id, detail, **evidence)
