"""An app whose ``/`` answers with no page: every scenario ends at its navigation, and its
rows fail naming the answer -- while an app that serves a page is driven as before."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route
from vspro_canned import FIXTURE, grade_one, perfect

from benchwright.model import Status
from benchwright.probes.browser import browser_available
from benchwright.services._server import BackgroundServer
from benchwright.suites.kit.browser import scenario
from benchwright.suites.kit.browser.states import observe_empty, observe_error
from benchwright.suites.vspro.browser import _phase, browser
from benchwright.suites.vspro.browser._load import observe_load
from benchwright.suites.vspro.browser._views import BrowserObservation
from benchwright.suites.vspro.browser.viz import observe_viz, observe_viz_fallback
from benchwright.suites.vspro.context import GradeSettings

NO_PAGE = "`/` answered 404 application/json: no page to drive"
ROWS = "".join(f"<tr><td>pay_{i}</td><td>settled</td></tr>" for i in range(3))
PAGE = f"<!doctype html><table><tbody>{ROWS}</tbody></table>"
needs_chromium = pytest.mark.skipif(browser_available() is not None, reason="no headless Chromium")


def _serving(app: Starlette) -> Iterator[SimpleNamespace]:
    with BackgroundServer(app) as server:
        yield SimpleNamespace(base_url=server.base_url, mock=SimpleNamespace(fixture=FIXTURE))


@pytest.fixture(scope="module")
def api_only() -> Iterator[SimpleNamespace]:
    """Only JSON: 404 for ``/`` and for everything else."""
    yield from _serving(Starlette(routes=[], exception_handlers={
        404: lambda request, exc: JSONResponse({"error": "nope"}, status_code=404)}))  # fmt: skip


@pytest.fixture(scope="module")
def a_page() -> Iterator[SimpleNamespace]:
    yield from _serving(Starlette(routes=[Route("/", lambda r: HTMLResponse(PAGE))]))


def _phase_over(monkeypatch, ctx: SimpleNamespace, work: Path, scenarios: dict) -> Any:
    """The real browser phase, its lanes the given scenarios (one lane each)."""
    plan = [(scenario(name, observe),) for name, observe in scenarios.items()]
    monkeypatch.setattr(_phase, "_plan", lambda: plan)
    return browser(SimpleNamespace(**vars(ctx), work=work, settings=GradeSettings()), None)


@needs_chromium
def test_every_scenario_stops_at_a_slash_that_is_no_page(monkeypatch, tmp_path, api_only):
    scenarios = {"load": observe_load, "error": observe_error, "empty": observe_empty,
                 "viz": observe_viz, "viz_fallback": observe_viz_fallback}  # fmt: skip
    seen = _phase_over(monkeypatch, api_only, tmp_path, scenarios)
    assert seen.unavailable is None and not seen.scenario_errors
    assert seen.no_page == dict.fromkeys(("load", "viz", "viz_fallback"), NO_PAGE)
    assert set(seen.scenario_seconds) == set(scenarios)
    # error and empty grade what the browser shows: read at once, named, never waited on
    assert {n: v.no_page for n, v in seen.scenarios.items()} == dict.fromkeys(
        ("error", "empty"), NO_PAGE
    )
    assert seen.scenarios["error"].retry_recovered is None  # no retry on a page that is none
    obs = perfect().with_phase("browser", seen)
    empty, error = grade_one(obs, "j_empty_state"), grade_one(obs, "j_error_state")
    # the methodology's rung for text without the state, as the public probe would give it
    assert empty.score == 0.3 and empty.detail.endswith(f"[{NO_PAGE}: read at once]")
    assert error.score == 0.3 and error.detail.endswith(f"[{NO_PAGE}: read at once]")


@needs_chromium
def test_a_page_is_driven_as_before(monkeypatch, tmp_path, a_page):
    seen = _phase_over(monkeypatch, a_page, tmp_path, {"load": observe_load})
    assert seen.unavailable is None and not seen.scenario_errors and not seen.no_page
    load = seen.scenarios["load"]
    assert load.rows == 3 and load.first_row_ms is not None and load.scenario.status == 200


def _graded(no_page: dict[str, str], scenarios: dict | None = None) -> dict:
    obs = perfect().with_phase("browser", BrowserObservation(None, scenarios or {}, {},
                                                             no_page=no_page))  # fmt: skip
    rows = ("j_loads_data", "p_page_interactive", "console_clean", "j_empty_state",
            "t_context_real", "t_fallback", "j_error_state", "j_sync_journey")  # fmt: skip
    return {c: grade_one(obs, c) for c in rows}


def test_the_rows_of_a_slash_that_is_no_page_fail_and_say_what_it_answered():
    names = ("load", "note", "error", "viz", "viz_fallback", "empty", "sync")
    rows = _graded(dict.fromkeys(names, NO_PAGE))
    assert all(r.status is Status.FAIL and r.score == 0.0 for r in rows.values())
    assert rows["j_loads_data"].detail == f"0: {NO_PAGE} (load scenario)"
    assert rows["t_context_real"].detail == f"0: {NO_PAGE} (viz scenario)"
    assert rows["j_empty_state"].detail == f"0: {NO_PAGE} (empty scenario)"
    assert rows["p_page_interactive"].detail == f"0: no first-row stamp ({NO_PAGE})"
    assert f"load: {NO_PAGE}" in rows["console_clean"].detail


def test_a_scenario_that_raised_stays_unavailable_beside_one_with_no_page():
    obs = perfect().with_phase("browser", BrowserObservation(
        None, {}, {"load": "TimeoutError: stuck"}, no_page={"empty": NO_PAGE}))  # fmt: skip
    assert grade_one(obs, "j_loads_data").status is Status.UNAVAILABLE
    assert grade_one(obs, "j_empty_state").status is Status.FAIL
