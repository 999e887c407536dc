"""A real two-node Ray cluster on this machine, for the cluster test and
``benchmarks/scale.py``: a head and one worker node, each a ``ray start`` with one CPU.

Each ``ray start`` runs in a session of its own, and everything Ray leaves behind
(GCS, raylets, workers) stays in that session, so `two_node_cluster` stops exactly
what it started, by session id - never ``ray stop``, which would kill every other
Ray cluster on the machine too.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

RAY = Path(sys.executable).with_name("ray")
START_TIMEOUT_S = 120


def cluster_env(*importable: Path) -> dict[str, str]:
    """The environment of the nodes and of every driver: one fresh token for this
    cluster (never ``~/.ray``'s), no usage reporting, and ``importable`` on the
    workers' path (Ray imports a job's function by its module name)."""
    path = [str(p) for p in importable] + [os.environ.get("PYTHONPATH", "")]
    return os.environ | {
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN": secrets.token_hex(16),
        "RAY_USAGE_STATS_ENABLED": "0",
        "PYTHONPATH": os.pathsep.join(p for p in path if p),
    }


@contextmanager
def two_node_cluster(env: dict[str, str], worker_browsers: int = 0) -> Iterator[str]:
    """A head (one CPU, one ``browser``) and a worker node (one CPU and
    ``worker_browsers``); yields the address to give ``--ray-address``. Raises
    AssertionError if a node does not start or a process of theirs survives the stop."""
    port = _free_port()
    address = f"127.0.0.1:{port}"
    temp = tempfile.mkdtemp(prefix="bwray")  # short: Ray's socket paths must fit 107 bytes
    common = ["--num-cpus", "1", "--node-ip-address", "127.0.0.1", "--disable-usage-stats"]
    head = ["--head", "--port", str(port), "--temp-dir", temp, "--include-dashboard", "false",
            "--resources", '{"browser": 1}']  # fmt: skip
    worker = ["--address", address, "--resources", f'{{"browser": {worker_browsers}}}']
    sessions: list[int] = []
    try:
        for args in (head, worker):
            proc = subprocess.Popen(
                [str(RAY), "start", *args, *common],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                start_new_session=True,
                preexec_fn=_default_sigint,
            )
            sessions.append(proc.pid)
            out, _ = proc.communicate(timeout=START_TIMEOUT_S)
            assert proc.returncode == 0, f"ray start {' '.join(args)} failed:\n{out}"
        yield address
    finally:
        survivors = [pid for sid in sessions for pid in _stop_session(sid)]
        shutil.rmtree(temp, ignore_errors=True)
        assert not survivors, f"Ray processes survived the stop: {survivors}"


def _default_sigint() -> None:
    """A node's SIGINT as a terminal's ``ray start`` has it: a suite run from a background
    job (a shell without job control ignores SIGINT for ``cmd &``) would hand its workers
    the ignored signal, and `ray.cancel` would interrupt nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _session_members(sid: int) -> list[int]:
    """The processes of session ``sid`` (the sixth field of /proc/PID/stat)."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with suppress(OSError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[3]) == sid:
                members.append(int(stat.parent.name))
    return members


def _stop_session(sid: int) -> list[int]:
    """SIGTERM, then SIGKILL, every process of the session; returns any survivor. Ray's
    daemons take their time over a SIGTERM; a test cluster owes nobody a graceful end,
    so they get 2 s before the SIGKILL (and 10 s to be gone after it)."""
    for sig, grace_s in ((signal.SIGTERM, 2), (signal.SIGKILL, 10)):
        for pid in _session_members(sid):
            with suppress(ProcessLookupError):
                os.kill(pid, sig)
        deadline = time.monotonic() + grace_s
        while _session_members(sid) and time.monotonic() < deadline:
            time.sleep(0.2)
    return _session_members(sid)
