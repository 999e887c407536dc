"""The browser phase's lanes in real Chromium: side by side on one browser, every scenario
timed, and a browser killed mid-phase ends the phase promptly as UNAVAILABLE."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from benchwright.probes.browser import browser_available
from benchwright.services._server import BackgroundServer
from benchwright.suites.vspro.browser import _phase, browser
from benchwright.suites.vspro.context import GradeSettings

pytestmark = [
    pytest.mark.skipif(browser_available() is not None, reason="no headless Chromium"),
    pytest.mark.alone,  # lanes must start within 1.5 s of each other, a phase end within 10 s
]


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    page = HTMLResponse("<!doctype html><p>a page that needs nothing</p>")
    with BackgroundServer(Starlette(routes=[Route("/", lambda r: page)])) as server:
        yield server.base_url + "/"


WAITED: dict[str, tuple[float, float]] = {}
"""Scenario -> (start, end) of its page wait, on the monotonic clock."""


def _waiting(name: str, url: str, wait_ms: int, met: threading.Barrier | None = None):
    """A step: scenario ``name`` opens ``url``, meets the other lanes, then waits ``wait_ms``."""

    def observe(lane, ctx, shots):
        with lane.scenario(name, artifacts=shots) as sc:
            sc.goto(url)
            if met is not None:
                met.wait()
            started = time.monotonic()
            sc.page.wait_for_timeout(wait_ms)
            WAITED[name] = (started, time.monotonic())
        return sc.observation

    return lambda lane, ctx, shots, seen: seen.run(name, observe, lane, ctx, shots)


def _raising(lane, ctx, shots, seen):
    def observe(lane, ctx, shots):
        raise KeyError("the probe tripped")

    seen.run("broken", observe, lane, ctx, shots)


def _phase_with(monkeypatch, tmp_path: Path, plan: list[tuple]):
    monkeypatch.setattr(_phase, "_plan", lambda: plan)
    started = time.monotonic()
    seen = browser(SimpleNamespace(work=tmp_path, settings=GradeSettings()), None)
    return seen, time.monotonic() - started


def _live_in_group(pgid: int) -> list[int]:
    """Processes of a process group that still run (zombies awaiting their reaper are not)."""
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            found.append(int(entry))
    return found


def _lane_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("browser-lane")]


@pytest.mark.slow
def test_lanes_run_side_by_side_and_every_scenario_is_timed(monkeypatch, tmp_path, url):
    plan = [
        (_waiting("a1", url, 1500), _waiting("a2", url, 200)),
        (_waiting("b1", url, 1500), _raising),
        (_waiting("c1", url, 1500),),
    ]
    seen, took = _phase_with(monkeypatch, tmp_path, plan)
    assert seen.unavailable is None
    assert set(seen.scenarios) == {"a1", "a2", "b1", "c1"}
    assert seen.scenario_errors == {"broken": "KeyError: 'the probe tripped'"}
    assert set(seen.scenario_seconds) == {"a1", "a2", "b1", "c1", "broken"}
    assert all(seen.scenario_seconds[n] >= 1.5 for n in ("a1", "b1", "c1"))
    waits = [WAITED[n] for n in ("a1", "b1", "c1")]
    assert max(start for start, _ in waits) < min(end for _, end in waits), "side by side"
    assert 0 < seen.wall_s <= took + 0.001


@pytest.mark.slow
def test_a_browser_killed_mid_phase_is_unavailable_promptly_and_no_lane_hangs(
    monkeypatch, tmp_path, url
):
    met = threading.Barrier(3, timeout=30)
    pids: list[int] = []

    def killer(lane, ctx, shots, seen):
        met.wait()  # the other two lanes are about to wait 30 s on their pages
        time.sleep(0.3)
        pids.append(lane.session.browser_pid)
        os.kill(lane.session.browser_pid, signal.SIGKILL)
        _waiting("after", url, 0)(lane, ctx, shots, seen)  # this lane's next scenario

    plan = [
        (_waiting("a", url, 30_000, met), _waiting("a-next", url, 0)),
        (_waiting("b", url, 30_000, met),),
        (killer,),
    ]
    seen, took = _phase_with(monkeypatch, tmp_path, plan)
    assert took < 10, "every lane noticed the dead browser at once"
    assert seen.unavailable is not None and "browser process exited" in seen.unavailable
    assert not {"a", "b", "a-next", "after"} & set(seen.scenarios)
    assert {"a", "b"} <= set(seen.scenario_seconds)
    deadline = time.monotonic() + 5
    while _lane_threads() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _lane_threads()
    assert not _live_in_group(pids[0])  # nothing of that Chromium is left


@pytest.mark.slow
def test_a_lane_that_fails_otherwise_stops_the_others_and_fails_the_phase(
    monkeypatch, tmp_path, url
):
    def boom(lane, ctx, shots, seen):
        raise RuntimeError("the harness broke")

    plan = [(_waiting("long", url, 30_000),), (boom,)]
    started = time.monotonic()
    with pytest.raises(RuntimeError, match="the harness broke"):
        _phase_with(monkeypatch, tmp_path, plan)
    assert time.monotonic() - started < 10
