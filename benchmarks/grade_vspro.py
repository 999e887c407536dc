"""How long one full grading of the golden vspro app takes, against the floor it cannot beat.

Run: ``.venv/bin/python benchmarks/grade_vspro.py [--runs N]`` (default 5).

Each run is a whole ``benchwright grade suites/vspro --tree suites/vspro/reference``
process (interpreter start included). The floor is read from that run's vendor trace:
the waits the vendor imposes on a perfect client, which no grader can shorten —

- every 429's ``Retry-After`` (delta-seconds as sent; HTTP-date minus the moment of
  the 429, so its one-second resolution is counted as the vendor rounded it);
- every stall hold, as long as the vendor actually held the request
  (``stall_held_secs``: up to the client's 10 s timeout, at most the 12 s hold).

Overlapping waits count once (the union of the intervals). Printed per run: wall time,
floor, ratio, score and the three slowest phases; then the mean and the standard
deviation (sd) of the wall time and of the score over the runs. Figures are printed;
nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from email.utils import parsedate_to_datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).with_name("benchwright")
SUITE = REPO / "suites" / "vspro"
GOLDEN = SUITE / "reference"


def vendor_waits(trace: Path) -> list[tuple[float, float, str]]:
    """(start, end, kind) of every mandatory wait in a vendor trace."""
    waits = []
    for raw in trace.read_text(encoding="utf-8").splitlines():
        line = json.loads(raw)
        t = line.get("t")
        if line.get("status") == 429 and line.get("retry_after"):
            if line.get("form") == "seconds":
                wait = float(line["retry_after"])
            else:
                wait = parsedate_to_datetime(line["retry_after"]).timestamp() - t
            waits.append((t, t + max(wait, 0.0), f"429 {line.get('form', '?')}"))
        if line.get("stall_began_t") is not None:
            held = line.get("stall_held_secs") or line.get("stall_secs") or 0.0
            waits.append((line["stall_began_t"], line["stall_began_t"] + held, "stall hold"))
    return waits


def union_seconds(intervals: list[tuple[float, float, str]]) -> float:
    total, end = 0.0, float("-inf")
    for start, stop, _ in sorted(intervals):
        if stop > end:
            total += stop - max(start, end)
            end = stop
    return total


def grade_once(out: Path) -> tuple[float, dict, list[tuple[float, float, str]]]:
    args = [str(BIN), "grade", str(SUITE), "--tree", str(GOLDEN), "--json", str(out)]
    started = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, cwd=REPO)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"grade exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    doc = json.loads(out.read_text(encoding="utf-8"))
    return wall, doc, vendor_waits(out.with_name(f"{out.stem}.vendor-trace.jsonl"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="gradings to time (default 5)")
    runs = max(parser.parse_args().runs, 1)
    walls, floors, scores = [], [], []
    with tempfile.TemporaryDirectory(prefix="benchwright-bench-") as tmp:
        for n in range(runs):
            wall, doc, waits = grade_once(Path(tmp) / f"run{n}.json")
            floor = union_seconds(waits)
            walls.append(wall)
            floors.append(floor)
            scores.append(doc["score"])
            kinds: dict[str, float] = {}
            for start, stop, kind in waits:
                kinds[kind] = kinds.get(kind, 0.0) + stop - start
            phases = sorted(doc["grading"]["phases"], key=lambda p: -p["seconds"])[:3]
            print(
                f"run {n + 1}/{runs}: wall {wall:6.2f} s  floor {floor:6.2f} s  "
                f"ratio {wall / floor:5.2f}  score {doc['score']:.4f}\n"
                f"    waits: {', '.join(f'{k} {v:.2f} s' for k, v in sorted(kinds.items()))}"
                f" ({len(waits)} waits)\n"
                f"    slowest phases: "
                + ", ".join(f"{p['name']} {p['seconds']:.2f} s" for p in phases),
                flush=True,
            )
    sd = statistics.stdev if runs > 1 else (lambda _v: 0.0)
    print(
        f"\nfull grading of the golden vspro app over {runs} run(s):\n"
        f"  wall   mean {statistics.mean(walls):6.2f} s  sd {sd(walls):.2f} s\n"
        f"  floor  mean {statistics.mean(floors):6.2f} s  (vendor's mandatory waits)\n"
        f"  ratio  wall/floor {statistics.mean(walls) / statistics.mean(floors):.2f}\n"
        f"  score  mean {statistics.mean(scores):.4f}  sd {sd(scores):.6f}  "
        f"(min {min(scores):.4f}, max {max(scores):.4f})"
    )


if __name__ == "__main__":
    main()
