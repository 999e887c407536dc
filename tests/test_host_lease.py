"""The host lease (tests/host_lease.py): real ``flock`` locks between real holders (two
leases in one process hold two open files, which ``flock`` treats as two holders), then a
real ``pytest -n 2`` run in which timed work has the host to itself."""

from __future__ import annotations

import contextlib
import fcntl
import threading
from collections.abc import Callable, Generator
from pathlib import Path
from time import monotonic, sleep
from types import SimpleNamespace

from host_lease import _LEASE_KEY, HostLease, pytest_runtest_protocol

WAIT_S = 20.0
"""Bound on waiting for a holder to block or finish: far above what it takes."""


def _until(condition: Callable[[], bool]) -> None:
    deadline = monotonic() + WAIT_S
    while not condition():
        assert monotonic() < deadline, "the lease holder never got there"
        sleep(0.01)


def _free(path: Path, how: int) -> bool:
    """Whether a new holder could take ``path`` ``how`` now (and lets go at once)."""
    with path.open("a") as probe:
        try:
            fcntl.flock(probe, how | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(probe, fcntl.LOCK_UN)
        return True


def _waiting_on(path: Path) -> bool:
    """Whether some holder is blocked on ``path``'s lock now (the kernel's blocked
    requests in ``/proc/locks``, ``->`` lines ending with the file's inode)."""
    inode = f":{path.stat().st_ino} "
    return any("->" in line and inode in line + " " for line in Path("/proc/locks").open())


def _start(target: Callable[[], None]) -> threading.Thread:
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread


def _joined(*threads: threading.Thread) -> None:
    for thread in threads:
        thread.join(WAIT_S)
        assert not thread.is_alive(), "a lease holder is still waiting"


def test_the_host_alone_waits_for_shared_holders_and_new_ones_wait_for_it(tmp_path):
    first, exclusive, late = (HostLease(tmp_path) for _ in range(3))
    events: list[str] = []
    first.share()

    def alone() -> None:
        with exclusive.alone():
            events.append("alone")

    waiting = _start(alone)
    _until(lambda: _waiting_on(tmp_path / "host"))  # the exclusive one waits at the host
    sharer = _start(lambda: (late.share(), events.append("late shared")))
    _until(lambda: _waiting_on(tmp_path / "want"))  # the later one waits behind it
    assert events == []  # neither while the first holds its share
    first.release()
    _joined(waiting, sharer)
    assert events == ["alone", "late shared"]  # the later reader waited for the writer


def test_a_shared_holder_gets_the_host_alone_then_its_share_back(tmp_path):
    mine, other = HostLease(tmp_path), HostLease(tmp_path)
    mine.share()
    other.share()
    inside: list[bool] = []

    def nested() -> None:
        with mine.alone(), mine.alone():  # a fixture's block inside a test's: held once
            inside.append(not _free(tmp_path / "host", fcntl.LOCK_SH))

    waiting = _start(nested)
    _until(lambda: _waiting_on(tmp_path / "host"))
    assert inside == []  # the other still holds its share
    other.release()
    _joined(waiting)
    assert inside == [True]
    assert _free(tmp_path / "host", fcntl.LOCK_SH)  # shared again, as before the block
    assert not _free(tmp_path / "host", fcntl.LOCK_EX)
    mine.release()
    assert _free(tmp_path / "host", fcntl.LOCK_EX)


def test_two_shared_holders_that_both_want_the_host_alone_take_turns(tmp_path):
    one, two = HostLease(tmp_path), HostLease(tmp_path)
    one.share()
    two.share()
    turns: list[str] = []

    def alone(lease: HostLease, name: str) -> None:  # a fixture's block in a shared test
        with lease.alone():
            turns.append(f"{name} in")
            sleep(0.05)
            turns.append(f"{name} out")
        lease.release()  # the test ends

    _joined(_start(lambda: alone(one, "one")), _start(lambda: alone(two, "two")))
    assert sorted(turns[::2]) == ["one in", "two in"]
    assert [turn.split()[0] for turn in turns[::2]] == [turn.split()[0] for turn in turns[1::2]]


def test_leaving_the_host_lets_one_that_waits_in_before_sharing_again(tmp_path):
    """``flock`` serves no queue: the holder leaving its exclusive block (a fixture's, in
    a test that goes on) must not take the host shared again ahead of one waiting."""
    mine, other = HostLease(tmp_path), HostLease(tmp_path)
    events: list[str] = []

    def alone() -> None:
        with other.alone():
            events.append("other alone")

    mine.share()
    with mine.alone():
        waiting = _start(alone)
        _until(lambda: _waiting_on(tmp_path / "host"))
    events.append("mine shared again")  # alone() returned: shared again
    _joined(waiting)
    assert events == ["other alone", "mine shared again"]


CONFTEST = """
import os
import time
from pathlib import Path

import pytest
from host_lease import host_to_itself

pytest_plugins = ["worker_groups", "host_lease"]


def record(event):
    with Path(os.environ["EVENTS"]).open("a") as log:
        log.write(event + "\\n")


@pytest.fixture
def traced(request):
    record("+" + request.node.name)
    yield
    record("-" + request.node.name)


@pytest.fixture(scope="session")
def timed_golden(request):
    with host_to_itself(request.config):
        record("+golden")
        time.sleep(1.0)
        record("-golden")
    return "graded"
"""
TIMED = """
import time
import pytest

@pytest.mark.alone
def test_timed(traced):
    time.sleep(1.0)

def test_reads_the_golden(timed_golden, traced):
    assert timed_golden == "graded"
"""
SHARED = """
import time

def test_{name}_one(traced):
    time.sleep(0.2)

def test_{name}_two(traced):
    time.sleep(0.2)

def test_{name}_three(traced):
    time.sleep(0.2)
"""


def test_under_workers_timed_work_runs_with_nothing_beside_it(pytester, monkeypatch, tmp_path):
    """A test marked ``alone`` and a fixture's ``host_to_itself`` block see no other
    test start or end while they run; the shared tests around them all ran."""
    pytester.makeconftest(CONFTEST)
    pytester.makeini("[pytest]\nmarkers =\n    alone: alone\n")
    pytester.makepyfile(test_timed=TIMED)
    for name in ("a", "b", "c"):
        pytester.makepyfile(**{f"test_shared_{name}": SHARED.format(name=name)})
    events = tmp_path / "events"
    monkeypatch.setenv("EVENTS", str(events))
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent))
    done = pytester.runpytest_subprocess("-n", "2", "-p", "no:cacheprovider")
    done.assert_outcomes(passed=11)
    log = events.read_text().split()
    for timed in ("test_timed", "golden"):
        start, end = log.index(f"+{timed}"), log.index(f"-{timed}")
        assert end == start + 1, log  # nothing started or ended inside
        opened = {e[1:] for e in log[:start] if e[0] == "+"} - {
            e[1:] for e in log[:start] if e[0] == "-"
        }
        assert opened <= {"test_reads_the_golden"}, log  # nothing else running at its start
    assert len(log) == 2 * 12  # 11 tests and the golden
    assert any(line.startswith("host lease: tests waited") for line in done.outlines)
    header = next(n for n, line in enumerate(done.outlines) if "held it alone" in line)
    held = {}
    for line in done.outlines[header + 1 :]:
        if not line.startswith("  "):
            break
        seconds, nodeid = line.split()
        held[nodeid.rsplit("::", 1)[-1]] = float(seconds.removesuffix("s"))
    assert held.keys() == {"test_timed", "test_reads_the_golden"}, done.outlines
    assert min(held.values()) >= 1.0  # each slept a second alone (the golden in its fixture)


