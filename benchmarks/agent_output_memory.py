"""Peak memory of the grader while a sandboxed agent prints a flood of output.

Run: ``.venv/bin/python benchmarks/agent_output_memory.py [MIB ...]`` (default 0 150).
``BENCHWRIGHT=/path/to/benchwright`` measures another install (an older checkout).

Writes a one-task suite to a temp dir whose ``command:`` agent (sandboxed, the default)
prints MIB mebibytes to stdout, runs ``benchwright run --workers 1`` on it (the trial runs
in the driver process), and prints the driver's peak RSS (``wait4``'s ``ru_maxrss``).
The grader keeps only the tail of each output stream, so the figure should not move
with MIB. Figures are printed; nothing is asserted.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(os.environ.get("BENCHWRIGHT", Path(sys.executable).with_name("benchwright")))
SUITE = "suite: flood\nbudget: 300\nclasses:\n  edit: an edit\ntasks:\n  - tasks/*.yaml\n"
TASK = """\
id: flood
class: edit
prompt: Print a lot.
workspace:
  app.py: "VALUE = 1\\n"
checks:
  - id: app-kept
    type: file_exists
    path: app.py
"""
AGENT = """\
import sys
chunk = (b"x" * 1023 + b"\\n") * 1024
for _ in range({mib}):
    sys.stdout.buffer.write(chunk)
"""


def measure(root: Path, mib: int) -> tuple[float, float]:
    """Wall seconds and the driver's peak RSS in MiB for an agent printing ``mib`` MiB."""
    suite = root / f"suite-{mib}"
    (suite / "tasks").mkdir(parents=True)
    (suite / "suite.yaml").write_text(SUITE)
    (suite / "tasks" / "flood.yaml").write_text(TASK)
    agent = root / f"agent-{mib}.py"
    agent.write_text(AGENT.format(mib=mib))
    argv = [str(BIN), "run", str(suite), "--agent", f"command:{sys.executable} {agent}",
            "--workers", "1", "--out", str(root / "runs")]  # fmt: skip
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    _, status, usage = os.wait4(proc.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"{' '.join(argv)} exited {code}: {proc.stderr.read()[-2000:]!r}")
    return time.perf_counter() - started, usage.ru_maxrss / 1024


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [0, 150]
    print(f"benchwright: {BIN}")
    with tempfile.TemporaryDirectory(prefix="benchwright-output-mem-") as tmp:
        for mib in sizes:
            wall, peak = measure(Path(tmp), mib)
            print(f"agent prints {mib:>4} MiB: {wall:6.2f} s, grader peak RSS {peak:6.1f} MiB")


if __name__ == "__main__":
    main()
