"""The relays across a sandboxed app's network edge, on real sockets and a real process.

The sandbox's side (services/_relay.py run as a script) runs here without a sandbox: it
binds the vendor's port on the host's loopback (a leased one) and execs a stand-in app,
so the byte paths are tested apart from bubblewrap; tests/security/test_app_netns.py runs
the whole shape sandboxed.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchwright.errors import HarnessError
from benchwright.services._bridge import Bridge, VendorRoute
from benchwright.services._confine import RELAY_SCRIPT
from benchwright.services._relay import APP_SOCKET, READY
from benchwright.services.app import AppUnderTest
from benchwright.services.ports import lease_port

ECHO_APP = r"""
import socket, sys
server = socket.create_server(("127.0.0.1", int(sys.argv[1])))
while True:
    conn, _ = server.accept()
    with conn:
        data = b""
        while chunk := conn.recv(65536):  # until the client half-closes
            data += chunk
        conn.sendall(b"app:" + data)
"""


class Upper:
    """A vendor stand-in on a free port: answers each connection with its bytes upper-cased
    once the client half-closes."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.accepted = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            self.accepted += 1
            with conn:
                data = b""
                while chunk := conn.recv(65536):
                    data += chunk
                conn.sendall(data.upper())

    def close(self) -> None:
        self.server.shutdown(socket.SHUT_RDWR)
        self.server.close()
        self.thread.join(5)


def exchange(port: int, payload: bytes) -> bytes:
    """Send ``payload``, half-close, read to EOF: a half-close must cross the relay."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(payload)
        conn.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    return answer


@pytest.fixture
def edge(tmp_path: Path) -> Iterator[tuple[Bridge, int, Upper, subprocess.Popen[bytes]]]:
    """A bridge, the sandbox's side of it in a plain process, a vendor stand-in, an app."""
    vendor = Upper()
    (tmp_path / "app.py").write_text(ECHO_APP)
    with lease_port(lock_dir=tmp_path) as app_lease, lease_port(lock_dir=tmp_path) as seen:
        bridge = Bridge(
            "127.0.0.1", app_lease.port, VendorRoute(seen.port, ("127.0.0.1", vendor.port))
        )
        bridge.open()
        inside_app = socket.socket()
        inside_app.bind(("127.0.0.1", 0))
        inner = inside_app.getsockname()[1]  # unsandboxed, the app's own port must differ
        inside_app.close()
        argv = [sys.executable, str(RELAY_SCRIPT), str(bridge.directory), str(seen.port),
                str(inner), "--", sys.executable, str(tmp_path / "app.py"), str(inner)]  # fmt: skip
        proc = subprocess.Popen(argv, start_new_session=True)
        try:
            yield bridge, seen.port, vendor, proc
        finally:
            os.killpg(proc.pid, signal.SIGKILL)  # the app and the relay it left behind
            proc.wait()
            bridge.close()
            vendor.close()


def over(conn: socket.socket) -> bool:
    """True when the peer ended the connection (EOF or a reset) without a byte."""
    try:
        return conn.recv(10) == b""
    except ConnectionResetError:
        return True


def wait_bound(port: int) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nothing listens on {port}")


def test_the_vendor_port_relays_to_the_mock_and_the_app_port_to_the_app(edge):
    bridge, vendor_port, _vendor, _proc = edge
    wait_bound(vendor_port)
    assert exchange(vendor_port, b"get /v2/payments") == b"GET /V2/PAYMENTS"
    deadline = time.monotonic() + 10
    while True:  # until the app inside has bound its port: resets before that
        try:
            answer = exchange(bridge.app_port, b"x" * 200_000)
            break
        except ConnectionError:  # reset, or a broken pipe mid-send
            assert time.monotonic() < deadline, "the app never answered through the relay"
            time.sleep(0.05)
    assert answer == b"app:" + b"x" * 200_000  # large: the relay drains, never drops
    assert bridge.reached


def test_a_vendor_outage_gives_the_app_no_answer_until_its_block_ends(edge):
    """While down, a new connection to the vendor's port meets an EOF or a reset without a
    byte and never reaches the mock, and one being relayed is ended; afterwards (also when
    the block raised) the vendor answers again."""
    bridge, vendor_port, vendor, _proc = edge
    deadline = time.monotonic() + 10
    while True:  # until the relay inside has bound the port (refused before: not relayed)
        try:
            assert exchange(vendor_port, b"up") == b"UP"
            break
        except ConnectionRefusedError:
            assert time.monotonic() < deadline, "nothing listens on the vendor's port"
            time.sleep(0.05)
    with socket.create_connection(("127.0.0.1", vendor_port), timeout=5) as held:
        held.sendall(b"keep-alive")  # relayed: the stand-in waits for a half-close
        while vendor.accepted < 2:
            assert time.monotonic() < deadline, "the held connection never reached the vendor"
            time.sleep(0.02)
        with bridge.vendor_outage():
            assert over(held)
            assert refused(vendor_port) and refused(vendor_port)
            assert vendor.accepted == 2  # the mock never heard of them
    assert exchange(vendor_port, b"back") == b"BACK"
    with pytest.raises(RuntimeError), bridge.vendor_outage():
        raise RuntimeError("a probe failed mid-outage")
    assert exchange(vendor_port, b"again") == b"AGAIN"


