"""The ``viz`` scenario in a real Chromium against small pages (`sb7_viz_pages`): an honest
field earns 1.0 on the foundation rows, and each hostile page fails the row that names it
(a styled div, an image, a draw per column, an idle animation loop, a lying vs7dbg, a
UTC-day layout, labels never culled for collisions)."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from host_lease import host_to_itself
from sb7_observations import perfect, row
from sb7_viz_pages import TRUTH, pages_app

from benchwright.probes.browser import BrowserSession, Instrumentation, browser_available
from benchwright.services._server import BackgroundServer
from benchwright.suites.kit.browser import BrowserRecord
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.viz.scenario import observe_viz
from benchwright.suites.sb7.viz.view import VizView

NO_BROWSER = browser_available()
pytestmark = [pytest.mark.slow, pytest.mark.skipif(NO_BROWSER is not None, reason="no Chromium")]
ROWS = ("t_context_real", "t_layout_basis", "t_scene_binding", "t_draw_budget",
        "p_idle_flatness", "p_drag_frames", "e_frames_under_drag")  # fmt: skip


HOSTILE = ("per_column", "idle_loop", "liar", "utc_days", "div", "image", "unculled")
SIDE_BY_SIDE = 2
"""Hostile pages probed at once: their rows count draws, digests and labels, never time
(the honest page, whose frame rows are timed, is probed alone first)."""


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory,
         request: pytest.FixtureRequest) -> Iterator[dict[str, VizView]]:  # fmt: skip
    """Every page's view (a browser each: a scenario name runs once per session); the
    honest page's with the host to itself (its drag frames are held at the top rung), the
    hostile pages' beside other work (their rows count draws, digests and labels)."""
    shots = tmp_path_factory.mktemp("viz")
    with BackgroundServer(pages_app()) as server:

        def probe(name: str) -> VizView:
            ctx = SimpleNamespace(base_url=f"{server.base_url}/{name}")
            with BrowserSession(artifacts=shots / name) as browser, browser.lane() as lane:
                return observe_viz(lane, ctx, shots / name)

        with host_to_itself(request.config):
            views = {"honest": probe("honest")}
        with ThreadPoolExecutor(max_workers=SIDE_BY_SIDE) as pool:
            views |= dict(zip(HOSTILE, pool.map(probe, HOSTILE), strict=True))
    yield views


def _rows(view: VizView, rows: tuple[str, ...] = ROWS) -> dict[str, float]:
    obs: Observations = replace(perfect(), truth=TRUTH)
    obs = obs.with_phase("browser", BrowserRecord(None, {"viz": view}))
    return {c: row(obs, c).score for c in rows}


def test_the_honest_field_earns_one_on_every_foundation_row(seen) -> None:
    view = seen["honest"]
    assert view.lost == {} and view.records is not None and view.records["count"] == 30
    assert view.drag is not None and view.drag.window.frames >= 32
    assert _rows(view) == dict.fromkeys(ROWS, 1.0)
    assert Path(view.scenario.screenshots[0].path).is_file()


def test_a_draw_per_column_is_over_the_budget(seen) -> None:
    got = _rows(seen["per_column"])
    assert got["t_draw_budget"] == 0.25 and got["t_context_real"] == 1.0


def test_an_idle_animation_loop_fails_flatness(seen) -> None:
    got = _rows(seen["idle_loop"])
    assert got["p_idle_flatness"] == 0.0 and got["t_context_real"] == 1.0


def test_a_lying_or_utc_day_digest_fails_the_binding(seen) -> None:
    assert _rows(seen["liar"])["t_scene_binding"] < 0.5
    utc = _rows(seen["utc_days"])
    assert utc["t_scene_binding"] < 0.5 and utc["t_layout_basis"] < 1.0


@pytest.mark.parametrize("name", ["div", "image"])
def test_a_div_or_an_image_is_no_field(seen, name) -> None:
    got = _rows(seen[name])
    assert {c: got[c] for c in ("t_context_real", "t_draw_budget", "p_idle_flatness",
                                "p_drag_frames", "e_frames_under_drag")} == dict.fromkeys(
        ("t_context_real", "t_draw_budget", "p_idle_flatness", "p_drag_frames",
         "e_frames_under_drag"), 0.0)  # fmt: skip


def test_labels_never_culled_lose_the_set_and_the_overlap(seen) -> None:
    """Every on-canvas candidate labelled at its anchor, overlapping: the geometry, the
    data-ids and the occlusion stand (0.5), the set and the overlap fail."""
    view = seen["unculled"]
    assert view.labels is not None and sum(b.shown for b in view.labels.labels) >= 2
    assert _rows(view, ("t_labels_culling",)) == {"t_labels_culling": pytest.approx(0.5)}


@pytest.mark.parametrize(("name", "drawing"), [("idle_loop", True), ("honest", False)])
def test_after_a_lost_read_the_probe_still_sees_whether_the_field_draws_at_rest(
    tmp_path: Path, name: str, drawing: bool
) -> None:
    """A read lost to the bound skips every later one, except the longer counter readings
    `starved` takes over a rest: an idle animation loop shows its draws there (the
    evidence p_idle_flatness fails it on), an honest field none."""
    from benchwright.suites.kit.browser.nav import open_page
    from benchwright.suites.kit.browser.reads import PageReads
    from benchwright.suites.sb7.viz import _js as JS
    from benchwright.suites.sb7.viz.scenario import starved

    with (
        BackgroundServer(pages_app()) as server,
        BrowserSession(artifacts=tmp_path) as browser,
        browser.lane() as lane,
        lane.scenario("viz", Instrumentation(), artifacts=tmp_path) as sc,
    ):
        sc.context.add_init_script(script=JS.INIT)
        open_page(sc, f"{server.base_url}/{name}/")
        run = PageReads(sc)
        run.poll(JS.SETTLE, timeout_s=10)
        run.lost["context"] = "page-side read exceeded 10 s"  # as a starved page leaves it
        rest = starved(run)
    assert rest is not None and rest.ms >= 1900
    assert (rest.draws >= 2) if drawing else rest.draws == 0, rest  # REDRAWS proves a loop
