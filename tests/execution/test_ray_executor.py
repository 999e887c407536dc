"""The Ray executor without a cluster: what a job reserves, and the missing-extra exit.

The two-node cluster itself is `test_ray_cluster.py` (slow).
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from benchwright.execution.executor import Resources

REPO = Path(__file__).resolve().parents[2]

# Runs the real console entry point with ``import ray`` failing as on a machine
# without the extra: a None entry in sys.modules makes the import raise ImportError.
WITHOUT_RAY = "import sys; sys.modules['ray'] = None; from benchwright.cli import main; main()"


def without_ray(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_RAY, *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
        check=False,
    )


def test_without_ray_the_executor_is_invalid_input_that_says_how_to_install_it() -> None:
    done = without_ray("run", "suites/turnbench", "--agent", "oracle", "--executor", "ray")
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (
        "error: --executor ray: Ray is not installed here: pip install 'benchwright[ray]'"
    )
    assert "Traceback" not in done.stderr


def test_without_ray_the_local_executor_still_works() -> None:
    script = (
        "import sys; sys.modules['ray'] = None\n"
        "from benchwright.execution.executor import Job, make_executor\n"
        "pool = make_executor('local', 2)\n"
        "print(pool.name, sorted(d.result for d in pool.run(abs, [Job('a', -2), Job('b', 3)])))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "local [2, 3]"


def test_a_job_reserves_its_cpus_memory_and_a_browser_unit() -> None:
    pytest.importorskip("ray", reason="the ray extra is not installed")
    from benchwright.execution.ray_executor import task_options

    assert task_options(Resources()) == {"num_cpus": 1.0, "max_retries": 0}
    assert task_options(Resources(cpus=0.5, memory_mb=700, browser=True)) == {
        "num_cpus": 0.5,
        "max_retries": 0,
        "memory": 700 * 1024 * 1024,
        "resources": {"browser": 1},
    }


def test_workers_below_one_is_refused_before_connecting() -> None:
    pytest.importorskip("ray", reason="the ray extra is not installed")
    from benchwright.errors import SpecError
    from benchwright.execution.ray_executor import RayExecutor

    with pytest.raises(SpecError, match="--workers: must be >= 1, got 0"):
        RayExecutor("auto", 0)


def test_an_address_where_nothing_listens_is_refused_before_anything_runs() -> None:
    pytest.importorskip("ray", reason="the ray extra is not installed")
    from benchwright.errors import SpecError
    from benchwright.execution.ray_executor import RayExecutor

    port = _free_port()
    for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
        with pytest.raises(SpecError) as caught:
            RayExecutor(address, 1)
        assert str(caught.value) == (
            f"--ray-address: no Ray head answers at {address}: Connection refused"
        )


def test_run_on_a_cluster_that_is_not_there_exits_2_before_writing_a_run(cli, tmp_path) -> None:
    pytest.importorskip("ray", reason="the ray extra is not installed")
    port = _free_port()
    turnbench, out = str(REPO / "suites" / "turnbench"), str(tmp_path / "runs")
    done = cli("run", turnbench, "--agent", "oracle", "--executor", "ray",
               "--ray-address", f"127.0.0.1:{port}", "--out", out)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (
        f"error: --ray-address: no Ray head answers at 127.0.0.1:{port}: Connection refused"
    )
    assert not (tmp_path / "runs").exists()


def _free_port() -> int:
    """A port just freed: nothing listens there."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow
def test_local_starts_a_private_cluster_with_a_browser_unit_per_worker_and_stops_it() -> None:
    pytest.importorskip("ray", reason="the ray extra is not installed")
    script = (
        "import ray\n"
        "from benchwright.execution.executor import Job, Resources\n"
        "from benchwright.execution.ray_executor import RayExecutor\n"
        "jobs = [Job('plain', -2), Job('browser', -3, Resources(browser=True))]\n"
        "done = sorted(RayExecutor('local', 2).run(abs, jobs), key=lambda d: d.key)\n"
        "print([(d.key, d.result, len(d.node)) for d in done], ray.is_initialized())"
    )
    # A token of its own, so the private cluster never writes one under ~/.ray.
    env = os.environ | {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(16)}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=180, env=env,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    # Both ran (the browser job on a browser unit the private cluster declared), each on
    # a Ray node id (56 hex digits), and the cluster is gone once the run is.
    assert done.stdout.strip().splitlines()[-1] == "[('browser', 3, 56), ('plain', 2, 56)] False"
