"""Is the golden's verdict independent of what else the machine does?

Run: ``.venv/bin/python benchmarks/grade_under_load.py [--alone N] [--together N]
[--reference]`` (defaults 5 and 5; ~6 min on 2 cores).

Grades the golden vspro app N times one after another, then N times three at a time (the
load a parallel audit or three CI jobs on one runner put on a host: three apps, three
vendor mocks, three Chromiums). Each grading is a whole ``benchwright grade`` process.
Printed per grading: exit code, score, wall time, the timing rows measured on a contended
host (and of those, the ones that turned UNAVAILABLE); then per setting the mean, the
standard deviation (sd, over the gradings that produced a score) and the range. Figures
are printed; nothing is asserted (the slow test ``test_under_load.py`` asserts the rule).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).with_name("benchwright")
SUITE = REPO / "suites" / "vspro"
GOLDEN = SUITE / "reference"
AT_ONCE = 3


@dataclass(frozen=True)
class Graded:
    code: int
    score: float | None
    wall_s: float
    contended: tuple[str, ...]
    """Timing rows whose window other processes contended."""
    unavailable: tuple[str, ...]
    """Of those, the rows that turned UNAVAILABLE (host contended)."""
    below: tuple[str, ...]
    """Rows below 1 that are not UNAVAILABLE: a lower score."""


def grade(out: Path, reference: bool) -> Graded:
    args = [str(BIN), "grade", str(SUITE), "--tree", str(GOLDEN), "--json", str(out)]
    started = time.perf_counter()
    done = subprocess.run(args + ["--reference"] * reference, capture_output=True, text=True,
                          cwd=REPO)  # fmt: skip
    wall = time.perf_counter() - started
    if not out.is_file():
        return Graded(done.returncode, None, wall, (), (), (done.stderr.strip()[-200:],))
    doc = json.loads(out.read_text(encoding="utf-8"))
    rows = doc["grading"]["results"]
    contended = tuple(r["check_id"] for r in rows
                      if (r["evidence"].get("host") or {}).get("contended"))  # fmt: skip
    unavailable = tuple(r["check_id"] for r in rows if r["status"] == "UNAVAILABLE"
                        and r["detail"].startswith("host contended"))  # fmt: skip
    below = tuple(f"{r['check_id']} {r['score']:.2f}" for r in doc["rows"]
                  if r["status"] in ("PASS", "FAIL") and r["score"] < 1)  # fmt: skip
    return Graded(done.returncode, doc["score"], wall, contended, unavailable, below)


def show(label: str, runs: list[Graded]) -> None:
    for i, g in enumerate(runs, 1):
        score = "-" if g.score is None else f"{g.score:.4f}"
        print(f"  {label} {i}: exit {g.code} score {score} wall {g.wall_s:5.1f} s; "
              f"contended timing rows {len(g.contended)}, unavailable {list(g.unavailable)}"
              + (f"; below 1: {list(g.below)}" if g.below else ""))  # fmt: skip
    scores = [g.score for g in runs if g.score is not None]
    if scores:
        sd = statistics.pstdev(scores)
        print(f"{label}: {len(scores)} scores, mean {statistics.fmean(scores):.4f}, "
              f"sd {sd:.4f}, range {min(scores):.4f}..{max(scores):.4f}; "
              f"{sum(bool(g.unavailable) for g in runs)} with a host-contended row; "
              f"mean wall {statistics.fmean(g.wall_s for g in runs):.1f} s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--alone", type=int, default=5, help="gradings one at a time")
    parser.add_argument("--together", type=int, default=5, help="gradings three at a time")
    parser.add_argument("--reference", action="store_true", help="run the freeze gate too")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bw-underload-") as tmp:
        outs = iter(Path(tmp) / f"card{i}.json" for i in range(10_000))
        alone = [grade(next(outs), args.reference) for _ in range(max(args.alone, 0))]
        show("alone", alone)
        together: list[Graded] = []
        with ThreadPoolExecutor(AT_ONCE) as pool:
            while len(together) < args.together:
                batch = [next(outs) for _ in range(AT_ONCE)]
                together += pool.map(lambda out: grade(out, args.reference), batch)
        show(f"{AT_ONCE} at a time", together)


if __name__ == "__main__":
    main()
