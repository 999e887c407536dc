"""Workers that share the host, and timed work that gets it to itself: a host-wide lease.

A grading judges its timed rows against the host's state over the windows that measured
them (`benchwright.probes.host`): another worker's CPU is foreign load, and the rows come
back UNAVAILABLE or their scenarios are taken again; load under the contention bound
still lowers a latency's rung. Most of the suite times nothing, and most of the rest
spends its time waiting on apps, vendors and browsers; so under ``pytest -n N`` every
test holds this lease *shared* while it runs, and timed work holds it *exclusive*: it
waits for the other workers' current tests to end, and none starts until it is done.
Timed work is a test marked ``alone`` (it measures something live and asserts it: a
timed row at its top rung, a deadline of seconds, the repo's files other tests read) or
a fixture's `host_to_itself` block (a golden grading whose timed rows tests assert; the
tests that only read it share the host).

Two ``flock`` locks in a folder the controller names for the run. ``host`` is the lease
itself. ``want`` gives the exclusive holders precedence: one holds ``want`` shared from
before it waits until it is done, and a shared holder takes ``want`` exclusive for a
moment on its way in, so it waits while any exclusive one waits or works. Without it a
worker would keep an exclusive one waiting behind test after test -- and ``flock`` is
not first come, first served: a worker leaving its own exclusive block would take the
host shared again ahead of one that had waited minutes, then keep it for the rest of a
long test. A holder that wants the host to itself first lets go of its own shared hold,
so two such holders never wait on each other. ``flock`` locks die with their process: a
worker that crashes holds nothing.

A worker that runs two such tests in a row keeps the host from the one to the next: let
go between them, it went to a waiting worker, whose test (a minute, once) the second then
waited for.

The waits and the exclusive holds are recorded on each report (``host_lease_wait_s``,
``host_lease_alone_s``) and summed at the end: the price of the exclusive work, in
worker-seconds, and what it was.
"""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from time import monotonic
from typing import IO, Any

import pytest
import run_folder

_FOLDER = "benchwright_host_lease"
"""The ``workerinput`` key naming the folder of the run's two lock files."""
_FOLDER_KEY = pytest.StashKey[Path]()
_LEASE_KEY = pytest.StashKey["HostLease"]()
_WAIT = "host_lease_wait_s"
_ALONE = "host_lease_alone_s"


class HostLease:
    """One worker's hold on the host: none, shared, or to itself."""

    def __init__(self, folder: Path) -> None:
        self._host: IO[str] = (folder / "host").open("a")
        self._want: IO[str] = (folder / "want").open("a")
        self._held: int | None = None
        self.waited_s = 0.0
        """Time spent waiting for the lease since the last `take_times`."""
        self.alone_s = 0.0
        """Time spent holding the host to itself since the last `take_times`."""
        self._alone_since: float | None = None

    def share(self) -> None:
        """Hold the host shared (no-op when held already), once no exclusive holder waits
        or works."""
        if self._held is not None:
            return
        start = monotonic()
        fcntl.flock(self._want, fcntl.LOCK_EX)
        try:
            fcntl.flock(self._host, fcntl.LOCK_SH)
            self._held = fcntl.LOCK_SH
        finally:
            fcntl.flock(self._want, fcntl.LOCK_UN)
        self.waited_s += monotonic() - start

    def release(self) -> None:
        if self._held is not None:
            fcntl.flock(self._host, fcntl.LOCK_UN)
            self._held = None

    @contextmanager
    def alone(self) -> Iterator[None]:
        """The host to this worker for the block (nested blocks hold it once); a shared
        hold held before is let go while waiting and taken again after."""
        if self._held == fcntl.LOCK_EX:
            yield
            return
        was_shared = self._held == fcntl.LOCK_SH
        self.take_alone()
        try:
            yield
        finally:
            self.leave_alone()
            if was_shared:  # the test goes on (its teardown, at least): shared again
                self.share()

    def take_alone(self) -> None:
        """The host to this worker until `leave_alone` (no-op when held so already); a
        shared hold is let go first, so two such holders never wait on each other."""
        if self._held == fcntl.LOCK_EX:
            return
        self.release()
        start = monotonic()
        fcntl.flock(self._want, fcntl.LOCK_SH)
        try:
            fcntl.flock(self._host, fcntl.LOCK_EX)
        except BaseException:  # interrupted while waiting: want nothing any more
            fcntl.flock(self._want, fcntl.LOCK_UN)
            raise
        self._held = fcntl.LOCK_EX
        self.waited_s += monotonic() - start
        self._alone_since = monotonic()

    def leave_alone(self) -> None:
        """Let the host go after `take_alone` (no-op when not held so)."""
        if self._held != fcntl.LOCK_EX:
            return
        self._count_alone()
        self._alone_since = None
        self.release()
        fcntl.flock(self._want, fcntl.LOCK_UN)

    def _count_alone(self) -> None:
        if self._alone_since is not None:
            now = monotonic()
            self.alone_s += now - self._alone_since
            self._alone_since = now

    def take_times(self) -> tuple[float, float]:
        """(waited, alone) since the last call; a hold still going counts up to now (a
        test's teardown report is made inside its own exclusive hold)."""
        self._count_alone()
        times = (self.waited_s, self.alone_s)
        self.waited_s = self.alone_s = 0.0
        return times

    def close(self) -> None:
        self.release()
        self._host.close()
        self._want.close()


