"""Where a one-task suite's time goes: ``benchwright run`` as a user types it, sandboxed.

Run: ``.venv/bin/python benchmarks/trial_overhead.py [RUNS]`` (default 5; needs bwrap).

Each run is a fresh ``benchwright run`` process on a one-task suite: a ``command:``
agent writes one file, then three ``test_must_pass`` checks run trivial commands in
the sandbox — ``true`` (a shell line), ``python -c pass`` (the grader's interpreter)
and ``pytest -q`` on one test (the pytest harness). The first run starts with an
empty harness cache (``BENCHWRIGHT_CACHE_DIR``), the one-off cost of a new install;
the others find it filled, as every run after the first does.

It prints each run's wall time; the trial's steps (``result.json`` timings, median
over the warm runs); per check, the time the terminal table shows (``duration_s``),
the command's own (``command_s``), the harness's around it (``harness_s``) and
the **added cost** (table time minus command time, the figure issue #26 holds to
<= 0.3 s); then, from one more run under cProfile, the CLI's own stages. Nothing
is asserted: timing belongs here.

Figures on the shared 2-core development host, 5 runs each, back to back (load
average 7-10 from other work, so every figure is inflated; the ratios are the point):

=====================================  ===================  =====================
                                       before (ebb8394)     after
=====================================  ===================  =====================
``benchwright run`` wall               3.0-6.1 s            1.3-2.1 s
first check, added cost, every run     0.80-2.54 s          0.09-0.13 s
first check, added cost, new install   (same)               0.83 s, once
later checks, added cost               0.01-0.11 s          0.02-0.08 s
=====================================  ===================  =====================

At load average ~2 (earlier the same day): first check added 0.66-0.95 s before,
0.08-0.12 s after (0.06 s in-process on a warm cache: 0.04 s of it is the one-off
overlay probe); one run's wall 1.8-3.3 s before, 1.6-1.9 s after.

Before, the first check of every process ran a whole pytest session unconfined to
fill a fresh bytecode cache (every module pytest imports compiled from source: CPU
bound, so 5-6 s on a loaded host), and a one-trial run started a process pool whose
worker imported benchwright and loaded the suite again. Now the cache is kept per
install (`checks/test_must_pass/_pycache.py`) and one trial runs in the process.
"""

from __future__ import annotations

import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchwright.sandbox import unavailable_reason

TARGET_S = 0.3
SUITE = """\
suite: overhead
budget: 60
classes:
  edit: a trivial edit
default_class: edit
build_only_classes: []
tasks: [tasks/*.yaml]
"""
TASK = """\
id: trivial
prompt: Set VALUE to 2.
workspace:
  app.py: "VALUE = 1\\n"
  tests/test_app.py: "from app import VALUE\\n\\n\\ndef test_value():\\n    assert VALUE == 2\\n"
checks:
  - {id: shell, type: test_must_pass, command: "true"}
  - {id: python, type: test_must_pass, command: "python -c pass"}
  - {id: pytest, type: test_must_pass, command: "pytest -q"}
"""
AGENT = "command:sh -c 'echo VALUE = 2 > app.py'"
STAGES = (
    ("plan the run (suite, run dir, key)", "execution/suite_run.py", "plan_run"),
    ("execute (executor, trial, results)", "execution/suite_run.py", "execute"),
    ("  the trial, in this process", "execution/trial.py", "run_trial"),
    ("  write and seal result.json", "execution/store.py", "write_trial"),
    ("print the summary", "execution/run_display.py", "print_summary"),
    ("  checks: view of the workspace", "test_must_pass/_workdir.py", "workdir"),
    ("  checks: interpreter cache", "test_must_pass/_pycache.py", "harness_pycache"),
    ("  checks: sandbox uid lease", "sandbox/_uids.py", "lease_uid"),
    ("  checks: sandbox uid release", "sandbox/_uids.py", "release"),
    ("  checks: hand files to the uid", "sandbox/_bwrap.py", "prepare"),
    ("  checks: run the command", "probes/process.py", "run_command"),
)


