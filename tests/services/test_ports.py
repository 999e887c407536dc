"""Port leases: free when drawn, and never handed to two gradings at once."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading

import pytest

from benchwright.errors import HarnessError
from benchwright.services import ports
from benchwright.services.ports import lease_port, port_is_free

HOLDER = """
import sys
from pathlib import Path
from benchwright.services.ports import lease_port
leases = [lease_port(lock_dir=Path(sys.argv[1])) for _ in range(int(sys.argv[2]))]
print(" ".join(str(lease.port) for lease in leases), flush=True)
sys.stdin.readline()  # hold every lease until the test has compared
"""


def test_a_lease_is_a_free_port_that_the_app_can_bind(tmp_path):
    with lease_port(lock_dir=tmp_path) as lease:
        assert lease.held and port_is_free(lease.port)
        with socket.socket() as app:
            app.bind(("127.0.0.1", lease.port))
            app.listen()
            assert not port_is_free(lease.port)
    assert not lease.held


def test_a_held_port_is_skipped_and_another_is_drawn(tmp_path, monkeypatch):
    first = lease_port(lock_dir=tmp_path)
    draws = []
    real_draw = ports._draw

    def draw_the_held_port_first(host: str) -> socket.socket:
        if not draws:  # the kernel happens to offer the port another grading holds
            sock = socket.socket()
            sock.bind((host, first.port))
        else:
            sock = real_draw(host)
        draws.append(sock.getsockname()[1])
        return sock

    monkeypatch.setattr(ports, "_draw", draw_the_held_port_first)
    with first, lease_port(lock_dir=tmp_path) as second:
        assert draws[0] == first.port and second.port == draws[1] != first.port


def test_a_released_port_can_be_leased_again(tmp_path, monkeypatch):
    with lease_port(lock_dir=tmp_path) as lease:
        port = lease.port

    def draw_it(host: str) -> socket.socket:
        sock = socket.socket()
        sock.bind((host, port))
        return sock

    monkeypatch.setattr(ports, "_draw", draw_it)
    with lease_port(lock_dir=tmp_path) as again:
        assert again.port == port


def test_running_out_of_draws_is_a_harness_error(tmp_path, monkeypatch):
    with lease_port(lock_dir=tmp_path) as held:

        def always_the_held_port(host: str) -> socket.socket:
            sock = socket.socket()
            sock.bind((host, held.port))
            return sock

        monkeypatch.setattr(ports, "_draw", always_the_held_port)
        with pytest.raises(HarnessError, match="after 3 draws"):
            lease_port(lock_dir=tmp_path, attempts=3)


def test_an_unusable_lock_directory_is_a_harness_error(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(HarnessError, match="lock directory"):
        lease_port(lock_dir=blocker / "locks")


def test_threads_leasing_at_once_never_share_a_port(tmp_path):
    found: list[int] = []
    lock = threading.Lock()
    leases = []

    def grab() -> None:
        for _ in range(10):
            lease = lease_port(lock_dir=tmp_path)
            with lock:
                leases.append(lease)
                found.append(lease.port)

    threads = [threading.Thread(target=grab) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    try:
        assert len(found) == 80 and len(set(found)) == 80
    finally:
        for lease in leases:
            lease.release()


def test_two_gradings_in_separate_processes_never_share_a_port(tmp_path):
    holders = [
        subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(tmp_path), "40"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    mine = []
    try:
        mine.extend(lease_port(lock_dir=tmp_path) for _ in range(40))
        theirs = [holder.stdout.readline().split() for holder in holders]
        assert [len(ports_) for ports_ in theirs] == [40, 40], "a holder process failed"
        every = [int(p) for ports_ in theirs for p in ports_] + [lease.port for lease in mine]
        assert len(every) == 120 and len(set(every)) == 120
    finally:
        for holder in holders:
            holder.communicate("\n", timeout=30)
        for lease in mine:
            lease.release()


def test_a_lock_held_by_another_process_blocks_the_port(tmp_path):
    with lease_port(lock_dir=tmp_path) as lease:
        probe = f"""
import fcntl, os, sys
fd = os.open({str(lease.lock_path)!r}, os.O_RDWR)
try:
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
except BlockingIOError:
    sys.exit(7)
"""
        assert subprocess.run([sys.executable, "-c", probe], timeout=30).returncode == 7
    assert subprocess.run([sys.executable, "-c", probe], timeout=30).returncode == 0
