"""The error scenario's retry against small pages served locally, with the API blocked in
the browser and then let through: the rows the page shows afterwards decide whether it
recovered, not whether the probe's click landed. A page that also retries by itself may
recover in the moment between the unblocking and the click and take its retry control
away (the golden console does, every 3 s): on a loaded host that once cost it its
j_error_state rung. A retry that brings nothing back still fails."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from benchwright.probes.browser import BrowserSession, browser_available
from benchwright.services._server import BackgroundServer
from benchwright.suites.kit.browser.state_rows import error_row
from benchwright.suites.kit.browser.states import observe_error

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser_available() is not None, reason="no headless Chromium"),
]

PAGE = """<!doctype html><html><body>
<p id="error" role="alert" hidden>Payments could not load. Check the server, then try again.</p>
<button id="retry" hidden %(disabled)s>Try again</button>
<table><tbody id="rows"></tbody></table>
<script>
const load = () => fetch('/api/payments').then((r) => r.json()).then((body) => {
  %(render)s
}).catch(() => { error.hidden = false; retry.hidden = false; });
retry.addEventListener('click', %(on_click)s);
load();
%(by_itself)s
</script></body></html>"""
RENDER = """document.getElementById('rows').innerHTML =
    body.data.map((p) => `<tr><td>${p.id}</td><td>${p.amount}</td></tr>`).join('');
  error.hidden = true; retry.hidden = true;"""
PAGES = {
    # Retries by itself; its control says so and cannot be pressed meanwhile: the probe's
    # click never lands, the rows come back.
    "self-healing": {"disabled": "disabled", "render": RENDER, "on_click": "load",
                     "by_itself": "setInterval(load, 200);"},
    # The honest retry button: a click loads again.
    "retry": {"disabled": "", "render": RENDER, "on_click": "load", "by_itself": ""},
    # A retry that brings nothing back: the click is answered, no row ever shows.
    "dead-retry": {"disabled": "", "render": "", "on_click": "load", "by_itself": ""},
}  # fmt: skip


def _payments(_request: Request) -> JSONResponse:
    return JSONResponse({"data": [{"id": "p1", "amount": "€1.00"}], "total": 1})


@pytest.fixture
def session() -> Iterator[BrowserSession]:
    """A browser per test: a session runs each scenario name once."""
    with BrowserSession() as browser:
        yield browser


def _observed(session: BrowserSession, name: str, tmp_path) -> object:
    page = PAGE % PAGES[name]
    app = Starlette(routes=[Route("/", lambda _r: HTMLResponse(page)),
                            Route("/api/payments", _payments)])  # fmt: skip
    with BackgroundServer(app) as server:
        return observe_error(session, SimpleNamespace(base_url=server.base_url), tmp_path)


@pytest.mark.parametrize("name", ["self-healing", "retry"])
def test_a_page_that_comes_back_after_the_unblocking_recovered(session, name, tmp_path):
    seen = _observed(session, name, tmp_path)
    assert seen.error_visible and seen.actionable_text is not None
    assert seen.retry_recovered is True
    assert error_row("j_error_state", seen).score == 1.0


def test_a_retry_that_brings_nothing_back_did_not_recover(session, tmp_path):
    seen = _observed(session, "dead-retry", tmp_path)
    assert seen.error_visible and seen.retry_recovered is False
    row = error_row("j_error_state", seen)
    assert row.score == 0.6 and "did not recover" in row.detail