def test_no_outage_without_a_relayed_vendor(tmp_path):
    """Unconfined there is no bridge (the mock owns the port the app dials), and a bridge
    without a vendor has nothing to cut: both say so instead of pretending."""
    app = AppUnderTest("{python} -c pass", tree=tmp_path, db=tmp_path / "db" / "x.db", port=1)
    assert not app.can_cut_vendor
    with pytest.raises(HarnessError, match="only for a running sandboxed app"):
        app.vendor_outage()
    with (
        lease_port(lock_dir=tmp_path) as lease,
        Bridge("127.0.0.1", lease.port, None) as bridge,
        pytest.raises(HarnessError, match="no vendor is relayed"),
        bridge.vendor_outage(),
    ):
        pass


def test_a_port_nobody_bound_inside_is_a_reset_and_not_counted_as_reached(tmp_path):
    with lease_port(lock_dir=tmp_path) as lease, Bridge("127.0.0.1", lease.port, None) as bridge:
        assert refused(lease.port)
        assert not bridge.reached


def refused(port: int) -> bool:
    """True when a request to ``port`` meets a reset or an EOF without a byte; the reset
    may come before the request is even sent (a loaded host), which is the same finding."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
            conn.sendall(b"GET / HTTP/1.1\r\n\r\n")
            return over(conn)
    except (ConnectionResetError, BrokenPipeError):
        return True


def test_close_ends_relayed_connections_and_leaves_no_thread_or_socket(tmp_path):
    before = {t.name for t in threading.enumerate()}
    with lease_port(lock_dir=tmp_path) as lease:
        bridge = Bridge("127.0.0.1", lease.port, None).open()
        inside = socket.socket(socket.AF_UNIX)  # an app side that accepts and then idles
        inside.bind(str(bridge.directory / APP_SOCKET))
        inside.listen()
        idle = socket.create_connection(("127.0.0.1", lease.port), timeout=5)
        held, _ = inside.accept()
        held.sendall(READY)
        idle.sendall(b"ping")
        assert held.recv(10) == b"ping"  # relayed, and now idle in both directions
        assert "benchwright-bridge" in {t.name for t in threading.enumerate()}
        bridge.close()
        assert over(idle) and held.recv(10) == b""  # both ends closed
        for sock in (idle, held, inside):
            sock.close()
        assert {t.name for t in threading.enumerate()} <= before
        assert not bridge.directory.exists()
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", lease.port), timeout=5)


def test_a_taken_app_port_is_a_harness_error_naming_it(tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        with pytest.raises(HarnessError, match=f"cannot relay 127.0.0.1:{port} to the app"):
            Bridge("127.0.0.1", port, None).open()
    assert "benchwright-bridge" not in {t.name for t in threading.enumerate()}


def test_a_killed_graders_socket_directory_is_swept_and_a_live_ones_kept(tmp_path):
    """SIGKILL skips ``close``: the next bridge removes what a dead grader left, never
    the directory of one still running."""
    from benchwright.services._bridge import sweep_stale

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    left = tmp_path / f"bw-bridge-{dead.stdout.strip()}-abc123"
    live = tmp_path / f"bw-bridge-{os.getpid()}-def456"
    odd = tmp_path / "bw-bridge-notapid"
    for directory in (left, live, odd):
        directory.mkdir()
    (left / "app.sock").write_text("")
    assert sweep_stale(tmp_path) == [left]
    assert not left.exists() and live.is_dir() and odd.is_dir()


def test_closing_relays_with_open_connections_is_quiet(tmp_path):
    """Teardown cancels every relayed connection; none may surface as an unhandled error
    (Python 3.11 logs a traceback for a cancelled stream-server handler otherwise)."""
    import asyncio

    from benchwright.services._relay import Relays, tcp_listener

    async def scenario() -> list[dict]:
        errors: list[dict] = []
        asyncio.get_running_loop().set_exception_handler(lambda _loop, ctx: errors.append(ctx))
        upstream = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
        port = upstream.sockets[0].getsockname()[1]
        relays = Relays()
        listener = tcp_listener("127.0.0.1", 0)
        relay_port = listener.getsockname()[1]
        await relays.listen(listener, lambda: asyncio.open_connection("127.0.0.1", port))
        clients = [await asyncio.open_connection("127.0.0.1", relay_port) for _ in range(3)]
        for _ in range(50):  # bounded: until every connection is being relayed
            if len(relays._tasks) == 3:
                break
            await asyncio.sleep(0.02)
        assert len(relays._tasks) == 3
        await relays.close()
        for _, writer in clients:
            writer.close()
        upstream.close()
        await asyncio.sleep(0.05)
        return errors

    assert asyncio.run(scenario()) == []
