"""Lanes: threads that drive one shared headless Chromium at the same time (no mocks)."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from benchwright.probes.browser import BrowserSession, BrowserUnavailable, Instrumentation
from benchwright.services._server import BackgroundServer

ROWS_PAGE = """<!doctype html><html><body><table id="t"></table><script>
setTimeout(() => {
  const row = document.createElement("tr");
  row.className = "row";
  row.innerHTML = "<td>payment 1</td>";
  document.getElementById("t").appendChild(row);
}, 200);
</script></body></html>"""
ROW = Instrumentation(row_selector="tr.row")


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    app = Starlette(routes=[Route("/rows", lambda request: HTMLResponse(ROWS_PAGE))])
    with BackgroundServer(app) as server:
        yield server.base_url


def _processes() -> dict[int, tuple[int, int, list[bytes]]]:
    """Live processes: pid -> (parent, process group, argv); zombies left out."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] not in ("Z", "X"):
            found[int(entry)] = (int(fields[1]), int(fields[2]), argv)
    return found


def _is_browser_main(argv: list[bytes]) -> bool:
    """Chromium's browser process itself, not one of its ``--type=`` children."""
    return argv[0].endswith(b"/chromium") and not any(a.startswith(b"--type=") for a in argv)


def _browser_mains() -> set[int]:
    """Chromium browser processes started, at any depth, by this test process."""
    procs = _processes()
    return {pid for pid in _descendants(procs) if _is_browser_main(procs[pid][2])}


def _profile(browser_pid: int) -> bytes:
    """The ``--user-data-dir=...`` argument of a Chromium browser process."""
    argv = _processes()[browser_pid][2]
    return next(a for a in argv if a.startswith(b"--user-data-dir="))


def _descendants(procs: dict[int, tuple[int, int, list[bytes]]] | None = None) -> set[int]:
    """Live processes (of one ``_processes`` snapshot) descended from this test process."""
    procs, found = procs or _processes(), set()
    for pid in procs:
        chain, cur = set(), pid
        while cur in procs and cur not in chain and cur != os.getpid():
            chain.add(cur)
            cur = procs[cur][0]
        if cur == os.getpid():
            found.add(pid)
    return found


def _session_processes(browser_pid: int, profile: bytes) -> set[int]:
    """One session's Chromium: its process group, and anything naming its profile folder."""
    return {
        pid
        for pid, (_, group, argv) in _processes().items()
        if group == browser_pid or any(profile in a for a in argv)
    }


def _gone(pids: set[int], within_s: float = 5.0) -> set[int]:
    """The pids still alive after waiting up to ``within_s``."""
    deadline = time.monotonic() + within_s
    while (left := pids & set(_processes())) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


@pytest.mark.slow
def test_two_lanes_in_two_threads_drive_one_browser_process_at_once(tmp_path, base_url):
    both_open = threading.Barrier(2, timeout=30)
    seen: dict[str, dict] = {}

    def drive(name: str, other: str) -> None:
        with session.lane() as lane, lane.scenario(name, ROW) as sc:
            assert sc.goto(base_url + "/rows") == 200
            both_open.wait()  # both scenarios are open now, on two connections
            with pytest.raises(ValueError, match="already ran"):
                lane.scenario(other)  # names are unique across the whole session
            seen[name] = {
                "version": lane.browser.version,
                "contexts": len(lane.browser.contexts),
                "first_row_ms": sc.wait_for_first_row(timeout_s=5),
                "thread": threading.get_ident(),
                "mains": _browser_mains(),
            }
        assert sc.observation is not None and sc.observation.console_errors == ()

    with BrowserSession(scratch=tmp_path) as session:
        with ThreadPoolExecutor(max_workers=2) as pool:
            lanes = [pool.submit(drive, "left", "right"), pool.submit(drive, "right", "left")]
            for lane in lanes:
                lane.result(timeout=60)
        assert seen["left"]["thread"] != seen["right"]["thread"]
        for name in ("left", "right"):
            assert seen[name]["version"] == session.version
            assert seen[name]["contexts"] == 1  # a lane sees only its own contexts
            assert seen[name]["first_row_ms"] is not None
            assert seen[name]["mains"] == {session.browser_pid}  # one Chromium, the session's
        with session.scenario("home", ROW) as sc:  # the starting thread's own connection
            assert sc.goto(base_url + "/rows") == 200


