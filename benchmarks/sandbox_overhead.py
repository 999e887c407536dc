"""What the sandbox costs a trial: the same trivial trials confined and unconfined.

Run: ``.venv/bin/python benchmarks/sandbox_overhead.py [TRIALS]`` (default 50).

The task is trivial on purpose — a `command:` agent that writes one file, one
`test_must_pass` check that runs ``true`` and one static check — so each trial
starts exactly two sandboxed processes (the agent, the check command) and the
difference between the two medians is the sandbox's own cost per trial. As root,
each of those sandboxes leases a uid of its own and gives it back (a lock, a look
through /proc for its processes, twice); that part is timed alone too. Nothing
is asserted: timing belongs here.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchwright.agents import build_agent
from benchwright.dsl import task_from_dict
from benchwright.execution import TrialOptions, run_trial
from benchwright.sandbox import UNCONFINED, Confinement, leased, unavailable_reason

TARGET_MS = 60.0


def _task(root: Path):
    doc = {
        "id": "trivial",
        "class": "edit",
        "prompt": "Set VALUE to 2.",
        "workspace": {"app.py": "VALUE = 1\n"},
        "checks": [
            {"type": "test_must_pass", "command": "true"},
            {"type": "assertion_exists", "path": "app.py", "pattern": "^VALUE = 2$"},
        ],
    }
    return task_from_dict(doc, root / "task.json")


def _median_ms(task, confinement: Confinement, trials: int) -> tuple[float, dict[str, float]]:
    agent = build_agent("command:sh -c 'echo VALUE = 2 > app.py'", [task])
    options = TrialOptions(confinement=confinement)
    samples, steps = [], {}
    for n in range(1, trials + 1):
        started = time.perf_counter()
        result = run_trial(task, "correctness", agent, n, options)
        samples.append(time.perf_counter() - started)
        assert result.verdict == "passed", result.error or result.checks
        for key, value in result.timings.items():
            steps.setdefault(key, []).append(value)
    return statistics.median(samples) * 1000, {
        k: statistics.median(v) * 1000 for k, v in steps.items()
    }


def _lease_ms(times: int) -> tuple[float, float]:
    """Median and fastest lease-and-release of a sandbox's uid, ms."""
    sandbox = Confinement().sandbox([])
    assert sandbox is not None
    samples = []
    for _ in range(times):
        started = time.perf_counter()
        with leased(sandbox):
            pass
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples), min(samples)


def main(trials: int) -> None:
    if reason := unavailable_reason():
        sys.exit(f"sandbox unavailable: {reason}")
    with tempfile.TemporaryDirectory() as tmp:
        task = _task(Path(tmp))
        _median_ms(task, Confinement(), 3)  # warm caches (interpreter, page cache)
        bare, bare_steps = _median_ms(task, UNCONFINED, trials)
        boxed, boxed_steps = _median_ms(task, Confinement(), trials)
    print(f"trials: {trials} each (command agent + one check command, trivial task)")
    print(f"unconfined trial: median {bare:.1f} ms")
    print(f"sandboxed trial:  median {boxed:.1f} ms")
    print(f"sandbox overhead: {boxed - bare:.1f} ms per trial (target <= {TARGET_MS:.0f} ms)")
    for key in ("agent_s", "checks_s"):
        print(f"  {key:9} {bare_steps[key]:.1f} ms -> {boxed_steps[key]:.1f} ms")
    if os.geteuid() == 0:
        median, fastest = _lease_ms(trials * 4)
        processes = sum(name.isdigit() for name in os.listdir("/proc"))
        print(f"uid lease + release: median {median:.2f} ms, fastest {fastest:.2f} ms per sandbox")
        print(f"  ({processes} processes on the host to look through)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
