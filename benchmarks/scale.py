"""How runs scale with workers: trivial trials and vspro gradings, locally and on Ray.

Run: ``.venv/bin/python benchmarks/scale.py [--gradings N] [--only trials|vspro]
[--no-ray]`` (about 12 min on 2 cores with the defaults).

Trivial trials are ``benchwright run suites/turnbench --agent oracle`` (each trial a
workspace, a stamped oracle and a check command: mostly process start-up). vspro
gradings are ``benchwright grade suites/vspro --many`` over N copies of the golden
tree (each an app, a vendor mock and a Chromium; most of it waiting on the vendor's
mandatory holds). Each runs with ``--workers`` 1, 2 and 4 on the local pool, then on a
two-node Ray cluster started here (``ray start`` head and worker, one CPU and one
``browser`` each, so 2 workers; its start-up is not timed, the driver's connection is).

Printed per setting: wall time, jobs per minute, speed-up over one local worker and
efficiency (speed-up / workers). Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from execution.raycluster import cluster_env, two_node_cluster  # noqa: E402

BIN = Path(sys.executable).with_name("benchwright")
TURNBENCH = REPO / "suites" / "turnbench"
VSPRO = REPO / "suites" / "vspro"
LOCAL_WORKERS = (1, 2, 4)
RAY_WORKERS = 2
"""The two-node cluster's CPUs: what Ray's speed-up is divided by."""

Setting = tuple[str, int, list[str]]
"""(label, workers, the executor's command-line options)."""
Bench = Callable[[list[str], Path, dict[str, str] | None], int]
"""Runs one setting in a scratch directory; returns the number of jobs done."""


def run_trials(how: list[str], scratch: Path, env: dict[str, str] | None) -> int:
    out = scratch / "runs"
    _cli(["run", str(TURNBENCH), "--agent", "oracle", "--out", str(out), *how], env)
    return len(list(out.glob("*/trials/*/*/result.json")))


def grade_copies(count: int) -> Bench:
    def grade(how: list[str], scratch: Path, env: dict[str, str] | None) -> int:
        trees = []
        for n in range(count):
            trees.append(scratch / f"golden-{n}")
            shutil.copytree(VSPRO / "reference", trees[-1])
        cards = scratch / "cards"
        _cli(["grade", str(VSPRO), "--many", *map(str, trees), "--json-dir", str(cards), *how],
             env)  # fmt: skip
        return len(list(cards.glob("*.json")))

    return grade


def _cli(args: list[str], env: dict[str, str] | None) -> None:
    done = subprocess.run([str(BIN), *args], capture_output=True, text=True, env=env, cwd=REPO)
    if done.returncode != 0:
        print(f"  exit {done.returncode}: {done.stderr.strip()[-300:]}")


def measure(
    name: str, bench: Bench, settings: list[Setting], env: dict[str, str] | None,
    base: float | None = None,
) -> float:  # fmt: skip
    """Print one table; returns the first setting's rate (or ``base``): the one
    speed-ups are over."""
    print(f"\n{name}")
    print(f"  {'setting':<22} {'jobs':>5} {'wall s':>8} {'jobs/min':>9} {'speed-up':>9} "
          f"{'efficiency':>10}")  # fmt: skip
    for label, workers, how in settings:
        with tempfile.TemporaryDirectory(prefix="bw-scale-") as scratch:
            started = time.perf_counter()
            jobs = bench(how, Path(scratch), env)
            wall = time.perf_counter() - started
        rate = jobs / wall * 60
        base = base or rate
        speedup = rate / base
        print(f"  {label:<22} {jobs:>5} {wall:>8.1f} {rate:>9.1f} {speedup:>8.2f}x "
              f"{speedup / workers:>10.2f}", flush=True)  # fmt: skip
    assert base is not None
    return base


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gradings", type=int, default=4, help="vspro gradings per setting")
    parser.add_argument("--only", choices=("trials", "vspro"), help="one of the two benches")
    parser.add_argument("--no-ray", action="store_true", help="local settings only")
    args = parser.parse_args()
    benches = [("trivial trials: turnbench --agent oracle", run_trials, "trials"),
               (f"vspro gradings: grade --many, {args.gradings} golden trees",
                grade_copies(args.gradings), "vspro")]  # fmt: skip
    benches = [b for b in benches if args.only in (None, b[2])]
    local = [(f"local --workers {n}", n, ["--workers", str(n)]) for n in LOCAL_WORKERS]
    bases = [measure(name, bench, local, None) for name, bench, _ in benches]
    if args.no_ray:
        return
    env = cluster_env()
    with two_node_cluster(env, worker_browsers=1) as address:
        ray = [("ray, 2 nodes x 1 CPU", RAY_WORKERS, ["--executor", "ray", "--ray-address",
                address])]  # fmt: skip
        for (name, bench, _), base in zip(benches, bases, strict=True):
            measure(f"{name} (speed-up over local --workers 1)", bench, ray, env, base)


if __name__ == "__main__":
    main()
