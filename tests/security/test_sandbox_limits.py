"""Red team: one sandbox starving the others, or the host, of what the limits should bound.

Every sandbox's process limit is its own (as root, a uid leased per sandbox; otherwise a
user namespace per sandbox), so a sandbox that forks or spawns threads up to its limit
and holds them does not stop another from forking. Every in-memory filesystem a sandbox
can write (``/tmp`` with ``$HOME`` and ``/var/tmp``, ``/dev/shm``) is sized, and the rest
(its root, ``/dev``) is read-only, so filling them ends at the cap. Each attack asserts
the hit is recorded as the limit, nothing is written outside, and no process of the
sandbox's uid is left once its command has returned.
"""

from __future__ import annotations

import os
import re
import socket
import sys
import threading
import time
from pathlib import Path

import pytest
from processes import of_uid

from benchwright.agents import build_agent
from benchwright.dsl import task_from_dict
from benchwright.execution import TrialOptions, TrialResult, run_trial
from benchwright.probes import CommandObservation, run_command
from benchwright.sandbox import Confinement, Limits, unavailable_reason

pytestmark = pytest.mark.skipif(unavailable_reason() is not None, reason="no bwrap here")

POOL = Confinement(limits=Limits(processes=16))
HOLD_S = 60.0
"""The budget of a sandbox that holds its processes until the test says ``go``."""

FORK_HOLD = """
import os, time
open("uid", "w").write(str(os.getuid()))
try:
    while True:
        if os.fork() == 0:
            time.sleep(120)
            os._exit(0)
except OSError:
    open("full", "w").write("")
    while not os.path.exists("go"):
        time.sleep(0.02)
    raise
"""
THREAD_HOLD = """
import os, threading, time
open("uid", "w").write(str(os.getuid()))
stop = threading.Event()
try:
    while True:
        threading.Thread(target=stop.wait, daemon=True).start()
except RuntimeError:
    open("full", "w").write("")
    while not os.path.exists("go"):
        time.sleep(0.02)
    raise
"""
VICTIM = """
import os, subprocess, threading
print(os.getuid())
for _ in range(8):
    if os.fork() == 0:
        os._exit(0)
    os.wait()
threads = [threading.Thread(target=int) for _ in range(8)]
for t in threads:
    t.start()
subprocess.run(["true"], check=True)
print("forked")
"""


def _py(code: str, workspace: Path, confinement: Confinement, timeout_s: float = 30):
    sandbox = confinement.sandbox([workspace])
    return run_command(
        [sys.executable, "-c", code], workspace, timeout_s=timeout_s, sandbox=sandbox
    )


def _uid_of(done: CommandObservation) -> int:
    return int(done.stdout.split()[0])


def _holding(code: str, workspace: Path) -> tuple[threading.Thread, dict[str, CommandObservation]]:
    """Start ``code`` in a sandbox of its own; return once it holds its whole process pool."""
    result: dict[str, CommandObservation] = {}
    thread = threading.Thread(
        target=lambda: result.setdefault("done", _py(code, workspace, POOL, HOLD_S))
    )
    thread.start()
    while not (workspace / "full").exists():
        assert thread.is_alive(), result["done"].stderr  # it ended before it was full
        time.sleep(0.02)
    return thread, result


@pytest.mark.parametrize("bomb", [FORK_HOLD, THREAD_HOLD], ids=["fork-bomb", "thread-bomb"])
def test_a_sandbox_at_its_process_limit_does_not_stop_another_from_forking(tmp_path, bomb):
    greedy, victim = tmp_path / "greedy", tmp_path / "victim"
    greedy.mkdir()
    victim.mkdir()
    thread, result = _holding(bomb, greedy)
    try:
        done = _py(VICTIM, victim, POOL)
    finally:
        (greedy / "go").write_text("")
        thread.join()
    assert done.exit_code == 0 and done.stdout.split()[1:] == ["forked"], done.stderr
    held = result["done"]
    assert held.limit == "limit: process count (16) reached", (held.limit, held.stderr[-500:])
    greedy_uid = int((greedy / "uid").read_text())
    if os.geteuid() == 0:
        assert greedy_uid != _uid_of(done)
    assert of_uid(greedy_uid) == [] and of_uid(_uid_of(done)) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["greedy", "victim"]


def test_a_process_left_by_a_sandbox_never_reaches_the_next_one_of_its_uid(tmp_path):
    """A daemon that outlives its phase would hold the uid's processes for whoever
    leases it next: none is left, and the next sandbox forks its whole pool."""
    daemon = (
        "import os, subprocess\n"
        "print(os.getuid())\n"
        "for _ in range(12):\n"
        "    subprocess.Popen(['setsid', 'sleep', '300'], start_new_session=True)\n"
    )
    first = _py(daemon, tmp_path, POOL)
    assert first.exit_code == 0, first.stderr
    assert of_uid(_uid_of(first)) == []
    fill = (
        "import os, time\n"
        "print(os.getuid())\n"
        "for n in range(14):\n"
        "    if os.fork() == 0:\n"
        "        time.sleep(5)\n"
        "        os._exit(0)\n"
        "print('forked', n + 1)\n"
    )
    second = _py(fill, tmp_path, POOL)
    assert second.stdout.split()[1:] == ["forked", "14"], second.stderr
    assert of_uid(_uid_of(second)) == []


SMALL = Confinement(limits=Limits(tmp_mb=8))
FILL_PY = """
import os, sys
print(os.getuid(), flush=True)
target = os.path.expanduser(sys.argv[1])
written = 0
try:
    with open(target, "wb") as out:
        while written < 64 * 2**20:
            out.write(b"x" * 2**20)
            out.flush()
            written += 2**20
finally:
    print(written // 2**20, flush=True)
"""
SHM_MAP = """
import os
from multiprocessing import shared_memory
print(os.getuid(), flush=True)
block = shared_memory.SharedMemory(create=True, size=64 * 2**20)
block.buf[:] = b"x" * (64 * 2**20)
print("mapped 64 MiB")
"""


