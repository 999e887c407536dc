"""The host window: CPU used outside the grader's process tree is contention; inside it
(the app, its browser, any child) never is. Real processes, real /proc."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

from benchwright.probes import host
from benchwright.probes.host import HostSample, between, measure, window

SPIN = "import time\nend = time.monotonic() + {s}\nwhile time.monotonic() < end: pass\n"
ORPHAN = (
    "import os, sys\n"
    "if os.fork(): os._exit(0)\n"  # the child is reparented away from our tree
    "os.setsid()\n"
    "open(sys.argv[1], 'w').write(str(os.getpid()))\n" + SPIN
)

pytestmark = pytest.mark.skipif(not Path("/proc/stat").is_file(), reason="needs Linux /proc")


@contextmanager
def foreign_hogs(tmp_path: Path, seconds: float = 20.0) -> Iterator[None]:
    """One CPU spinner per core that is *not* a descendant of this process."""
    pids = []
    for i in range(os.cpu_count() or 1):
        pid_file = tmp_path / f"hog{i}.pid"
        code = ORPHAN.format(s=seconds)
        subprocess.run([sys.executable, "-c", code, str(pid_file)], check=True, timeout=10)
        deadline = time.monotonic() + 5
        while not (pid_file.is_file() and pid_file.read_text()) and time.monotonic() < deadline:
            time.sleep(0.02)
        pids.append(int(pid_file.read_text()))
    time.sleep(0.3)  # let them reach the run queue
    try:
        yield
    finally:
        for pid in pids:
            with suppress(ProcessLookupError):
                os.kill(pid, 9)


def test_cpu_used_by_processes_outside_the_tree_is_contention(tmp_path: Path) -> None:
    with foreign_hogs(tmp_path), window() as seen:
        time.sleep(0.5)
    state = seen.state
    assert state is not None and state.contended, state
    assert state.foreign_share is not None and state.foreign_share > 0.5
    assert "other processes took" in state.summary and "bound 25%" in state.summary


def test_cpu_used_by_our_own_children_is_not_contention() -> None:
    """The app under test and its browser are the grader's descendants: a busy app must
    not be able to call its own slowness the host's. Every tick the children burn is in
    the tree's own count, so none of it can be foreign."""
    children = [
        subprocess.Popen([sys.executable, "-c", SPIN.format(s=0.8)])
        for _ in range(os.cpu_count() or 1)
    ]
    try:
        time.sleep(0.2)
        start, burnt_before = host.sample(), _ticks(children)
        time.sleep(0.5)
        end, burnt_after = host.sample(), _ticks(children)
    finally:
        for child in children:
            child.wait(timeout=10)
    assert start is not None and end is not None
    burnt = burnt_after - burnt_before
    assert burnt > 0
    # the two readings are microseconds apart and the counters tick at 1/100 s: a few
    # ticks of slack, never the children's whole share
    slack = 2 * len(children)
    assert end.own_ticks - start.own_ticks >= burnt - slack


def _ticks(children: list[subprocess.Popen[bytes]]) -> int:
    total = 0
    for child in children:
        raw = Path(f"/proc/{child.pid}/stat").read_text()
        total += sum(int(x) for x in raw[raw.rindex(")") + 2 :].split()[11:13])
    return total


def test_a_contended_measurement_is_taken_again_and_the_attempts_counted(
    tmp_path: Path,
) -> None:
    calls = []
    with foreign_hogs(tmp_path):
        timed = measure(lambda: calls.append(1) or len(calls), repeats=2)
    assert len(calls) == 3
    assert timed.host.attempts == 3 and timed.host.contended
    assert "least contended of 3 attempts" in timed.host.summary
    assert timed.host.as_evidence()["attempts"] == 3


def test_an_uncontended_measurement_is_taken_once() -> None:
    calls = []
    # a bound of the whole machine: no window can exceed it
    timed = measure(lambda: calls.append(1) or "value", repeats=2, bound=1.0)
    assert calls == [1] and timed.value == "value" and timed.host.attempts == 1


def test_the_share_is_foreign_ticks_over_capacity() -> None:
    cpus = os.cpu_count() or 1
    start = HostSample(10.0, busy_ticks=1000, steal_ticks=0, own_ticks=100, pressure_us=0,
                       load1=1.0)  # fmt: skip
    ticks = int(host.TICKS_PER_S * cpus)  # one second of the whole machine
    end = HostSample(11.0, busy_ticks=1000 + ticks, steal_ticks=ticks // 10,
                     own_ticks=100 + ticks // 2, pressure_us=250_000, load1=4.0)  # fmt: skip
    state = between(start, end)
    assert state.foreign_share == pytest.approx(0.5, abs=0.01)
    assert state.steal_share == pytest.approx(0.1, abs=0.01)
    assert state.pressure_share == pytest.approx(0.25)
    assert state.contended and state.load1 == 4.0
    assert "steal 10%" in state.summary and "load 4.00" in state.summary
    calm = between(start, HostSample(11.0, 1000 + ticks, 0, 100 + ticks, None, 0.2))
    assert calm.foreign_share == 0.0 and not calm.contended and calm.pressure_share is None


def test_an_unobserved_host_is_never_called_contended() -> None:
    state = between(None, None)
    assert state.foreign_share is None and not state.contended
    assert state.summary.startswith("host not observed")
    short = HostSample(1.0, 0, 0, 0, None, None)
    assert between(short, HostSample(1.01, 10_000, 0, 0, None, None)).foreign_share is None