def _protocol(lease: HostLease, alone: bool, next_alone: bool | None) -> Generator[None]:
    """The lease's ``pytest_runtest_protocol`` wrapper for a test (``alone`` or not) whose
    worker runs ``next_alone`` after it (None: nothing), entered up to the test's run."""

    config = SimpleNamespace(stash={_LEASE_KEY: lease})

    def item(marked: bool) -> SimpleNamespace:
        return SimpleNamespace(config=config, get_closest_marker=lambda _: marked or None)

    following = None if next_alone is None else item(next_alone)
    wrapper = pytest_runtest_protocol(item(alone), following)  # type: ignore[arg-type]
    next(wrapper)
    return wrapper


def _finish(wrapper: Generator[None]) -> None:
    with contextlib.suppress(StopIteration):
        wrapper.send(None)


def test_tests_that_need_the_host_in_a_row_keep_it_between_them(tmp_path):
    """An ``alone`` test followed on its worker by another hands the host on: a worker
    waiting to share gets in after the second, not between the two (where it would start
    a test the second then waits for); the last of a run lets it go."""
    mine, other = HostLease(tmp_path), HostLease(tmp_path)
    events: list[str] = []

    def share() -> None:
        other.share()
        events.append("other shared")
        other.release()

    first = _protocol(mine, alone=True, next_alone=True)
    waiting = _start(share)
    _until(lambda: _waiting_on(tmp_path / "want"))
    _finish(first)
    assert not _free(tmp_path / "host", fcntl.LOCK_SH)  # still mine
    second = _protocol(mine, alone=True, next_alone=False)
    assert mine.take_times()[0] < 1.0  # it did not wait for the host again
    events.append("second ran")
    _finish(second)
    _joined(waiting)
    assert events == ["second ran", "other shared"]
    mine.close()
    other.close()
