"""Replay a recorded ``pytest -n N`` run under the host lease's rules, with other choices.

Run: ``.venv/bin/python benchmarks/lease_replay.py TIMELINE [--workers N] [--share TEXT]...
[--no-precedence]``, TIMELINE the ``pytest-timeline.jsonl`` of ``pytest -n N --timeline``
(tests/run_timeline.py).

Each test is replayed with the time its phases took in the recording, split as the lease
recorded it: held alone throughout (a test marked ``alone``), alone for a first part (a
fixture's ``host_to_itself`` block, then the rest shared), or shared. Groups (whole, on one
worker) are handed out in the order the recording started them; a worker that wants the
host alone waits until no other holds it, and -- with precedence, as the lease has it --
no worker takes it shared meanwhile. ``--share`` replays the tests whose id contains the
text shared throughout (what would making them share the host buy?). It prints the
recorded and replayed wall time, the exclusive time and the workers' waits. What it leaves
out: CPU (a test replays in its recorded time whatever runs beside it) -- a figure to
compare choices with, not a prediction.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ALONE, SHARED = "alone", "shared"


@dataclass
class Test:
    id: str
    group: str
    first_start: float
    parts: list[tuple[str, float]] = field(default_factory=list)


def load(path: Path, shared: list[str]) -> tuple[list[list[Test]], float, int]:
    """The recording's groups in their starting order, its wall time and worker count."""
    spans: dict[str, list[dict]] = defaultdict(list)
    for number, line in enumerate(path.read_text().splitlines(), 1):
        try:
            report = json.loads(line)
            spans[report["id"]].append(report)
        except (ValueError, KeyError, TypeError) as exc:
            raise SystemExit(f"{path}: line {number}: not a timeline report ({exc!r})") from None
    if not spans:
        raise SystemExit(f"{path}: no reports")
    tests: list[Test] = []
    for nodeid, reports in spans.items():
        props: dict = {}
        for report in reports:
            props.update(report["props"])
        held = props.get("host_lease_alone_s", 0)
        took = _worked(sum(r["stop"] - r["start"] for r in reports), props)
        alone = 0.0 if any(text in nodeid for text in shared) else held
        test = Test(nodeid, props.get("worker_group", nodeid), min(r["start"] for r in reports))
        if alone >= took - 0.5 and alone > 0:
            test.parts = [(ALONE, took)]
        elif alone > 0.5:
            test.parts = [(ALONE, alone), (SHARED, took - alone)]
        else:
            test.parts = [(SHARED, took)]
        tests.append(test)
    groups: dict[str, list[Test]] = defaultdict(list)
    for test in sorted(tests, key=lambda t: t.first_start):
        groups[test.group].append(test)
    starts = [r["start"] for rs in spans.values() for r in rs]
    stops = [r["stop"] for rs in spans.values() for r in rs]
    workers = {r["worker"] for rs in spans.values() for r in rs}
    return list(groups.values()), max(stops) - min(starts), len(workers)


def _worked(took: float, props: dict) -> float:
    """A test's own time: its phases' ``took`` less a wait for the lease inside them. A
    test waits for the lease before its setup (the recording's phases leave that out), but
    a fixture's `host_to_itself` block waits inside the setup: replayed as work, that wait
    (sb-7's golden waiting 75 s for vspro's) inflated the replay by minutes. The wait was
    inside when the phases hold it beside the exclusive hold it led to."""
    waited, held = props.get("host_lease_wait_s", 0), props.get("host_lease_alone_s", 0)
    return took - waited if held > 0 and took - waited >= held - 0.5 else took


@dataclass
class Worker:
    parts: list[tuple[str, float]] = field(default_factory=list)
    want: str | None = None
    left: float = 0.0
    holds: str | None = None
    waited: float = 0.0


def replay(groups: list[list[Test]], workers: int, precedence: bool) -> tuple[float, float, float]:
    """(wall, exclusive time, worker-seconds waiting) of the replay."""
    queue = list(groups)
    crew = [Worker() for _ in range(workers)]
    now = exclusive = 0.0

    def next_part(worker: Worker) -> None:
        worker.holds = None
        while not worker.parts:
            if not queue:
                worker.want = None
                return
            worker.parts = [part for test in queue.pop(0) for part in test.parts]
        worker.want, worker.left = worker.parts.pop(0)

    for worker in crew:
        next_part(worker)
    while any(w.want for w in crew):
        for worker in crew:  # grants, in worker order
            if worker.want is None or worker.holds:
                continue
            others = [o for o in crew if o is not worker]
            if worker.want == ALONE:
                if all(o.holds is None for o in others):
                    worker.holds = ALONE
            elif not any(o.holds == ALONE for o in others) and not (
                precedence and any(o.want == ALONE and o.holds is None for o in others)
            ):
                worker.holds = SHARED
        running = [w for w in crew if w.holds]
        step = min(w.left for w in running)
        for worker in crew:
            if worker.holds:
                worker.left -= step
            elif worker.want:
                worker.waited += step
        if any(w.holds == ALONE for w in crew):
            exclusive += step
        now += step
        for worker in running:
            if worker.left <= 1e-9:
                next_part(worker)
    return now, exclusive, sum(w.waited for w in crew)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("timeline", type=Path)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--share", action="append", default=[], metavar="TEXT")
    parser.add_argument("--no-precedence", action="store_true")
    args = parser.parse_args()
    if args.workers is not None and args.workers < 1:
        parser.error(f"--workers must be >= 1, got {args.workers}")
    groups, recorded, used = load(args.timeline, args.share)
    workers = args.workers or used
    wall, exclusive, waited = replay(groups, workers, not args.no_precedence)
    tests = sum(len(g) for g in groups)
    print(f"recorded: {tests} tests in {len(groups)} groups on {used} workers, {recorded:.0f} s")
    print(f"replayed on {workers} workers: {wall:.0f} s; alone {exclusive:.0f} s; "
          f"workers waited {waited:.0f} s")  # fmt: skip


if __name__ == "__main__":
    main()