def test_a_connection_is_used_only_from_its_own_thread(tmp_path):
    with BrowserSession(scratch=tmp_path) as session, ThreadPoolExecutor(1) as pool:
        with pytest.raises(RuntimeError, match="use a lane"):
            pool.submit(session.scenario, "elsewhere").result(timeout=30)
        with session.lane() as lane, pytest.raises(RuntimeError, match="thread that opened it"):
            pool.submit(lane.scenario, "elsewhere").result(timeout=30)


@pytest.mark.slow
def test_closing_the_session_leaves_no_chromium_or_driver_process(tmp_path, base_url):
    before = _descendants()
    done = threading.Barrier(3, timeout=30)  # two lanes and this thread

    def drive(name: str) -> None:
        with session.lane() as lane, lane.scenario(name, ROW) as sc:
            sc.goto(base_url + "/rows")
            done.wait()  # hold the lane open while the processes are counted
            done.wait()

    session = BrowserSession(scratch=tmp_path).start()
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            lanes = [pool.submit(drive, name) for name in ("one", "two")]
            done.wait()
            profile = _profile(session.browser_pid)
            during = _session_processes(session.browser_pid, profile)
            procs = _processes()
            spawned = _descendants(procs) - before  # the server, Chromium, one driver per lane
            nodes = {pid for pid in spawned if procs[pid][2][0].endswith(b"/node")}
            done.wait()
            for lane in lanes:
                lane.result(timeout=30)
        assert _browser_mains() == {session.browser_pid}
    finally:
        session.close()
    assert session.browser_pid in during and len(during) > 1  # the scan sees renderers too
    assert len(nodes) == 3  # the server and the lanes' drivers (this thread never connected)
    assert not _gone(during | spawned)
    assert not _session_processes(session.browser_pid, profile)
    assert not _descendants() - before


LOST = r"browser process exited|page was closed under the probe"
"""A killed browser's first notice: its exit, or (on a loaded host) the page closing."""


@pytest.mark.slow
def test_lanes_fail_fast_once_the_browser_is_killed(tmp_path, base_url):
    """SIGKILL the Chromium while two lanes wait on their pages: both lanes raise
    BrowserUnavailable within moments, and opening another lane is refused. It shares the
    host: the lanes noticed the kill in 0.35-0.5 s beside four CPU spinners on two cores,
    against the 5-s bound (and the 20-s wait a lane that never noticed would sit out)."""
    waiting = threading.Barrier(3, timeout=30)

    def drive(name: str) -> float:
        with session.lane() as lane:
            with (
                pytest.raises(BrowserUnavailable, match=LOST),
                lane.scenario(name, ROW) as sc,
            ):
                sc.goto(base_url + "/rows")
                waiting.wait()
                started = time.monotonic()
                sc.wait_for_function("() => false", timeout_s=20)
            return time.monotonic() - started

    with BrowserSession(scratch=tmp_path) as session, ThreadPoolExecutor(2) as pool:
        lanes = [pool.submit(drive, name) for name in ("one", "two")]
        waiting.wait()
        time.sleep(0.3)  # both lanes are inside their 20 s waits
        os.kill(session.browser_pid, signal.SIGKILL)
        assert all(lane.result(timeout=10) < 5 for lane in lanes)
        assert session.lost
        with pytest.raises(BrowserUnavailable, match="exited"):
            pool.submit(lambda: session.lane().__enter__()).result(timeout=30)
