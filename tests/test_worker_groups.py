"""The suite's worker groups (tests/worker_groups.py) on a real ``pytest -n 2`` run of a
small suite: two modules sharing an expensive session fixture run on one worker, which
makes the fixture once; a module's tests stay together; the heavier group starts first.
xdist's own ``--dist loadgroup`` silently stopped grouping under pytest 9.2, so this
proves the grouping on the pytest and xdist installed, not just its arithmetic."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

CONFTEST = """
import os
from pathlib import Path

import pytest

pytest_plugins = ["worker_groups"]


@pytest.fixture(scope="session")
def golden():
    made = Path(os.environ["GOLDEN_LOG"])
    with made.open("a") as log:
        log.write(os.environ.get("PYTEST_XDIST_WORKER", "main") + "\\n")
    return "graded"
"""
SHARED = """
import pytest

@pytest.mark.slow
def test_{name}_one(golden):
    assert golden == "graded"

def test_{name}_two(golden):
    assert golden == "graded"
"""
PLAIN = """
def test_{name}_one():
    pass

def test_{name}_two():
    pass
"""
LINE = re.compile(r"^\[(gw\d)\] \[\s*\d+%\] PASSED (test_\w+)\.py::")


def _suite(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makeini("[pytest]\nmarkers =\n    slow: slow\n")
    for name in ("shared_a", "shared_b"):
        pytester.makepyfile(**{f"test_{name}": SHARED.format(name=name)})
    for name in ("plain_c", "plain_d", "plain_e"):
        pytester.makepyfile(**{f"test_{name}": PLAIN.format(name=name)})


def test_tests_sharing_a_session_fixture_share_a_worker(pytester, monkeypatch, tmp_path):
    _suite(pytester)
    log = tmp_path / "golden.log"
    monkeypatch.setenv("GOLDEN_LOG", str(log))
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent))
    done = pytester.runpytest_subprocess("-n", "2", "-v", "-p", "no:cacheprovider")
    done.assert_outcomes(passed=10)
    workers: dict[str, set[str]] = defaultdict(set)
    order = []
    for line in done.outlines:
        if found := LINE.match(line):
            workers[found[2]].add(found[1])
            order.append(found[2])
    assert len(workers) == 5 and all(len(seen) == 1 for seen in workers.values()), workers
    assert workers["test_shared_a"] == workers["test_shared_b"]
    assert log.read_text().splitlines() == sorted(workers["test_shared_a"])  # made once
    shared_worker = next(iter(workers["test_shared_a"]))
    first_there = next(m for m in order if shared_worker in workers[m])
    assert first_there.startswith("test_shared_")  # the heavy group went out first


def test_a_run_without_workers_is_left_as_collected(pytester, monkeypatch, tmp_path):
    _suite(pytester)
    monkeypatch.setenv("GOLDEN_LOG", str(tmp_path / "golden.log"))
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent))
    done = pytester.runpytest_subprocess("--collect-only", "-q", "-p", "no:cacheprovider")
    modules = [line.split("::")[0] for line in done.outlines if "::" in line]
    assert list(dict.fromkeys(modules)) == sorted(set(modules))