@contextmanager
def host_to_itself(config: pytest.Config) -> Iterator[None]:
    """For a fixture whose work is timed (a golden grading whose rows tests assert at
    their top rung): the host to this worker for the block; nothing without workers."""
    lease = config.stash.get(_LEASE_KEY, None)
    if lease is None:
        yield
        return
    with lease.alone():
        yield


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Controller: one folder of lock files for the run, named to every worker."""
    run_folder.name_to_worker(node, _FOLDER_KEY, _FOLDER, "bw-host-lease-")


def pytest_configure(config: pytest.Config) -> None:
    """A worker takes its lease; the controller listens for the waits and holds."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None:
        config.pluginmanager.register(_Totals(), "host-lease-totals")
    elif _FOLDER in workerinput:
        config.stash[_LEASE_KEY] = HostLease(Path(workerinput[_FOLDER]))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    """Each test holds the lease through setup, call and teardown: to itself when it
    needs the host alone, shared otherwise. A test that needs it alone hands it on to the
    next test of its worker that does too: between them the other workers would start
    tests of their own, and the second would wait for those to end (a drain of a minute
    once, for a test that then held the host one second)."""
    lease = item.config.stash.get(_LEASE_KEY, None)
    if lease is None:
        return (yield)
    if _needs_alone(item):
        lease.take_alone()  # no-op when the test before handed it on
        try:
            return (yield)
        finally:
            if nextitem is None or not _needs_alone(nextitem):
                lease.leave_alone()
    lease.share()
    try:
        return (yield)
    finally:
        lease.release()


def _needs_alone(item: pytest.Item) -> bool:
    return item.get_closest_marker("alone") is not None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Worker: the time this test waited for the lease and held the host to itself, on
    its teardown report."""
    report = yield
    lease = item.config.stash.get(_LEASE_KEY, None)
    if lease is not None and call.when == "teardown":
        waited, alone = lease.take_times()
        report.user_properties += [(_WAIT, round(waited, 1)), (_ALONE, round(alone, 1))]
    return report


class _Totals:
    """Controller: the waits and the exclusive holds the workers report, summed at the
    end of the run (what the exclusive work cost, and what it was)."""

    def __init__(self) -> None:
        self.by_key: dict[str, dict[str, float]] = {_WAIT: {}, _ALONE: {}}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        for key, value in report.user_properties:
            if key in self.by_key and value:
                by_test = self.by_key[key]
                by_test[report.nodeid] = by_test.get(report.nodeid, 0.0) + value

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        for key, what in (
            (_WAIT, "tests waited {:.0f} s for it"),
            (_ALONE, "held it alone {:.0f} s"),
        ):
            by_test = self.by_key[key]
            if not by_test:
                continue
            total = sum(by_test.values())
            terminalreporter.write_line(f"host lease: {what.format(total)}, longest:")
            for nodeid, seconds in sorted(by_test.items(), key=lambda kv: -kv[1])[:8]:
                terminalreporter.write_line(f"  {seconds:6.1f}s {nodeid}")


def pytest_unconfigure(config: pytest.Config) -> None:
    lease = config.stash.get(_LEASE_KEY, None)
    if lease is not None:
        lease.close()
    run_folder.remove(config, _FOLDER_KEY)
