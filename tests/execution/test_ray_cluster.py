"""A real Ray cluster of two nodes on this machine: a head and one worker node, each a
``ray start`` with one CPU, started and stopped by the test.

Jobs run through `RayExecutor` land on both nodes, browser jobs only where the
``browser`` resource is, a failing job is an error outcome, a job no node can hold is
refused instead of hanging, closing the stream cancels the running tasks, and
``benchwright run --executor ray`` gives the local executor's results.

Each ``ray start`` runs in a session of its own, and everything Ray leaves behind
(GCS, raylets, workers) stays in it, so the test stops exactly what it started by
session id - never ``ray stop``, which would kill any other cluster on the machine.
"""

from __future__ import annotations

import _thread
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

pytest.importorskip("ray", reason="the ray extra is not installed (pip install 'benchwright[ray]')")

pytestmark = pytest.mark.slow

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
RAY = Path(sys.executable).with_name("ray")
BENCHWRIGHT = Path(sys.executable).with_name("benchwright")
START_TIMEOUT_S = 120
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


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _session_members(sid: int) -> list[int]:
    """The processes of session ``sid`` (field 6 of /proc/PID/stat)."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with suppress(OSError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[3]) == sid:
                members.append(int(stat.parent.name))
    return members


def _stop_session(sid: int) -> list[int]:
    """SIGTERM, then SIGKILL, every process of the session; returns any survivor."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in _session_members(sid):
            with suppress(ProcessLookupError):
                os.kill(pid, sig)
        deadline = time.monotonic() + 10
        while _session_members(sid) and time.monotonic() < deadline:
            time.sleep(0.2)
    return _session_members(sid)


@contextmanager
def two_node_cluster(env: dict[str, str]) -> Iterator[str]:
    """A head (one CPU, one ``browser``) and a worker node (one CPU); yields the address."""
    port = _free_port()
    address = f"127.0.0.1:{port}"
    temp = tempfile.mkdtemp(prefix="bwray")  # short: Ray's socket paths must fit 107 bytes
    common = ["--num-cpus", "1", "--node-ip-address", "127.0.0.1", "--disable-usage-stats"]
    head = ["--head", "--port", str(port), "--temp-dir", temp, "--include-dashboard", "false",
            "--resources", '{"browser": 1}']  # fmt: skip
    sessions: list[int] = []
    try:
        for args in (head, ["--address", address]):
            proc = subprocess.Popen(
                [str(RAY), "start", *args, *common],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                start_new_session=True,
            )
            sessions.append(proc.pid)
            out, _ = proc.communicate(timeout=START_TIMEOUT_S)
            assert proc.returncode == 0, f"ray start {' '.join(args)} failed:\n{out}"
        yield address
    finally:
        survivors = [pid for sid in sessions for pid in _stop_session(sid)]
        assert not survivors, f"Ray processes survived the test: {survivors}"


@pytest.fixture(scope="module")
def cluster_env() -> dict[str, str]:
    """The environment of the nodes and the driver: one fresh token for this cluster
    (never ~/.ray's), and this directory importable so workers find the jobs above."""
    return os.environ | {
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN": secrets.token_hex(16),
        "RAY_USAGE_STATS_ENABLED": "0",
        "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]),
    }


@pytest.fixture(scope="module")
def cluster(cluster_env: dict[str, str]) -> Iterator[str]:
    with two_node_cluster(cluster_env) as address:
        yield address


def test_jobs_run_on_both_nodes_browser_jobs_only_where_the_browser_is(
    cluster: str, cluster_env: dict[str, str], tmp_path: Path
) -> None:
    script = f"from execution.test_ray_cluster import drive; drive({cluster!r}, {str(tmp_path)!r})"
    done = subprocess.run(
        [sys.executable, "-c", script],
        env=cluster_env,
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
