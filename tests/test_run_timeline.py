"""``--timeline`` (tests/run_timeline.py) on real ``pytest`` runs, with workers and
without, started with no test path (as ``make test`` does): a line per phase of each
test, its worker, its span, and on its teardown what the host lease recorded and which
group it ran in."""

from __future__ import annotations

import json
from pathlib import Path

CONFTEST = 'pytest_plugins = ["worker_groups", "host_lease", "run_timeline"]\n'
TESTS = """
import time

def test_{name}_one():
    time.sleep(0.05)

def test_{name}_two():
    pass
"""


def _timeline(pytester, monkeypatch, *args: str) -> list[dict]:
    pytester.makeconftest(CONFTEST)
    for name in ("a", "b"):
        pytester.makepyfile(**{f"test_{name}": TESTS.format(name=name)})
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent))
    pytester.makeini("[pytest]\ntestpaths = .\n")
    done = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--timeline", *args)
    done.assert_outcomes(passed=4)
    out = pytester.path / "pytest-timeline.jsonl"
    assert f"timeline: {out}" in done.outlines
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_with_workers_every_phase_is_a_line_with_its_worker_group_and_lease(
    pytester, monkeypatch
) -> None:
    lines = _timeline(pytester, monkeypatch, "-n", "2")
    ids = {line["id"] for line in lines}
    assert len(ids) == 4 and len(lines) == 12
    for nodeid in ids:
        mine = [line for line in lines if line["id"] == nodeid]
        assert [line["when"] for line in mine] == ["setup", "call", "teardown"]
        assert all(line["start"] <= line["stop"] for line in mine)
        workers = {line["worker"] for line in mine}
        assert len(workers) == 1 and workers <= {"gw0", "gw1"}  # one test, one worker
        props = mine[-1]["props"]
        assert props["worker_group"] == nodeid.split("::")[0].removesuffix(".py")
        assert {"host_lease_wait_s", "host_lease_alone_s"} <= props.keys()
    slept = next(line for line in lines if line["id"].endswith("a_one") and line["when"] == "call")
    assert slept["stop"] - slept["start"] >= 0.05


def test_without_workers_the_run_writes_it_too(pytester, monkeypatch) -> None:
    lines = _timeline(pytester, monkeypatch)
    assert len(lines) == 12
    assert {line["worker"] for line in lines} == {None}
    assert all(line["props"] == {} for line in lines)  # no lease, no groups: one process
