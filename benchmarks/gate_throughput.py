"""How fast `benchwright gate` grades static tasks, and what `test_must_pass` costs.

Run: ``make bench`` (or ``.venv/bin/python benchmarks/gate_throughput.py``).

1. Generates 1,000 tasks with five static checks each (two regex assertions, two
   protected files, ``no_network``) and a one-edit trajectory, then times the
   whole ``benchwright gate`` process (interpreter start included).
2. Times ``benchwright --help``.
3. Times a 1-second command bare, and as a ``test_must_pass`` check, and
   prints the overhead ratio.
Figures are printed; nothing is asserted (timing belongs here, not in tests).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).with_name("benchwright")
TASKS = 1000
REPEATS = 7
SLEEP_COMMAND = "python -c 'import time; time.sleep(1)'"


def _task(n: int) -> dict:
    return {
        "id": f"task-{n:04d}",
        "name": f"Static task {n}",
        "description": "static checks only",
        "prompt": "Make add() return the sum.",
        "workspace": {
            "src/calc.py": "def add(a, b):\n    return a - b\n",
            "tests/test_calc.py": "from src.calc import add\n\n\ndef test_add():\n"
            "    assert add(1, 2) == 3\n    assert add(2, 2) == 4\n",
            "pyproject.toml": '[project]\nname = "calc"\n',
        },
        "oracles": [
            {"type": "assertion_exists", "path": "tests/test_calc.py",
             "pattern": r"assert add\(1, 2\) == 3"},
            {"type": "assertion_exists", "path": "src/calc.py", "pattern": r"return a \+ b"},
            {"type": "file_not_modified", "path": "tests/test_calc.py"},
            {"type": "file_not_modified", "path": "pyproject.toml"},
            {"type": "no_network"},
        ],
    }  # fmt: skip


TRAJECTORY = {
    "metadata": {"agent": "benchmark"},
    "steps": [
        {"type": "tool_call", "tool": "Edit",
         "args": {"file_path": "src/calc.py", "old_string": "a - b", "new_string": "a + b"}},
    ],
}  # fmt: skip


def _time(argv: list[str], cwd: Path | None = None, expect: int = 0) -> float:
    started = time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if proc.returncode != expect:
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}:\n{proc.stderr[-2000:]}")
    return elapsed


def _figures(samples: list[float]) -> str:
    return f"median {statistics.median(samples):.3f} s, best {min(samples):.3f} s"


def gate_throughput(root: Path) -> None:
    tasks = root / "tasks"
    tasks.mkdir()
    for n in range(TASKS):
        (tasks / f"task-{n:04d}.json").write_text(json.dumps(_task(n)))
    trajectory = root / "trajectory.json"
    trajectory.write_text(json.dumps(TRAJECTORY))
    argv = [str(BIN), "gate", "--tasks", str(tasks), "--trajectory", str(trajectory)]
    _time(argv)  # warm the file cache
    samples = [_time(argv) for _ in range(REPEATS)]
    best = min(samples)
    print(f"gate, {TASKS} tasks x 5 static checks: {_figures(samples)}; "
          f"{TASKS / statistics.median(samples):,.0f} tasks/s (median)")  # fmt: skip
    print(f"  per task (best): {best / TASKS * 1e6:,.0f} us, interpreter start included")


def help_latency() -> None:
    samples = [_time([str(BIN), "--help"]) for _ in range(REPEATS)]
    print(f"benchwright --help: {_figures(samples)}")


def test_must_pass_overhead(root: Path) -> None:
    from benchwright.dsl import task_from_dict, trajectory_from_dict
    from benchwright.execution import run_task

    task = task_from_dict(
        {
            "id": "sleep",
            "name": "sleep",
            "description": "",
            "prompt": "",
            "workspace": {"README.md": "x\n"},
            "oracles": [{"type": "test_must_pass", "command": SLEEP_COMMAND}],
        },
        root / "sleep.json",
    )
    trajectory = trajectory_from_dict({"steps": []}, "empty")
    bare_command = SLEEP_COMMAND.replace("python", sys.executable, 1)
    bare, checked = [], []
    for _ in range(3):
        bare.append(_time(["sh", "-c", bare_command]))
        started = time.perf_counter()
        run = run_task(task, trajectory)
        checked.append(time.perf_counter() - started)
        assert run.passed, run.results
    ratio = statistics.median(checked) / statistics.median(bare)
    print(f"1-second command bare: {_figures(bare)}")
    print(f"  as test_must_pass (workspace, replay, check, cleanup): {_figures(checked)}")
    print(f"  overhead: {100 * (ratio - 1):+.1f} % (ratio {ratio:.3f})")


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="benchwright-bench-") as tmp:
        root = Path(tmp)
        gate_throughput(root)
        help_latency()
        test_must_pass_overhead(root)


if __name__ == "__main__":
    main()
