"""Peak memory and wall time of `benchwright gate` over many static tasks, by workers.

Run: ``.venv/bin/python benchmarks/gate_memory.py [TASKS ...]`` (default 1000 5000).

Generates the static tasks of ``gate_throughput.py`` (five static checks each, one
shared one-edit trajectory), runs ``benchwright gate`` once per worker count, and
prints the wall time and the driver's peak RSS (``wait4``'s ``ru_maxrss``: the gate
process alone; each pool worker is a process of its own, about the size of a bare
``benchwright`` import, whatever the number of tasks).
Figures are printed; nothing is asserted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gate_throughput import TRAJECTORY, _task

BIN = Path(sys.executable).with_name("benchwright")
WORKERS = tuple(os.environ.get("GATE_WORKERS", "1 2").split())


def _peak(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and the driver's peak RSS in MiB (``wait4`` reports this process's own)."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"{' '.join(argv)} exited {code}: {proc.stderr.read()[-2000:]!r}")
    return elapsed, usage.ru_maxrss / 1024


def measure(root: Path, count: int) -> None:
    tasks = root / f"tasks-{count}"
    tasks.mkdir()
    for n in range(count):
        (tasks / f"task-{n:05d}.json").write_text(json.dumps(_task(n)))
    trajectory = root / "trajectory.json"
    trajectory.write_text(json.dumps(TRAJECTORY))
    for workers in WORKERS:
        argv = [str(BIN), "gate", "--tasks", str(tasks), "--trajectory", str(trajectory),
                "--workers", workers]  # fmt: skip
        wall, driver = _peak(argv)
        print(f"gate {count:>5} tasks, --workers {workers}: {wall:6.2f} s, "
              f"driver peak RSS {driver:5.1f} MiB")  # fmt: skip


def main() -> None:
    counts = [int(a) for a in sys.argv[1:]] or [1000, 5000]
    with tempfile.TemporaryDirectory(prefix="benchwright-gate-mem-") as tmp:
        for count in counts:
            measure(Path(tmp), count)


if __name__ == "__main__":
    main()
