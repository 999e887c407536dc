"""A real Ray cluster of two nodes on this machine (`raycluster.two_node_cluster`: a
head with the only ``browser`` resource and a worker node, one CPU each, both real
``ray start`` processes, stopped by the test).

Jobs run through `RayExecutor` land on both nodes, browser jobs only where the
``browser`` resource is, a failing job is an error outcome, a job no node can hold is
refused instead of hanging, Ctrl-C cancels the running tasks (politely, then by killing
a worker that cannot hear it), and ``benchwright run --executor ray`` writes the files
``--workers 1`` writes.
"""

from __future__ import annotations

import _thread
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .raycluster import cluster_env, two_node_cluster
from .test_parallel_run import _files

pytest.importorskip("ray", reason="the ray extra is not installed (pip install 'benchwright[ray]')")

pytestmark = pytest.mark.slow

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
BENCHWRIGHT = Path(sys.executable).with_name("benchwright")
DRIVE_TIMEOUT_S = 240


# -- jobs (module level: workers import this module, found through PYTHONPATH) ----------


def node_id(seconds: float) -> str:
    """Hold the CPU a moment (so the other node gets work too), then say where we are."""
    import ray

    time.sleep(seconds)
    return ray.get_runtime_context().get_node_id()


def refuse(_: object) -> str:
    raise ValueError("this job always fails")


def wait_for_cancel(marker: str) -> str:
    """Say we started (and in which process), then wait in short sleeps until
    cancelled, writing what ended us; a marker ending in ``-stuck`` waits in one long
    sleep that no KeyboardInterrupt can break into, so only killing the worker ends it."""
    Path(marker).write_text(f"started {os.getpid()}")
    try:
        if marker.endswith("-stuck"):
            time.sleep(DRIVE_TIMEOUT_S)
        for _ in range(DRIVE_TIMEOUT_S * 10):
            time.sleep(0.1)
    except KeyboardInterrupt:
        Path(marker).write_text("cancelled")
        raise
    Path(marker).write_text("not cancelled")
    return marker


def _gone(pid: int) -> bool:
    """Whether ``pid`` has exited, waiting up to 30 s for it."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.2)
    return False


def _interrupt_once_started(markers: list[str]) -> None:
    """Press Ctrl-C in the driver once every marker says its task is running."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if all(Path(m).exists() for m in markers):
            break
        time.sleep(0.2)
    _thread.interrupt_main()


def drive(address: str, scratch: str) -> None:
    """The driver (run in its own process): prints one JSON object of what it saw."""
    import ray

    from benchwright.errors import SpecError
    from benchwright.execution.executor import Job, Resources
    from benchwright.execution.ray_executor import RayExecutor

    # A driver started under a background job inherits SIGINT ignored (a shell without
    # job control ignores it for `cmd &`), and interrupt_main then presses nothing.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    ray.init(address=address, log_to_driver=False)
    nodes = {n["NodeID"]: n["Resources"] for n in ray.nodes() if n["Alive"]}
    executor = RayExecutor(address, workers=2)
    plain = [Job(f"p{n}", 1.0) for n in range(6)]
    browser = [Job(f"b{n}", 0.2, Resources(browser=True)) for n in range(3)]
    seen = {
        d.key: {"result": d.result, "node": d.node, "error": d.error}
        for d in executor.run(node_id, plain + browser)
    }
    failed = [d.error for d in executor.run(refuse, [Job("bad", None)])]
    try:
        list(executor.run(node_id, [Job("huge", 0.0, Resources(cpus=2))]))
        refused = ""
    except SpecError as exc:
        refused = str(exc)
    markers = [str(Path(scratch) / name) for name in ("cancel-polite", "cancel-stuck")]
    threading.Thread(target=_interrupt_once_started, args=(markers,), daemon=True).start()
    interrupted = False
    try:
        list(executor.run(wait_for_cancel, [Job(m, m) for m in markers]))
    except KeyboardInterrupt:
        interrupted = True
    stuck_pid = int(Path(markers[1]).read_text().split()[1])
    report = {
        "nodes": nodes,
        "seen": seen,
        "failed": failed,
        "refused": refused,
        "interrupted": interrupted,
        "polite": Path(markers[0]).read_text(),
        "stuck": Path(markers[1]).read_text().split()[0],
        "stuck_worker_gone": _gone(stuck_pid),
    }
    print(json.dumps(report))


# -- the cluster -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def env() -> dict[str, str]:
    """The nodes' and the drivers' environment: this module importable by the workers."""
    return cluster_env(TESTS)


@pytest.fixture(scope="module")
def cluster(env: dict[str, str]) -> Iterator[str]:
    with two_node_cluster(env) as address:
        yield address


def test_jobs_run_on_both_nodes_browser_jobs_only_where_the_browser_is(
    cluster: str, env: dict[str, str], tmp_path: Path
) -> None:
    script = f"from execution.test_ray_cluster import drive; drive({cluster!r}, {str(tmp_path)!r})"
    done = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        timeout=DRIVE_TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    nodes = report["nodes"]
    assert len(nodes) == 2
    (head,) = [node for node, res in nodes.items() if res.get("browser")]
    seen = report["seen"]
    assert all(row["error"] is None and row["result"] == row["node"] for row in seen.values())
    assert {seen[f"p{n}"]["node"] for n in range(6)} == set(nodes)
    assert {seen[f"b{n}"]["node"] for n in range(3)} == {head}
    (error,) = report["failed"]
    assert error.startswith("ValueError: this job always fails (")
    assert "test_ray_cluster.py" in error
    assert report["refused"] == (
        "--executor ray: job 'huge' needs CPU=2; no node of the cluster has it"
    )
    assert report["interrupted"] is True
    # Cancelled: the polite task unwound through its KeyboardInterrupt; the stuck one
    # never saw it, and its worker was killed after the grace period.
    assert report["polite"] == "cancelled"
    assert report["stuck"] == "started"
    assert report["stuck_worker_gone"] is True


def test_run_on_the_cluster_writes_what_one_local_worker_writes(
    cluster: str, env: dict[str, str], tmp_path: Path
) -> None:
    runs = {}
    for name, how in (("ray", ["--executor", "ray", "--ray-address", cluster]),
                      ("one", ["--workers", "1"])):  # fmt: skip
        out = tmp_path / name
        done = subprocess.run(
            [str(BENCHWRIGHT), "run", str(REPO / "suites" / "turnbench"), "--agent", "oracle",
             *how, "--out", str(out)],
            env=env, capture_output=True, text=True, timeout=DRIVE_TIMEOUT_S * 2,
            check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-3000:]
        assert "correctness: 28/28 passed (100.0%)" in done.stdout
        [runs[name]] = out.iterdir()
    on_ray, here = _files(runs["ray"]), _files(runs["one"])
    assert len(on_ray) > 28 * 4
    assert on_ray == here