@pytest.mark.parametrize("target", ["/tmp/fill", "~/fill", "/var/tmp/fill", "/dev/shm/fill"])
def test_filling_an_in_memory_filesystem_stops_at_its_cap_and_is_a_limit(tmp_path, target):
    sandbox = SMALL.sandbox([tmp_path])
    argv = [sys.executable, "-c", FILL_PY, target]
    done = run_command(argv, tmp_path, timeout_s=30, sandbox=sandbox)
    uid, written = (int(word) for word in done.stdout.split())
    assert written <= 8 and "No space left on device" in done.stderr
    assert done.limit == "limit: in-memory /tmp and /dev/shm (8 MiB each) full", done.stderr
    assert list(tmp_path.iterdir()) == [] and of_uid(uid) == []


def test_a_shell_filling_tmp_is_stopped_at_the_cap(tmp_path):
    sandbox = SMALL.sandbox([tmp_path])
    done = run_command(
        "id -u; head -c 64M /dev/zero > /tmp/fill || { wc -c < /tmp/fill; exit 1; }", tmp_path,
        timeout_s=30, sandbox=sandbox,
    )  # fmt: skip
    uid, size = (int(word) for word in done.stdout.split())
    assert size <= 8 * 2**20 and done.limit is not None and done.limit.startswith("limit: in-mem")
    assert of_uid(uid) == []


def test_shared_memory_mapped_past_the_cap_is_a_limit(tmp_path):
    done = _py(SHM_MAP, tmp_path, SMALL)
    assert "mapped" not in done.stdout
    assert done.limit == "limit: in-memory /tmp and /dev/shm (8 MiB each) full", done.stderr
    assert of_uid(_uid_of(done)) == []


def test_the_in_memory_filesystems_are_capped_by_default_and_nothing_else_is_writable(tmp_path):
    code = (
        "import os\n"
        "for path in ('/tmp', '/dev/shm', '/var/tmp', os.environ['HOME']):\n"
        "    found = os.statvfs(path)\n"
        "    print(path, found.f_blocks * found.f_frsize // 2**20)\n"
        f"for path in ('/evil', '/dev/evil', '/var/evil', {str(tmp_path.parent / 'evil')!r}):\n"
        "    try:\n"
        "        open(path, 'w')\n"
        "        print(path, 'written')\n"
        "    except OSError as exc:\n"
        "        print(path, exc.errno)\n"
    )
    done = _py(code, tmp_path, Confinement())
    sizes, refusals = done.stdout.splitlines()[:4], done.stdout.splitlines()[4:]
    assert [line.split()[1] for line in sizes] == ["512"] * 4, done.stdout
    errnos = [line.split()[1] for line in refusals]
    assert errnos[:3] == ["30"] * 3, done.stdout  # EROFS: the root, /dev and /var are read-only
    assert errnos[3] != "written", done.stdout  # a parent of the workspace: in /tmp, or EROFS
    assert list(tmp_path.iterdir()) == []


GREEDY_AGENT = """
import os, socket, sys, time
print("uid=%d" % os.getuid(), flush=True)
try:
    while True:
        if os.fork() == 0:
            time.sleep(120)
            os._exit(0)
except OSError:
    with socket.create_connection(("127.0.0.1", int(sys.argv[1]))) as held:
        held.recv(1)  # hold every process until the other trial is done
    raise
"""
FAIR_AGENT = """
import os
print("uid=%d" % os.getuid(), flush=True)
for _ in range(8):
    if os.fork() == 0:
        os._exit(0)
    os.wait()
open("app.py", "w").write("VALUE = 2\\n")
"""


def _trial(tmp_path: Path, name: str, script: str, *args: str):
    doc = {
        "id": name,
        "class": "edit",
        "prompt": "Set VALUE to 2.",
        "workspace": {"app.py": "VALUE = 1\n"},
        "checks": [{"type": "assertion_exists", "path": "app.py", "pattern": "^VALUE = 2$"}],
    }
    task = task_from_dict(doc, tmp_path / f"{name}.json")
    (tmp_path / f"{name}.py").write_text(script)
    spec = f"command:{sys.executable} {tmp_path / f'{name}.py'} {' '.join(args)}"
    agent = build_agent(spec, [task])
    return lambda: run_trial(task, "correctness", agent, 1, TrialOptions(confinement=POOL))


def test_two_concurrent_trials_one_holding_its_whole_pool(tmp_path):
    """The issue's case end to end: one trial's agent forks to its limit and holds it
    while another trial runs; the other still forks, passes, and the first is recorded
    as having hit its limit."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        server.settimeout(HOLD_S)
        greedy = _trial(tmp_path, "greedy", GREEDY_AGENT, str(server.getsockname()[1]))
        fair = _trial(tmp_path, "fair", FAIR_AGENT)
        results: dict[str, TrialResult] = {}
        thread = threading.Thread(target=lambda: results.setdefault("greedy", greedy()))
        thread.start()
        conn, _ = server.accept()  # the greedy agent holds all its processes now
        with conn:
            try:
                results["fair"] = fair()
            finally:
                conn.sendall(b"x")
        thread.join()
    held, done = results["greedy"], results["fair"]
    assert done.verdict == "passed", done.log
    assert held.phases[0].limit == "limit: process count (16) reached", held.log
    uids = {int(u) for r in (held, done) for u in re.findall(r"uid=(\d+)", r.log)}
    assert len(uids) == (2 if os.geteuid() == 0 else 1)
    assert all(of_uid(uid) == [] for uid in uids)
