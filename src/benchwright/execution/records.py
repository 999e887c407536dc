"""What one trial leaves behind: its verdict, per-phase facts, checks and timings.

`TrialResult.to_dict` is the ``result.json`` of docs/suites.md; `from_dict`
reads it back for a resumed run's summary, so both directions live together.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from benchwright.execution.run_meta import read_block
from benchwright.model import CheckResult

SCHEMA_VERSION = 1
"""Bump for any change that alters what a count or a pass rate means (docs/suites.md)."""
VERDICTS = ("passed", "failed", "errored", "completed")


@dataclass(frozen=True, slots=True)
class PhaseRecord:
    name: str
    exit_code: int | None
    wall_s: float
    budget_s: float
    timed_out: bool
    commit: str | None
    limit: str | None = None
    """The sandbox limit the agent hit in this phase (``limit: memory … exhausted``)."""


@dataclass(frozen=True)
class TrialResult:
    """The outcome of one task, agent and iteration."""

    task_id: str
    task_class: str | None
    tier: str
    iteration: int
    agent: str
    verdict: str
    error: str | None = None
    phases: tuple[PhaseRecord, ...] = ()
    checks: tuple[CheckResult, ...] = ()
    replay_errors: tuple[str, ...] = ()
    answer: str = ""
    timings: Mapping[str, float] = field(default_factory=dict)
    log: str = ""
    """The agent's stdout and stderr per phase (``agent.log``)."""
    trajectory: Mapping[str, Any] = field(default_factory=dict)
    """``{"metadata", "steps", "answer"}`` (``trajectory.json``)."""
    isolation: str = "bwrap"
    """``bwrap`` (agent and check processes sandboxed) or ``none`` (``--no-sandbox``)."""
    phase_texts: tuple[Mapping[str, str], ...] = ()
    """Per phase run: ``{"name", "prompt", "diff"}``, the diff of the workspace from the
    previous snapshot to this phase's (``phases.json``, what the viewer shows)."""
    artifacts: Mapping[str, bytes] = field(default_factory=dict, repr=False)
    """The checks' evidence files, ``<check dir>/<path>`` -> bytes (bounded:
    `benchwright.execution.evidence`); written under ``evidence/``, never read back."""
    evidence_files: Mapping[str, str] = field(default_factory=dict)
    """Each evidence file's sha256 by the same path, listed in ``result.json`` (so sealed)."""
    run: Mapping[str, Any] | None = None
    """What was measured of the run (`benchwright.execution.run_meta.run_block`): model,
    start, finish, wall, events, tokens, cost, nodes; None in a result from before."""

    @property
    def agent_s(self) -> float:
        return sum(phase.wall_s for phase in self.phases)

    @property
    def agent_finished(self) -> bool:
        """The agent ran every phase it started within its budget (a latency sample)."""
        return bool(self.phases) and not any(p.timed_out for p in self.phases)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "task_id": self.task_id,
            "class": self.task_class,
            "tier": self.tier,
            "iteration": self.iteration,
            "agent": self.agent,
            "verdict": self.verdict,
            "error": self.error,
            "isolation": self.isolation,
            "phases": [
                {
                    "name": p.name,
                    "exit_code": p.exit_code,
                    "wall_s": round(p.wall_s, 6),
                    "budget_s": p.budget_s,
                    "timed_out": p.timed_out,
                    "commit": p.commit,
                    "limit": p.limit,
                }
                for p in self.phases
            ],
            "agent_s": round(self.agent_s, 6),
            "answer_chars": len(self.answer),
            "replay_errors": list(self.replay_errors),
            "checks": [r.to_dict() for r in self.checks],
            "timings": {k: round(v, 6) for k, v in self.timings.items()},
            "evidence_files": dict(self.evidence_files),
            **({"run": dict(self.run)} if self.run is not None else {}),
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> TrialResult:
        """A result read back from ``result.json`` (log, trajectory and answer stay on disk)."""
        return cls(
            task_id=raw["task_id"],
            task_class=raw.get("class"),
            tier=raw["tier"],
            iteration=int(raw["iteration"]),
            agent=raw["agent"],
            verdict=raw["verdict"],
            error=raw.get("error"),
            phases=tuple(
                PhaseRecord(
                    p["name"],
                    p["exit_code"],
                    p["wall_s"],
                    p["budget_s"],
                    p["timed_out"],
                    p.get("commit"),
                    p.get("limit"),
                )
                for p in raw.get("phases", [])
            ),
            checks=tuple(CheckResult.from_dict(c) for c in raw.get("checks", [])),
            replay_errors=tuple(raw.get("replay_errors", [])),
            timings=raw.get("timings", {}),
            isolation=raw.get("isolation", "bwrap"),
            evidence_files=dict(raw.get("evidence_files", {})),
            run=read_block(raw.get("run")),
        )


def phase_log(name: str, outcome: Any) -> str:
    """One phase's section of ``agent.log``: status, stdout, stderr, and the error if any."""
    status = "timed out" if outcome.timed_out else f"exit {outcome.exit_code}"
    text = f"=== phase {name} ({status}, {outcome.wall_s:.2f}s) ===\n"
    text += f"--- stdout ---\n{outcome.stdout}\n--- stderr ---\n{outcome.stderr}\n"
    if outcome.limit:
        text += f"--- sandbox ---\n{outcome.limit}\n"
    return text + (f"--- error ---\n{outcome.error}\n" if outcome.error else "")
