"""The journeys' call log in a real Chromium: a request the page sent and the server
answered carries its status and the role of its token; one the page sent and then aborted
is a sent request with no answer, never "never sent" (the difference between a page that
gave up and a page that never tried)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from benchwright.probes.browser import BrowserSession, Instrumentation, browser_available
from benchwright.services._server import BackgroundServer
from benchwright.suites.kit.browser.nav import open_page
from benchwright.suites.sb7.browser.flows._calls import CallLog
from benchwright.suites.sb7.browser.flows.views import NO_ANSWER
from benchwright.suites.sb7.context import Tokens

NO_BROWSER = browser_available()
pytestmark = [pytest.mark.slow, pytest.mark.skipif(NO_BROWSER is not None, reason="no Chromium")]
TOKENS = Tokens("mk-token", "ck-token", "ad-token")
PAGE = """<!doctype html><html><body><p id="done">waiting</p><script>
(async () => {
  await fetch("/api/drafts", {method: "POST", headers: {authorization: "Bearer mk-token"}});
  const stop = new AbortController();
  setTimeout(() => stop.abort(), 100);
  try { await fetch("/api/sync", {method: "POST", signal: stop.signal}); } catch (e) {}
  document.getElementById("done").textContent = "done";
})();
</script></body></html>"""


async def _slow_sync(_request: object) -> Response:
    await asyncio.sleep(3)  # far past the page's 100 ms patience
    return JSONResponse({"ok": True})


def _app() -> Starlette:
    return Starlette(routes=[
        Route("/", lambda _r: HTMLResponse(PAGE)),
        Route("/api/drafts", lambda _r: JSONResponse({"id": "d1"}, 201), methods=["POST"]),
        Route("/api/sync", _slow_sync, methods=["POST"]),
    ])  # fmt: skip


def test_an_aborted_call_is_sent_and_unanswered_and_an_answered_one_has_its_status(
    tmp_path: Path,
) -> None:
    with (
        BackgroundServer(_app()) as server,
        BrowserSession(artifacts=tmp_path) as browser,
        browser.scenario("calls", Instrumentation(), artifacts=tmp_path) as sc,
    ):
        calls = CallLog(re.compile(r"^/api/"), TOKENS).attach(sc.page)
        open_page(sc, server.base_url + "/")
        sc.wait_for_function("() => document.getElementById('done').textContent === 'done'",
                             timeout_s=10)  # fmt: skip
        seen = {(c.method, c.path): c for c in calls.snapshot()}
    assert seen[("POST", "/api/drafts")].status == 201
    assert seen[("POST", "/api/drafts")].bearer == "maker"
    assert calls.status_of("POST", re.compile(r"^/api/sync$")) == NO_ANSWER
    assert calls.status_of("GET", re.compile(r"^/api/summary$")) is None  # never sent
    assert not calls.answered("POST", re.compile(r"^/api/sync$"))
