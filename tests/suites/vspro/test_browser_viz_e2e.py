"""The 3D probes end to end: the golden app, synced, in real headless Chromium.

Every check `observe_viz` and `observe_viz_fallback` feed earns its top rung on the golden
reference, in the session's grading of it (`golden_twice`, with the host to itself: the
frame and tooltip rows are timed). A copy of the golden whose
bars are drawn taller than the data (while `window.vsdbg` still reports the data) is
the near miss: the canvas is not bound to the data, so scene binding fails although
vsdbg tells the truth about the data.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from backend_harness import REFERENCE, synced
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from benchwright.model import Status
from benchwright.probes.browser import BrowserSession, browser_available
from benchwright.services._server import BackgroundServer
from benchwright.services.meridian import MeridianMock
from benchwright.suites.vspro.browser import BrowserObservation
from benchwright.suites.vspro.browser.viz import observe_viz
from benchwright.suites.vspro.checks import CheckSettings, build_table
from benchwright.suites.vspro.observations import Observations

NO_BROWSER = browser_available()  # starts and stops Chromium once, at collection
pytestmark = [pytest.mark.slow, pytest.mark.skipif(NO_BROWSER is not None, reason=str(NO_BROWSER))]
CHECKS = ("t_context_real", "t_scene_binding", "t_camera", "t_picking", "t_tooltip",
          "t_fallback", "t_vsdbg_truth", "p_first_frame", "e_frames_under_drag")  # fmt: skip
TALLER = ("h = b.h;", "h = b.h * 1.5;")
"""viz.js geometry: draw every bar 1.5x taller than its count says (vsdbg unchanged)."""


def _viz_rows(tree: Path, tmp: Path) -> dict:
    """Boot ``tree`` on a fresh db against a fresh mock, sync, probe the panel; its rows."""
    with synced(tree, tmp) as (mock, _app, ctx):
        with BrowserSession(artifacts=tmp / "shots") as session:
            viz = observe_viz(session, ctx, tmp / "shots" / "viz")
        expect = mock.fixture.expect
    obs = Observations(0, expect, frozenset()).with_phase(
        "browser", BrowserObservation(None, {"viz": viz})
    )
    return _rows(obs)


def _rows(obs: Observations) -> dict:
    table = build_table()
    return {c: table.evaluate_one(c, obs, CheckSettings()) for c in CHECKS}


@pytest.fixture(scope="module")
def golden(golden_card: Path) -> dict:
    """The rows of the session's first grading of the golden (every phase, through the
    command line, the host to itself), by check id."""
    return {r["check_id"]: r for r in json.loads(golden_card.read_text())["grading"]["results"]}


@pytest.mark.parametrize("check_id", CHECKS)
def test_the_golden_panel_earns_every_top_rung(golden: dict, check_id: str) -> None:
    row = golden[check_id]
    assert (row["status"], row["score"]) == ("PASS", 1.0), row["detail"]


def test_the_golden_run_is_clean_and_leaves_screenshots(golden: dict) -> None:
    clean = golden["console_clean"]
    assert clean["status"] == "PASS" and "viz" in clean["detail"], clean["detail"]
    assert golden["t_context_real"]["evidence"]["attrs"] == {"antialias": False, "alpha": False}
    shots = sorted(Path(p) for p in golden["t_camera"]["evidence"]["screenshots"])
    assert [s.name for s in shots] == ["viz-after-drag.png", "viz-before-drag.png"]
    after, before = (s.read_bytes() for s in shots)
    assert before and after
    assert before != after, "the after-drag shot must show the moved camera, not the reset"


def test_bars_drawn_taller_than_the_data_fail_scene_binding(tmp_path: Path) -> None:
    tree = tmp_path / "taller"
    shutil.copytree(REFERENCE, tree, ignore=shutil.ignore_patterns("*.db*", "__pycache__"))
    viz_js = tree / "vspro" / "web" / "viz.js"
    source = viz_js.read_text()
    assert source.count(TALLER[0]) == 1
    viz_js.write_text(source.replace(*TALLER))
    rows = _viz_rows(tree, tmp_path)
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
