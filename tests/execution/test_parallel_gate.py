"""`gate` streaming its task files through the executor: the same report with a pool as
without, every invalid file reported before anything runs, a lost task never a pass."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchwright.execution.executor import LocalPool, SerialExecutor
from benchwright.execution.gate_jobs import (
    GateJob,
    GatePlan,
    batch_size,
    plan_gate,
    run_gate_jobs,
)
from benchwright.execution.isolation import IsolationRequest
from benchwright.sandbox import CONFINED

BENCHWRIGHT = Path(sys.executable).with_name("benchwright")
FIX = {
    "tool": "Edit",
    "args": {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"},
}


def _task(n: int) -> dict[str, Any]:
    """A static task; every seventh wants a product, which the shared fix does not give."""
    want = r"return a \* b" if n % 7 == 3 else r"return a \+ b"
    return {
        "id": f"task-{n:03d}", "name": f"task {n}", "description": "", "prompt": "fix add",
        "workspace": {"calc.py": "def add(a, b):\n    return a - b\n", "keep.txt": "x\n"},
        "oracles": [
            {"type": "assertion_exists", "path": "calc.py", "pattern": want},
            {"type": "file_not_modified", "path": "keep.txt"},
            {"type": "no_network"},
        ],
    }  # fmt: skip


def _gate_inputs(root: Path, count: int) -> tuple[Path, Path]:
    tasks = root / "tasks"
    tasks.mkdir(parents=True)
    for n in range(count):
        (tasks / f"task-{n:03d}.json").write_text(json.dumps(_task(n)))
    trajectory = root / "trajectory.json"
    trajectory.write_text(json.dumps({"steps": [{"type": "tool_call", **FIX}]}))
    return tasks, trajectory


def _gate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BENCHWRIGHT), "gate", *args], capture_output=True, text=True, timeout=300
    )


def _untimed(doc: Any) -> Any:
    if isinstance(doc, dict):
        return {k: _untimed(v) for k, v in doc.items() if k != "duration_s"}
    if isinstance(doc, list):
        return [_untimed(v) for v in doc]
    return doc


def test_a_gate_with_three_workers_reports_what_one_worker_reports(tmp_path):
    tasks, trajectory = _gate_inputs(tmp_path, 30)
    reports = {}
    for workers in ("1", "3"):
        report = tmp_path / f"w{workers}.json"
        done = _gate("--tasks", str(tasks), "--trajectory", str(trajectory),
                     "--workers", workers, "--json", str(report))  # fmt: skip
        assert done.returncode == 1, done.stderr
        assert "Gate summary: 26/30 tasks passed" in done.stdout
        reports[workers] = _untimed(json.loads(report.read_text()))
    assert reports["1"] == reports["3"]
    runs = reports["3"]["runs"]
    assert [run["task_id"] for run in runs] == [f"task-{n:03d}" for n in range(30)]
    assert [run["task_id"] for run in runs if not run["passed"]] == [
        "task-003", "task-010", "task-017", "task-024"
    ]  # fmt: skip


@pytest.mark.parametrize("workers", [(), ("--workers", "2")], ids=["ahead", "pool"])
def test_every_invalid_task_file_is_reported_and_nothing_runs(tmp_path, workers):
    tasks, trajectory = _gate_inputs(tmp_path, 12)
    for n, field in ((2, "oracles"), (7, "workspace"), (11, "id")):
        doc = _task(n)
        del doc[field]
        (tasks / f"task-{n:03d}.json").write_text(json.dumps(doc))
    (tasks / "task-005.json").write_text("{not json")
    done = _gate("--tasks", str(tasks), "--trajectory", str(trajectory), *workers)
    assert done.returncode == 2
    errors = done.stderr.splitlines()
    for n in (2, 5, 7, 11):
        assert any(f"task-{n:03d}.json" in line for line in errors), (n, done.stderr)
    assert any("task-002.json" in line and "oracles" in line for line in errors), done.stderr
    assert "Gate summary" not in done.stdout


def test_a_task_that_cannot_be_graded_is_an_infra_row_in_its_place(tmp_path):
    tasks, trajectory = _gate_inputs(tmp_path, 4)
    files = sorted(tasks.iterdir())
    jobs = [GateJob(f.stem, str(f), str(trajectory), confinement=CONFINED) for f in files]
    files[1].unlink()  # gone after validation
    for executor in (SerialExecutor(), LocalPool(2)):
        gate = run_gate_jobs(GatePlan(jobs, [], CONFINED), executor)
        assert [run.task_id for run in gate.runs] == [f.stem for f in files]
        lost = gate.runs[1]
        assert not lost.passed and gate.harness_failed
        assert lost.results[0].status.value == "INFRA"
        assert lost.results[0].detail.startswith("not graded: SpecError")
        assert gate.runs[0].passed and gate.runs[2].passed  # task-003 fails on its own


def test_batches_are_one_task_alone_and_bounded_in_a_pool():
    assert batch_size(5000, 1) == 1
    assert batch_size(30, 3) == 2
    assert batch_size(5000, 2) == 50
    assert batch_size(3, 4) == 1


def test_static_tasks_are_graded_ahead_and_command_tasks_wait_for_the_executor(tmp_path):
    tasks, trajectory = _gate_inputs(tmp_path, 3)
    command = {**_task(9), "id": "runs-a-command"}
    command["oracles"] = [{"type": "test_must_pass", "command": "grep -q 'a + b' calc.py"}]
    (tasks / "task-009.json").write_text(json.dumps(command))
    unconfined = IsolationRequest(no_sandbox=True)  # the command task needs no bwrap here
    plan = plan_gate(tasks, None, trajectory, unconfined, ahead=True)
    assert [job.ahead for job in plan.jobs] == [0, 1, 2, -1] and plan.pending == 1
    gate = run_gate_jobs(plan, SerialExecutor())
    assert [run.task_id for run in gate.runs] == ["task-000", "task-001", "task-002",
                                                 "runs-a-command"]  # fmt: skip
    assert all(run.passed for run in gate.runs)
    spread = plan_gate(tasks, None, trajectory, unconfined)
    assert spread.graded is None and spread.pending == 4
