"""``--timeline``: every test report of a run as one JSON line in ``pytest-timeline.jsonl``
(the directory pytest was started in), for working out where a ``pytest -n N`` run spends
its time: which worker ran each phase of each test, from when to when, in which group
(tests/worker_groups.py), and what the host lease recorded on it (tests/host_lease.py: its
waits and exclusive holds). ``benchmarks/lease_replay.py`` replays such a file under other
lease policies and worker counts.

An option of the suite's own rather than a ``-p`` plugin given through
``PYTEST_ADDOPTS``: that variable reaches the nested pytest runs the suite grades (a
workspace's tests), which then print what the canary tests do not expect. A flag, not an
option with a value: a worker reads its command line before it has found this conftest,
so ``--timeline FILE`` would look to it like a test path outside the repository (its
rootdir then moves there, and the option is never defined).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

import pytest
import worker_groups

GROUP = "worker_group"
"""The user property naming a test's group, on its teardown report."""
FILE = "pytest-timeline.jsonl"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--timeline", action="store_true",
        help=f"write every test report as a JSON line to {FILE} (tests/run_timeline.py)",
    )  # fmt: skip


def pytest_configure(config: pytest.Config) -> None:
    """The controller (or a run without workers) writes the file."""
    if config.getoption("timeline") and not hasattr(config, "workerinput"):
        path = config.invocation_params.dir / FILE
        config.pluginmanager.register(_Writer(path), "run-timeline-writer")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A worker names the test's group on its teardown report."""
    report = yield
    if call.when == "teardown" and item.config.getoption("timeline"):
        group = worker_groups.group_of(item)
        if group is not None:
            report.user_properties.append((GROUP, group))
    return report


class _Writer:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._out: IO[str] = path.open("w")

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        node = getattr(report, "node", None)  # the worker it came from, under xdist
        line = {"id": report.nodeid, "when": report.when, "start": report.start,
                "stop": report.stop, "worker": node.gateway.id if node is not None else None,
                "outcome": report.outcome, "props": dict(report.user_properties)}  # fmt: skip
        self._out.write(json.dumps(line) + "\n")
        self._out.flush()  # a run stopped midway keeps what it did

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        terminalreporter.write_line(f"timeline: {self.path}")

    def pytest_unconfigure(self) -> None:
        self._out.close()
