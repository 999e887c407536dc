"""``Scenario.goto`` says when the navigation's own answer is no page to drive -- and only
then: a page, a redirect to a page, or a page that is merely slow is never one."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from benchwright.probes.browser import BrowserSession, browser_available
from benchwright.services._server import BackgroundServer
from benchwright.services.ports import lease_port

pytestmark = pytest.mark.skipif(browser_available() is not None, reason="no headless Chromium")

PAGE = "<!doctype html><p>a page</p>"
_NAMES = itertools.count()
"""A scenario name runs once per session."""


async def _slow_page(request: Request) -> Response:
    await asyncio.sleep(1.5)
    return HTMLResponse(PAGE)


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    app = Starlette(routes=[
        Route("/page", lambda r: HTMLResponse(PAGE)),
        Route("/moved", lambda r: RedirectResponse("/page")),
        Route("/xhtml", lambda r: Response(PAGE, media_type="application/xhtml+xml")),
        Route("/untyped", lambda r: Response(PAGE.encode())),
        Route("/json", lambda r: JSONResponse({"status": "ok"})),
        Route("/html-404", lambda r: HTMLResponse(PAGE, status_code=404)),
        Route("/slow", _slow_page),
    ])  # fmt: skip
    with BackgroundServer(app) as server:
        yield server.base_url


@pytest.fixture(scope="module")
def session() -> Iterator[BrowserSession]:
    with BrowserSession() as browser:
        yield browser


def _no_page(session: BrowserSession, url: str, timeout_s: float = 10.0) -> str | None:
    with session.scenario(f"nav-{next(_NAMES)}") as sc:
        sc.goto(url, timeout_s=timeout_s)
        return sc.no_page


@pytest.mark.parametrize("path", ["/page", "/moved", "/xhtml", "/untyped"])
def test_a_page_is_a_page(session, base, path):
    assert _no_page(session, base + path) is None


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ("/missing", "`/missing` answered 404 text/plain: no page to drive"),
        ("/json", "`/json` answered 200 application/json: no page to drive"),
        ("/html-404", "`/html-404` answered 404 text/html: no page to drive"),
    ],
)
def test_an_answer_that_is_no_page_is_named(session, base, path, said):
    assert _no_page(session, base + path) == said


def test_no_answer_at_all_is_no_page(session):
    with lease_port() as lease:  # leased, never listened on: the connection is refused
        said = _no_page(session, f"http://127.0.0.1:{lease.port}/")
    assert said is not None and said.startswith("`/` did not answer (")
    assert "ERR_CONNECTION_REFUSED" in said and said.endswith("): no page to drive")


def test_a_page_slower_than_the_bound_is_undecided_not_no_page(session, base):
    with session.scenario("slow") as sc:
        assert sc.goto(base + "/slow", timeout_s=0.5) is None
        assert sc.no_page is None  # a timing never decides
        assert sc.wait_for_selector("p", timeout_s=10.0)  # ... and the page did come
