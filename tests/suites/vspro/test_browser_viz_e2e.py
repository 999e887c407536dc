"""The 3D probes end to end: the golden app, synced, in real headless Chromium.

`observe_viz` and `observe_viz_fallback` run directly against the golden reference,
and every check they feed must earn its top rung there. A copy of the golden whose
bars are drawn taller than the data (while `window.vsdbg` still reports the data) is
the near miss: the canvas is not bound to the data, so scene binding fails although
vsdbg tells the truth about the data.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from backend_harness import REFERENCE, synced
from host_lease import host_to_itself
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from benchwright.model import Status
from benchwright.probes.browser import BrowserSession, browser_available
from benchwright.services._server import BackgroundServer
from benchwright.services.meridian import MeridianMock
from benchwright.suites.vspro.browser import BrowserObservation
from benchwright.suites.vspro.browser.viz import observe_viz, observe_viz_fallback
from benchwright.suites.vspro.checks import CheckSettings, build_table
from benchwright.suites.vspro.observations import Observations

NO_BROWSER = browser_available()  # starts and stops Chromium once, at collection
pytestmark = [pytest.mark.slow, pytest.mark.skipif(NO_BROWSER is not None, reason=str(NO_BROWSER))]
CHECKS = ("t_context_real", "t_scene_binding", "t_camera", "t_picking", "t_tooltip",
          "t_fallback", "t_vsdbg_truth", "p_first_frame", "e_frames_under_drag")  # fmt: skip
TALLER = ("h = b.h;", "h = b.h * 1.5;")
"""viz.js geometry: draw every bar 1.5x taller than its count says (vsdbg unchanged)."""


def _grade(tree: Path, tmp: Path, *, fallback: bool = True) -> tuple[dict, dict]:
    """Boot ``tree`` on a fresh db against a fresh mock, sync, probe; (rows, timings)."""
    timings: dict[str, float] = {}
    with synced(tree, tmp) as (mock, _app, ctx):
        scenarios = {}
        with BrowserSession(artifacts=tmp / "shots") as session:
            started = time.monotonic()
            scenarios["viz"] = observe_viz(session, ctx, tmp / "shots" / "viz")
            timings["viz_s"] = time.monotonic() - started
            if fallback:
                started = time.monotonic()
                scenarios["viz_fallback"] = observe_viz_fallback(session, ctx, tmp / "fb")
                timings["viz_fallback_s"] = time.monotonic() - started
        expect = mock.fixture.expect
    obs = Observations(0, expect, frozenset()).with_phase(
        "browser", BrowserObservation(None, scenarios)
    )
    return {"rows": _rows(obs), "viz": scenarios["viz"]}, timings


def _rows(obs: Observations) -> dict:
    table = build_table()
    return {c: table.evaluate_one(c, obs, CheckSettings()) for c in CHECKS}


@pytest.fixture(scope="module")
def golden(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> dict:
    """The golden panel's grading, with the host to itself: its frame and tooltip rows are
    held at their top rung."""
    with host_to_itself(request.config):
        found, timings = _grade(REFERENCE, tmp_path_factory.mktemp("viz-golden"))
    return {**found, "timings": timings}


@pytest.mark.parametrize("check_id", CHECKS)
def test_the_golden_panel_earns_every_top_rung(golden: dict, check_id: str) -> None:
    row = golden["rows"][check_id]
    print(f"{check_id}: {row.score} {row.detail}")  # the per-check evidence, with -s
    assert (row.status, row.score) == (Status.PASS, 1.0), row.detail


def test_the_golden_run_is_clean_fast_and_leaves_screenshots(golden: dict) -> None:
    viz = golden["viz"]
    assert not viz.lost and viz.blocked is None
    assert not viz.scenario.console_errors and not viz.scenario.page_errors
    assert viz.canvas.requested_attrs == {"antialias": False, "alpha": False}
    names = sorted(s.path.name for s in viz.scenario.screenshots)
    assert names == ["viz-after-drag.png", "viz-before-drag.png"]
    assert all(s.path.stat().st_size > 0 for s in viz.scenario.screenshots)
    before, after = (
        s.path.read_bytes()
        for s in sorted(viz.scenario.screenshots, key=lambda s: s.path.name)[::-1]
    )
    assert before != after, "the after-drag shot must show the moved camera, not the reset"
    assert golden["timings"]["viz_s"] < 40, golden["timings"]


def test_bars_drawn_taller_than_the_data_fail_scene_binding(tmp_path: Path) -> None:
    tree = tmp_path / "taller"
    shutil.copytree(REFERENCE, tree, ignore=shutil.ignore_patterns("*.db*", "__pycache__"))
    viz_js = tree / "vspro" / "web" / "viz.js"
    source = viz_js.read_text()
    assert source.count(TALLER[0]) == 1
    viz_js.write_text(source.replace(*TALLER))
    found, _ = _grade(tree, tmp_path, fallback=False)
    rows = found["rows"]
    print(f"taller bars: t_scene_binding {rows['t_scene_binding'].detail}")
    assert rows["t_scene_binding"].score < 0.9, rows["t_scene_binding"].detail
    assert rows["t_vsdbg_truth"].score == 1.0  # it reports the data; the canvas shows otherwise
    assert rows["t_context_real"].score == 1.0


BROKEN = """<!doctype html><title>broken</title>
<table><tbody><tr><td>1</td><td>2</td></tr></tbody></table>
<canvas id="viz3d" style="width:600px;height:300px;display:block"></canvas>
<script>
const cv = document.getElementById("viz3d");
cv.width = 300; cv.height = 150;  // half the CSS size: a blurry, mis-sized backing store
const gl = cv.getContext("webgl");
gl.clearColor(15 / 255, 23 / 255, 42 / 255, 1); gl.clear(gl.COLOR_BUFFER_BIT);  // never draws
window.vsdbg = { version: 3, scene() { throw new Error("not ready"); }, frames: () => "n/a" };
</script>"""


def test_a_broken_panel_is_the_apps_zero_never_a_lost_probe(tmp_path: Path) -> None:
    """A canvas that only clears, a mis-sized backing store, a vsdbg that throws: every
    section still measures, nothing is UNAVAILABLE, and each check names what it saw."""
    app = Starlette(routes=[Route("/", lambda r: HTMLResponse(BROKEN))])
    expect = MeridianMock(seed=0).fixture.expect
    with BackgroundServer(app) as server, BrowserSession(artifacts=tmp_path) as session:
        fixture = SimpleNamespace(expect=expect)
        ctx = SimpleNamespace(base_url=server.base_url, call=lambda path: None,  # no API
                              mock=SimpleNamespace(fixture=fixture))  # fmt: skip
        viz = observe_viz(session, ctx, tmp_path / "viz")  # type: ignore[arg-type]
    assert not viz.lost and viz.blocked is None
    assert viz.vsdbg.scene == {"error": "not ready"}
    obs = Observations(0, expect, frozenset()).with_phase(
        "browser", BrowserObservation(None, {"viz": viz})
    )
    rows = _rows(obs)
    assert not [c for c, r in rows.items() if r.status is Status.UNAVAILABLE]
    assert rows["t_context_real"].score == pytest.approx(0.45), rows["t_context_real"].detail
    assert "missed: backing, draws, grid" in rows["t_context_real"].detail
    assert rows["t_scene_binding"].detail.startswith("0: no bar surface where the data puts")
    assert rows["t_vsdbg_truth"].score == pytest.approx(0.1), rows["t_vsdbg_truth"].detail
    assert rows["p_first_frame"].detail == "0: the #viz3d context never issued a draw call"
    assert rows["e_frames_under_drag"].detail.startswith("0: frames unmeasurable")
    assert rows["t_tooltip"].detail.startswith("0: #viz-tooltip never appeared")
    assert rows["t_picking"].score == 0
    assert rows["t_fallback"].detail.startswith("0: no visible #viz-toggle; no-WebGL half unproven")
