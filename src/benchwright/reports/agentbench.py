"""The gate report in AgentBench v0.1.0's layout (``gate --report-format agentbench``).

AgentBench's GitHub Action and the scripts around it read ``passed``, ``tasks_passed``
and ``tasks_failed`` from this file, so a workflow switching to benchwright keeps
working unchanged. The layout has no place for statuses beyond pass/fail: a check
that is anything but PASS (FAIL, SKIPPED, INFRA...) is ``"passed": false``, with its
status in the message. A trajectory that could not be replayed faithfully fails its
task in benchwright; here it is an entry of type ``replay``, so the failure is explained.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from benchwright.model import GateResult, RunResult, Status, Task


def agentbench_dict(gate: GateResult, tasks: Iterable[Task]) -> dict[str, Any]:
    """The report: overall ``passed``, task counts, and each task's oracle results."""
    types = {task.id: {spec.id: spec.type for spec in task.checks} for task in tasks}
    failed = sum(not run.passed for run in gate.runs)
    return {
        "passed": gate.passed,
        "tasks_total": len(gate.runs),
        "tasks_passed": len(gate.runs) - failed,
        "tasks_failed": failed,
        "tasks": [_task(run, types.get(run.task_id, {})) for run in gate.runs],
    }


def write_agentbench(gate: GateResult, tasks: Iterable[Task], path: Path) -> None:
    """Write `agentbench_dict` as indented JSON, creating parent directories."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(agentbench_dict(gate, tasks), indent=2, default=str)
    path.write_text(text + "\n", encoding="utf-8")


def _task(run: RunResult, types: dict[str, str]) -> dict[str, Any]:
    oracles = [
        {"oracle_type": "replay", "passed": False, "message": str(error)}
        for error in run.replay_errors
    ]
    for result in run.results:
        status = "" if result.status in (Status.PASS, Status.FAIL) else f"{result.status.value}: "
        oracles.append(
            {
                "oracle_type": types.get(result.check_id, result.check_id),
                "passed": result.passed,
                "message": f"{status}{result.detail}",
            }
        )
    return {"task_id": run.task_id, "passed": run.passed, "oracle_results": oracles}