def _suite(root: Path) -> Path:
    (root / "suite" / "tasks").mkdir(parents=True)
    (root / "suite" / "suite.yaml").write_text(SUITE)
    (root / "suite" / "tasks" / "trivial.yaml").write_text(TASK)
    return root / "suite"


def _run(suite: Path, out: Path, env: dict[str, str], profile: Path | None = None) -> float:
    """Wall seconds of one ``benchwright run`` process (under cProfile when ``profile``)."""
    argv = [sys.executable]
    argv += ["-m", "cProfile", "-o", str(profile)] if profile else []
    argv += ["-m", "benchwright", "run", str(suite), "--agent", AGENT, "--out", str(out)]
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"benchwright run exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return wall


def _result(out: Path) -> dict:
    (run_dir,) = out.iterdir()
    return json.loads((run_dir / "trials" / "trivial" / "1" / "result.json").read_text())


def _checks(result: dict) -> dict[str, tuple[float, float, float]]:
    """Per check: table time, command time, harness time (0 where not recorded)."""
    return {
        c["check_id"]: (
            c["duration_s"],
            c["evidence"]["command_s"],
            c["evidence"].get("harness_s", 0.0),
        )
        for c in result["checks"]
    }


def _stages(profile: Path, wall: float) -> list[tuple[str, float]]:
    stats = pstats.Stats(str(profile)).stats  # type: ignore[attr-defined]
    found: dict[str, float] = {}
    main = 0.0
    for (filename, _line, name), (_cc, _nc, _tt, cumulative, _callers) in stats.items():
        if filename.endswith("benchwright/cli/__init__.py") and name == "main":
            main = cumulative
        for label, suffix, function in STAGES:
            if filename.endswith(suffix) and name == function:
                found[label] = found.get(label, 0.0) + cumulative
    rows = [("interpreter start-up and imports", wall - main)]
    return rows + [(label, found.get(label, 0.0)) for label, _s, _f in STAGES]


def main(runs: int) -> None:
    if reason := unavailable_reason():
        sys.exit(f"sandbox unavailable: {reason}")
    with tempfile.TemporaryDirectory(prefix="bw-bench-") as tmp:
        root = Path(tmp)
        suite = _suite(root)
        env = {**os.environ, "BENCHWRIGHT_STATE_DIR": str(root / "state")}
        env["BENCHWRIGHT_CACHE_DIR"] = str(root / "cache")
        walls, results = [], []
        for n in range(runs):
            out = root / f"runs-{n}"
            walls.append(_run(suite, out, env))
            results.append(_result(out))
        profiled = root / "runs-profiled"
        profile_wall = _run(suite, profiled, env, root / "run.prof")
        stages = _stages(root / "run.prof", profile_wall)
    print(f"{runs} runs of `benchwright run` (one task, three trivial check commands, bwrap)")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("wall per run: " + ", ".join(f"{w:.2f} s" for w in walls) + " (first: empty cache)")
    warm = results[1:] or results
    print("trial steps (median of the warm runs):")
    for step in warm[0]["timings"]:
        value = statistics.median(r["timings"][step] for r in warm)
        print(f"  {step:11} {value:7.3f} s")
    print(f"per check: table time = command + harness; added cost target <= {TARGET_S} s")
    heads = ("table s", "command s", "harness s", "added s")
    print(f"  {'run':5} {'check':7} " + " ".join(f"{h:>9}" for h in heads))
    for n, result in enumerate(results, start=1):
        for check, (table, command, harness) in _checks(result).items():
            added = table - command
            print(f"  {n:<5} {check:7} {table:9.3f} {command:9.3f} {harness:9.3f} {added:9.3f}")
    print(f"one run under cProfile ({profile_wall:.2f} s wall; cumulative, inflated by it):")
    for label, seconds in stages:
        print(f"  {label:38} {seconds:7.3f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
