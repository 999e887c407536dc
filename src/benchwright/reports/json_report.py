"""The versioned JSON report of a run or gate (schema documented in docs/report-json.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchwright import __version__
from benchwright.model import GateResult, RunResult

SCHEMA_VERSION = "1"


def run_dict(run: RunResult) -> dict[str, Any]:
    return {
        "task_id": run.task_id,
        "passed": run.passed,
        "trajectory": run.trajectory,
        "duration_s": round(run.duration_s, 6),
        "workspace": run.workspace,
        "replay_errors": [
            {"step": e.step_index, "tool": e.tool, "path": e.path, "reason": e.reason}
            for e in run.replay_errors
        ],
        "results": [r.to_dict() for r in run.results],
    }


def gate_dict(gate: GateResult) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "tool": {"name": "benchwright", "version": __version__},
        "passed": gate.passed,
        "complete": gate.complete,
        "error": gate.error,
        "isolation": gate.isolation,
        "summary": {
            "tasks": len(gate.runs),
            "passed": gate.passed_count,
            "failed": len(gate.runs) - gate.passed_count,
        },
        "duration_s": round(gate.duration_s, 6),
        "runs": [run_dict(run) for run in gate.runs],
    }


def write_json(gate: GateResult, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(gate_dict(gate), indent=2, default=str) + "\n", encoding="utf-8")
