"""What canary tests cost a trial: planting them, and running them in the pytest check.

Run: ``.venv/bin/python benchmarks/canary_overhead.py [ROUNDS]`` (default 10).

Planting is timed over every turnbench task with a stamp (the suite's real hidden
tests). Running is timed on one task whose stamped oracle has three tests: the same
``test_must_pass`` check over the same honest tree, its stamp written as the task
gives it (no canaries) or as a trial stamps it (two canaries), alternated round by
round so that load on the host falls on both alike. Nothing is asserted: timing
belongs here.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from benchwright.checks import BUILTIN_CHECKS, build_registry
from benchwright.checks.test_must_pass import plant_canaries
from benchwright.dsl import load_suite, task_from_dict
from benchwright.execution.evaluate import evaluate
from benchwright.execution.stamp import stamp, stamp_task
from benchwright.model import Trajectory
from benchwright.workspace import Workspace

REPO = Path(__file__).resolve().parents[1]
ORACLE = "tests/test_oracle.py"
TASK = {
    "id": "canaries",
    "prompt": "fix add",
    "workspace": {
        "calc.py": "def add(a, b):\n    return a + b\n",
        "tests/test_calc.py": (
            "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"
        ),
    },
    "stamp": {
        ORACLE: "from calc import add\n\n\ndef test_more():\n    assert add(5, 7) == 12\n\n\n"
        "def test_zero():\n    assert add(0, 3) == 3\n\n\n"
        "def test_negative():\n    assert add(-5, -7) == -12\n"
    },
    "checks": [{"type": "test_must_pass", "command": f"python -m pytest -q {ORACLE}"}],
}


def _plant_ms() -> tuple[int, float]:
    tasks = [t for t in load_suite(REPO / "suites" / "turnbench").tasks if t.stamp]
    started = time.perf_counter()
    for task in tasks:
        plant_canaries(task)
    return len(tasks), (time.perf_counter() - started) * 1000 / len(tasks)


def _check_s(task, registry, canaries: bool) -> float:
    workspace = Workspace(task.files)
    try:
        root = workspace.directory()
        planted = stamp_task(root, task, "") if canaries else {}
        if not canaries:
            stamp(root, task.stamp, "")
        started = time.perf_counter()
        (result,) = evaluate(task, workspace, Trajectory(()), registry=registry, canaries=planted)
        elapsed = time.perf_counter() - started
        assert result.status.value == "PASS", result.detail
        return elapsed
    finally:
        workspace.cleanup()


def main(rounds: int) -> None:
    count, plant_ms = _plant_ms()
    print(f"planting: {plant_ms:.2f} ms per task (mean over {count} turnbench tasks)")
    registry = build_registry(BUILTIN_CHECKS, plugins=False)
    task = task_from_dict(TASK, REPO / "canaries.json")
    _check_s(task, registry, True)  # warm the harness pycache
    without, with_ = [], []
    for _ in range(rounds):
        without.append(_check_s(task, registry, False))
        with_.append(_check_s(task, registry, True))
    a, b = statistics.median(without), statistics.median(with_)
    print(f"pytest check, no canaries:  median {a * 1000:.0f} ms over {rounds}")
    print(f"pytest check, two canaries: median {b * 1000:.0f} ms over {rounds}")
    print(f"canary overhead per check: {(b - a) * 1000:+.0f} ms ({(b / a - 1) * 100:+.1f}%)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
