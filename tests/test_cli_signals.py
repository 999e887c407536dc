"""A stop signal cleans up: long commands killed mid-work leave no temp dir in their TMPDIR.

Each test gives the console script a TMPDIR of its own, sends the signals the way
``timeout`` and CI runners do (to the process, and to its whole process group), and
scans that TMPDIR afterwards.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from execution.minisuites import make_suite
from processes import survivors, with_marker

from benchwright.cli import _signals
from benchwright.errors import EXIT_INTERRUPTED

BENCHWRIGHT = Path(sys.executable).with_name("benchwright")
REPO = Path(__file__).resolve().parents[1]
PORT_LOCKS = "benchwright-ports"
"""The port leases' lock directory: shared by every process on purpose, never a stray."""


def _start(args: list[str], tmpdir: Path) -> subprocess.Popen[str]:
    tmpdir.mkdir()
    return subprocess.Popen(
        [str(BENCHWRIGHT), *args], cwd=REPO, env={**os.environ, "TMPDIR": str(tmpdir)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip


def _wait_for(ready: Callable[[], bool], proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while not ready():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the command never got going"
        time.sleep(0.05)


def _left(tmpdir: Path) -> list[str]:
    return sorted(p.name for p in tmpdir.iterdir() if p.name != PORT_LOCKS)


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    """A folder with a short path for a command's TMPDIR: the sandbox's relay binds unix
    sockets under it, and a worker's ``tmp_path`` is too deep for a socket's 108 bytes."""
    folder = Path(tempfile.mkdtemp(prefix="bw-sig-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.slow
@pytest.mark.alone  # its own TMPDIR holds its own port leases: beside another worker's
# servers its app's port was once taken before the app bound it (boot: harness fault)
def test_calibrate_stopped_twice_by_sigterm_removes_its_grading_dir(
    tmp_path: Path, short_tmp: Path
):
    # SIGTERM to the command, then, while it cleans up, to its process group (as CI
    # runners and supervisors stop a job): the second must not cut the cleanup short.
    tmpdir = short_tmp / "tmp"
    proc = _start(
        ["calibrate", "suites/vspro", "--runs", "1", "--out", str(tmp_path / "t.json")], tmpdir
    )
    _wait_for(lambda: any(tmpdir.glob("benchwright-vspro-*")), proc)
    _wait_for(lambda: any(tmpdir.glob("bw-bridge-*")), proc)  # the app's network is up
    os.kill(proc.pid, signal.SIGTERM)
    time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == EXIT_INTERRUPTED, err
    assert _left(tmpdir) == []


@pytest.mark.slow
def test_a_parallel_run_stopped_by_sigterm_to_its_group_leaves_no_workspace(tmp_path: Path):
    # The signal reaches the pool's workers too: each unwinds its trial, as on Ctrl-C.
    marker = f"bw-stop-{uuid.uuid4().hex}"
    check = {"id": "ok", "type": "test_must_pass", "command": "true"}
    suite = make_suite(
        tmp_path / "suite", [{"id": "wait", "class": "edit", "workspace": {"a.txt": "a\n"},
                              "checks": [check]}]
    )  # fmt: skip
    tmpdir = tmp_path / "tmp"
    agent = f"command:sh -c 'sleep 60' {marker}"
    args = ["run", str(suite), "--agent", agent, "--iterations", "2", "--workers", "2"]
    proc = _start([*args, "--out", str(tmp_path / "runs")], tmpdir)
    _wait_for(lambda: len(_left(tmpdir)) >= 2, proc)  # both trials' workspaces
    _wait_for(lambda: len(set(with_marker(marker)) - {proc.pid}) >= 2, proc)  # both agents
    os.killpg(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == EXIT_INTERRUPTED, err
    assert _left(tmpdir) == []
    assert survivors(marker) == []


def test_the_first_stop_signal_interrupts_and_a_prompt_repeat_is_the_same_stop(monkeypatch):
    monkeypatch.setattr(_signals, "_first", [])
    with pytest.raises(KeyboardInterrupt):
        _signals._stop(signal.SIGTERM, None)
    _signals._stop(signal.SIGTERM, None)  # no second interrupt in the middle of the cleanup


def test_a_stop_signal_long_after_the_first_ends_the_process_at_once(monkeypatch):
    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(_signals, "_first", [time.monotonic() - _signals.REPEAT_GRACE_S - 1])
    monkeypatch.setattr(_signals.signal, "signal", lambda sig, handler: None)
    monkeypatch.setattr(_signals.os, "kill", lambda pid, sig: sent.append((pid, sig)))
    _signals._stop(signal.SIGINT, None)
    assert sent == [(os.getpid(), signal.SIGINT)]


def test_a_stopped_process_runs_its_exit_handlers_and_waits_for_no_thread(tmp_path: Path):
    # A server thread started just before the signal landed was never stopped: exiting
    # normally would wait for it forever.
    ran = tmp_path / "exit-handler-ran"
    code = (
        "import atexit, pathlib, threading\n"
        "from benchwright.cli import _signals\n"
        "threading.Thread(target=threading.Event().wait).start()\n"
        f"atexit.register(pathlib.Path({str(ran)!r}).touch)\n"
        "_signals.leave(130)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], timeout=60)
    assert done.returncode == EXIT_INTERRUPTED and ran.exists()
