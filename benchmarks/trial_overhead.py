"""Harness overhead of one trial: isolation, git snapshots, stamping, checks, result files.

Run: ``.venv/bin/python benchmarks/trial_overhead.py [TRIALS]`` (default 60).

The task is trivial on purpose — two files, a one-file solution applied by the
``oracle`` agent, one stamped file, two static checks — so the figure is the
harness's own cost per trial. It prints the median and p95 of ``run_trial``
(in-process, no result files) and of a trial plus its atomic result files, and
the median of each timed step. Nothing is asserted: timing belongs here.
"""

from __future__ import annotations

import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchwright.agents import OracleAgent
from benchwright.dsl import task_from_dict
from benchwright.execution import TrialOptions, run_trial
from benchwright.execution.store import write_trial

TARGET_MS = 150.0


def _task(root: Path):
    solution = root / "solution"
    solution.mkdir()
    (solution / "app.py").write_text("VALUE = 2\n")
    doc = {
        "id": "trivial",
        "class": "edit",
        "prompt": "Set VALUE to 2.",
        "workspace": {"app.py": "VALUE = 1\n", "README.md": "trivial\n"},
        "stamp": {"tests/oracle.txt": "hidden\n"},
        "solution": "solution",
        "checks": [
            {"type": "assertion_exists", "path": "app.py", "pattern": "^VALUE = 2$"},
            {"type": "file_not_modified", "path": "README.md"},
        ],
    }
    return task_from_dict(doc, root / "task.json")


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[max(0, round(0.95 * len(ordered)) - 1)]
    return f"median {statistics.median(ordered) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms"


def main(trials: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        task = _task(root)
        options = TrialOptions()
        mac_key = secrets.token_bytes(32)  # a run's MAC key; where it is kept is not timed here
        bare, persisted, steps = [], [], {}
        for n in range(1, trials + 1):
            started = time.perf_counter()
            result = run_trial(task, "correctness", OracleAgent(), n, options)
            bare.append(time.perf_counter() - started)
            write_trial(root / "run", result, mac_key)
            persisted.append(time.perf_counter() - started)
            assert result.verdict == "passed", result.error or result.checks
            for key, value in result.timings.items():
                steps.setdefault(key, []).append(value)
    print(f"trials: {trials} (oracle agent, trivial task)")
    print(f"run_trial:                {_ms(bare)}")
    print(f"run_trial + result files: {_ms(persisted)}  (target <= {TARGET_MS:.0f} ms)")
    for key, values in steps.items():
        print(f"  {key:11} median {statistics.median(values) * 1000:.1f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 60)
