"""The sb-7 browser phase's discovery hook: a module of `LANE_MODULES` that is installed
and exposes a non-empty ``SCENARIOS`` is one more lane (its ``REPEATABLE`` joins the
re-timed scenarios); a missing one, one whose parent package is missing, or one with no
scenarios yet adds nothing. `settled` lets a lane wait for another's scenario; every lane
but ``load``'s waits for ``load`` (its first-data time is the app's alone)."""

from __future__ import annotations

import threading
from pathlib import Path
from types import SimpleNamespace

from benchwright.suites.kit.browser import scenarios_of
from benchwright.suites.sb7.browser import LOAD, phase
from benchwright.suites.sb7.browser.lanes import own_lanes

LANE = """
from benchwright.suites.kit.browser import scenario

def observe_probe(lane, ctx, shots):
    return "seen"

SCENARIOS = (scenario("probe", observe_probe),)
REPEATABLE = {"probe": observe_probe}
"""


def _install(monkeypatch, tmp_path: Path) -> None:
    (tmp_path / "bw_lane_full.py").write_text(LANE)
    (tmp_path / "bw_lane_bare.py").write_text("SCENARIOS = ()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    names = ("bw_lane_full", "bw_lane_bare", "bw_lane_absent", "bw_no_package.lane")
    monkeypatch.setattr(phase, "LANE_MODULES", names)


def test_only_installed_modules_with_scenarios_add_a_lane(monkeypatch, tmp_path) -> None:
    _install(monkeypatch, tmp_path)
    found = phase.discovered()
    assert [m.__name__ for m in found] == ["bw_lane_full"]
    plan = phase._plan(found)
    assert len(plan) == len(own_lanes()) + 1 and plan[0][1:] == found[0].SCENARIOS
    assert set(phase._repeatable(found)) == {LOAD, "probe"}


def test_the_shipped_modules_are_optional() -> None:
    found = phase.discovered()
    assert len(phase._plan(found)) == len(own_lanes()) + len(found)


def test_settled_waits_for_a_scenario_another_lane_runs(tmp_path) -> None:
    seen = phase._Seen()
    lane = SimpleNamespace(ensure_alive=lambda why: None)
    waiting = threading.Thread(target=phase.settled(LOAD), args=(lane, None, tmp_path, seen))
    waiting.start()
    seen.run(LOAD, lambda lane, ctx, shots: "view", lane, None, tmp_path)  # type: ignore[arg-type]
    waiting.join(timeout=phase.SETTLED_S)
    assert not waiting.is_alive() and seen.scenarios[LOAD] == "view"


def test_every_other_lane_starts_once_load_has_ended(monkeypatch, tmp_path) -> None:
    """Each lane's first step but ``load``'s is still waiting while ``load`` runs (it can
    end only once ``load`` has, or after `SETTLED_S`), and ends once ``load`` has."""
    _install(monkeypatch, tmp_path)
    plan = phase._plan(phase.discovered())
    assert [scenarios_of(lane) for lane in plan][-1] == (LOAD,)
    seen = phase._Seen()
    lane = SimpleNamespace(ensure_alive=lambda why: None)
    waiting = [threading.Thread(target=steps[0], args=(lane, None, tmp_path, seen))
               for steps in plan[:-1]]  # fmt: skip
    for thread in waiting:
        thread.start()
    for thread in waiting:
        thread.join(timeout=0.2)
    assert len(waiting) == 2 and all(thread.is_alive() for thread in waiting)
    seen.run(LOAD, lambda lane, ctx, shots: "view", lane, None, tmp_path)  # type: ignore[arg-type]
    for thread in waiting:
        thread.join(timeout=phase.SETTLED_S)
    assert not any(thread.is_alive() for thread in waiting)
