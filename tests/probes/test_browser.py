"""The browser probe against pages served on loopback, in Debian's real headless Chromium."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse
from starlette.routing import Route

from benchwright.errors import BenchwrightError
from benchwright.probes.browser import (
    DATA_REQUESTS,
    BrowserSession,
    BrowserUnavailable,
    Hold,
    Instrumentation,
    browser_available,
    data_request,
    png_size,
)
from benchwright.services._server import BackgroundServer

ROWS_PAGE = """<!doctype html><html><body><table id="t"></table><script>
const add = (visible) => {
  const row = document.createElement("tr");
  row.className = "row";
  row.innerHTML = "<td>payment 1</td>";
  if (!visible) row.style.display = "none";
  if (visible) window.visibleRowAt = performance.now();
  document.getElementById("t").appendChild(row);
};
setTimeout(() => add(false), 50);   // a hidden row must not stamp
setTimeout(() => add(true), 300);
</script></body></html>"""

ERRORS_PAGE = """<!doctype html><html><head><link rel="icon" href="/favicon.ico"></head>
<body><img src="/missing.png"><script>
console.error("boom from the app");
console.warn("only a warning");
setTimeout(() => { throw new TypeError("thrown late"); }, 10);
Promise.reject(new Error("nobody caught me"));
</script></body></html>"""

WEBGL_PAGE = """<!doctype html><html><body>
<canvas id="one" width="64" height="64"></canvas><canvas id="two" width="8" height="8"></canvas>
<canvas id="flat" width="8" height="8"></canvas><p id="fallback" hidden>WebGL is unavailable</p>
<script>
const VS = "attribute vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }";
const FS = "precision mediump float; void main() { gl_FragColor = vec4(1.0, 0.0, 0.0, 1.0); }";
function program(gl) {
  const prog = gl.createProgram();
  for (const [type, src] of [[gl.VERTEX_SHADER, VS], [gl.FRAGMENT_SHADER, FS]]) {
    const s = gl.createShader(type); gl.shaderSource(s, src); gl.compileShader(s);
    gl.attachShader(prog, s);
  }
  gl.linkProgram(prog); gl.useProgram(prog);
  gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, 0, 1]), gl.STATIC_DRAW);
  gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
}
window.flat = !!document.getElementById("flat").getContext("2d");
const gl = document.getElementById("one").getContext("webgl", {preserveDrawingBuffer: true});
if (!gl) {
  document.getElementById("fallback").hidden = false;
} else {
  program(gl);
  for (let frame = 0; frame < 3; frame++) gl.drawArrays(gl.TRIANGLES, 0, 3);
  const ext = gl.getExtension("ANGLE_instanced_arrays");
  if (ext) ext.drawArraysInstancedANGLE(gl.TRIANGLES, 0, 3, 2);
  const px = new Uint8Array(4);
  gl.readPixels(32, 20, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
  window.centre = Array.from(px);
  const gl2 = document.getElementById("two").getContext("webgl2");
  program(gl2);
  gl2.drawArraysInstanced(gl2.TRIANGLES, 0, 3, 4);
  gl2.drawArraysInstanced(gl2.TRIANGLES, 0, 3, 4);
  gl2.bindBuffer(gl2.ELEMENT_ARRAY_BUFFER, gl2.createBuffer());
  gl2.bufferData(gl2.ELEMENT_ARRAY_BUFFER, new Uint16Array([0, 1, 2]), gl2.STATIC_DRAW);
  gl2.drawElements(gl2.TRIANGLES, 3, gl2.UNSIGNED_SHORT, 0);
}
window.done = true;
</script></body></html>"""

FETCH_PAGE = """<!doctype html><html><body><script>
const timed = async (url) => {
  const t0 = performance.now();
  try {
    const r = await fetch(url);
    await r.text();
    return {url, ok: r.ok, ms: performance.now() - t0};
  } catch (e) {
    return {url, ok: false, error: String(e), ms: performance.now() - t0};
  }
};
window.results = null;
Promise.all(["/api/rows", "/data.json", "/graphql", "/static.txt"].map(timed))
  .then((all) => { window.results = all; });
</script></body></html>"""

HUNG_PAGE = """<!doctype html><html><body><p>loaded</p><script>
setTimeout(() => { for (;;) {} }, 200);  // the main thread never comes back
</script></body></html>"""

SHOTS_PAGE = """<!doctype html><html><body style="margin:0">
<div style="height:2000px;background:#eef"><div id="card"
 style="width:300px;height:120px;background:#c33">card</div></div></body></html>"""


HITS: list[str] = []
"""Paths the test server was asked for, in order."""


class _Recorder:
    def __init__(self, app: Starlette) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            HITS.append(scope["path"])
        await self.app(scope, receive, send)


def _app() -> _Recorder:
    page = lambda html: lambda request: HTMLResponse(html)  # noqa: E731
    app = Starlette(
        routes=[
            Route("/rows", page(ROWS_PAGE)),
            Route("/errors", page(ERRORS_PAGE)),
            Route("/webgl", page(WEBGL_PAGE)),
            Route("/fetch", page(FETCH_PAGE)),
            Route("/shots", page(SHOTS_PAGE)),
            Route("/hung", page(HUNG_PAGE)),
            Route("/api/rows", lambda r: JSONResponse({"rows": [1, 2]})),
            Route("/data.json", lambda r: JSONResponse({"ok": True})),
            Route("/graphql", lambda r: JSONResponse({"data": {}})),
            Route("/static.txt", lambda r: PlainTextResponse("hello")),
        ]
    )
    return _Recorder(app)


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with BackgroundServer(_app()) as server:
        yield server.base_url


@pytest.fixture(scope="module")
def session(tmp_path_factory) -> Iterator[BrowserSession]:
    """One browser for the module, as a grading reuses one across its scenarios."""
    scratch = tmp_path_factory.mktemp("browser")
    try:
        browser = BrowserSession(scratch=scratch).start()
    except BrowserUnavailable as exc:  # make setup installs it: absence is a failure here
        pytest.fail(f"{exc} (run 'make setup')")
    yield browser
    browser.close()


# -- the first visible row ------------------------------------------------------------------


def test_first_row_is_stamped_when_a_visible_row_appears(session, base_url):
    with session.scenario("rows", Instrumentation(row_selector="tr.row")) as sc:
        assert sc.goto(base_url + "/rows") == 200
        stamp = sc.wait_for_first_row(timeout_s=5)
        inserted = sc.page.evaluate("() => window.visibleRowAt")
    assert stamp is not None and inserted is not None
    assert inserted <= stamp < inserted + 200  # the hidden row at 50 ms did not count
    assert sc.observation.first_row_ms == stamp
    assert sc.observation.navigation_error is None


def test_no_matching_row_leaves_the_stamp_empty_within_the_bound(session, base_url):
    with session.scenario("no-rows", Instrumentation(row_selector="tr.payment")) as sc:
        sc.goto(base_url + "/rows")
        started = time.perf_counter()
        assert sc.wait_for_first_row(timeout_s=0.5) is None
        assert time.perf_counter() - started < 3
    assert sc.observation.first_row_ms is None


# -- console and page errors ----------------------------------------------------------------


def _favicon_logged(sc) -> bool:
    obs = sc.observe()
    messages = obs.console_errors + obs.console_filtered
    return any((m.url or "").endswith("/favicon.ico") for m in messages)


def test_console_and_page_errors_are_collected_and_the_favicon_404_is_not(session):
    # A fresh origin: Chromium asks an origin for its favicon once per browser, not per context.
    with BackgroundServer(_app()) as server, session.scenario("errors") as sc:
        sc.goto(server.base_url + "/errors")
        deadline = time.monotonic() + 5  # the browser, not the page, fetches the favicon
        while not _favicon_logged(sc) and time.monotonic() < deadline:
            sc.page.wait_for_timeout(50)
        assert "/favicon.ico" in HITS
    obs = sc.observation
    texts = [m.text for m in obs.console_errors]
    assert "boom from the app" in texts
    assert "only a warning" not in texts
    missing = [m for m in obs.console_errors if (m.url or "").endswith("/missing.png")]
    assert len(missing) == 1 and "404" in missing[0].text  # a real 404 is kept
    assert not any((m.url or "").endswith("/favicon.ico") for m in obs.console_errors)
    assert [(m.url or "").rsplit("/", 1)[-1] for m in obs.console_filtered] == ["favicon.ico"]
    errors = {(e.name, e.message) for e in obs.page_errors}
    assert ("TypeError", "thrown late") in errors
    assert any("nobody caught me" in message for _, message in errors)


# -- WebGL ----------------------------------------------------------------------------------


def test_draw_calls_are_counted_per_context_and_entry_point(session, base_url):
    with session.scenario("webgl") as sc:
        sc.goto(base_url + "/webgl")
        assert sc.wait_for_function("() => window.done", timeout_s=5)
        centre = sc.page.evaluate("() => window.centre")
    assert centre == [255, 0, 0, 255]  # the triangle really rendered (SwiftShader)
    one, two = sc.observation.webgl_contexts
    assert (one.kind, one.canvas_id, two.kind, two.canvas_id) == ("webgl", "one", "webgl2", "two")
    assert one.calls == (("drawArrays", 3), ("drawArraysInstancedANGLE", 1))
    assert two.calls == (("drawArraysInstanced", 2), ("drawElements", 1))
    assert two.count("drawArrays") == 0
    assert sc.observation.draw_calls == 7
    assert one.first_draw_ms is not None and one.first_draw_ms >= one.created_ms
    assert sc.observation.webgl_refused == 0


def test_disabled_webgl_makes_get_context_null_and_the_page_falls_back(session, base_url):
    with session.scenario("no-webgl", Instrumentation(disable_webgl=True)) as sc:
        sc.goto(base_url + "/webgl")
        assert sc.wait_for_selector("#fallback", timeout_s=5)
        assert sc.page.evaluate("() => window.flat") is True  # 2D canvases still work
    assert sc.observation.webgl_contexts == ()
    assert sc.observation.webgl_refused == 1
    assert sc.observation.draw_calls == 0


# -- held and aborted requests --------------------------------------------------------------


def _results(sc) -> dict[str, dict]:
    results = sc.wait_for_function("() => window.results", timeout_s=8)
    assert results is not None
    return {r["url"]: r for r in results}


def test_a_held_request_is_delayed_at_least_the_hold(session, base_url):
    instrument = Instrumentation(holds=(Hold("**/api/rows", 600),))
    with session.scenario("hold", instrument) as sc:
        sc.goto(base_url + "/fetch")
        results = _results(sc)
    assert results["/api/rows"]["ok"] and results["/api/rows"]["ms"] >= 600
    assert results["/static.txt"]["ok"] and results["/static.txt"]["ms"] < 600  # not held
    (held,) = sc.observation.requests
    assert held.action == "held" and held.url.endswith("/api/rows") and held.hold_ms >= 600


def test_aborted_data_requests_fail_in_the_page(session, base_url):
    with session.scenario("abort", Instrumentation(aborts=(DATA_REQUESTS,))) as sc:
        sc.goto(base_url + "/fetch")
        results = _results(sc)
        sc.page.wait_for_timeout(100)
    for url in ("/api/rows", "/data.json", "/graphql"):
        assert results[url]["ok"] is False and "Failed to fetch" in results[url]["error"]
    assert results["/static.txt"]["ok"] is True
    obs = sc.observation
    assert sorted(r.url.rsplit("/", 1)[-1] for r in obs.requests) == [
        "data.json",
        "graphql",
        "rows",
    ]
    assert {r.action for r in obs.requests} == {"aborted"}
    assert obs.console_errors == ()  # the failed loads the probe caused are set aside
    assert {m.filtered for m in obs.console_filtered} == {"aborted by the probe"}


@pytest.mark.parametrize(
    ("url", "data"),
    [
        ("http://h/api/payments?limit=5", True),
        ("http://h/api", True),
        ("http://h/data/x", True),
        ("http://h/graphql", True),
        ("http://h/static/rows.json?v=2", True),
        ("http://h/apis/x", False),
        ("http://h/app.js", False),
        ("http://h/", False),
    ],
)
def test_data_request_matches_api_data_graphql_and_json(url, data):
    assert data_request(url) is data


# -- screenshots ----------------------------------------------------------------------------


def test_screenshots_are_pngs_of_the_expected_size(session, base_url):
    with session.scenario("shots") as sc:
        sc.goto(base_url + "/shots")
        full = sc.screenshot("full")
        view = sc.screenshot("view", full_page=False)
        card = sc.screenshot("card", selector="#card")
        assert sc.screenshot("absent", selector="#nope", timeout_s=0.5) is None
    assert full is not None and (full.width, full.height) == (1280, 2000)
    assert view is not None and (view.width, view.height) == (1280, 800)
    assert card is not None and (card.width, card.height) == (300, 120)
    for shot in (full, view, card):
        data = shot.path.read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and data.endswith(b"IEND\xaeB`\x82")
        assert png_size(shot.path) == (shot.width, shot.height)
    assert sc.observation.screenshots == (full, view, card)


def test_png_size_refuses_a_file_that_is_no_png(tmp_path):
    fake = tmp_path / "x.png"
    fake.write_bytes(b"GIF89a" + bytes(30))
    with pytest.raises(ValueError, match="not a PNG"):
        png_size(fake)


# -- a hung or crashed page is the app's, and every wait on it is bounded -------------------


@pytest.mark.slow
def test_a_hung_page_cannot_hang_the_probe(session, base_url):
    started = time.perf_counter()
    instrument = Instrumentation(row_selector="tr")
    with session.scenario("hung", instrument, read_timeout_s=0.5) as sc:
        assert sc.goto(base_url + "/hung", timeout_s=3) == 200
        sc.page.wait_for_timeout(400)
        assert sc.wait_for_first_row(timeout_s=0.5) is None
        assert sc.screenshot("hung", timeout_s=0.5) is None
    assert time.perf_counter() - started < 6
    obs = sc.observation
    assert obs.first_row_ms is None and obs.webgl_contexts == () and obs.screenshots == ()
    assert obs.status == 200 and not obs.page_crashed


def test_a_crashed_renderer_is_observed_and_the_browser_survives(session, base_url):
    with session.scenario("crash") as sc:
        with contextlib.suppress(PlaywrightError):
            sc.page.goto("chrome://crash", timeout=3000)
        assert sc.wait_for_selector("body", timeout_s=1) is False
    assert sc.observation.page_crashed
    with session.scenario("after-crash") as sc:
        assert sc.goto(base_url + "/rows") == 200


# -- an absent or dying browser -------------------------------------------------------------


def test_a_missing_browser_raises_browser_unavailable_with_the_reason(tmp_path):
    bogus = tmp_path / "no" / "chromium"
    with pytest.raises(BrowserUnavailable) as caught:
        BrowserSession(executable=bogus).start()
    assert isinstance(caught.value, BenchwrightError)
    reason = caught.value.reason
    assert reason == f"Chromium not found at {bogus}; " + (
        "install it with 'apt-get install -y chromium' (or run 'make setup' as root)"
    )
    assert str(caught.value) == f"browser unavailable: {reason}"
    assert browser_available(bogus) == reason


def test_without_playwright_the_browser_is_unavailable(monkeypatch):
    monkeypatch.setitem(sys.modules, "playwright.sync_api", None)  # import now fails
    assert browser_available() == (
        "the playwright package is not installed: pip install 'benchwright[browser]'"
    )


def test_a_binary_that_is_no_browser_is_unavailable_not_a_crash(tmp_path):
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\necho 'chromium: cannot open display' >&2\nexit 1\n")
    fake.chmod(0o755)
    reason = browser_available(fake)
    assert reason is not None and reason.startswith(f"Chromium at {fake} did not start: ")


def test_the_real_browser_is_available():
    assert browser_available() is None


def _parents() -> dict[int, int]:
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if fields[0] != "Z":
                parents[int(entry)] = int(fields[1])
    return parents


def _chromium_descendants() -> set[int]:
    """Live Chromium processes whose parent chain leads to this test process."""
    parents, found = _parents(), set()
    for pid in parents:
        chain, cur = set(), pid
        while cur in parents and cur not in chain and cur != os.getpid():
            chain.add(cur)
            cur = parents[cur]
        if cur != os.getpid():
            continue
        try:
            argv0 = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0", 1)[0]
        except OSError:
            continue
        if b"chromium" in argv0:
            found.add(pid)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _is_browser_main(pid: int) -> bool:
    """The browser process itself: Chromium's binary, not one of its ``--type=`` children."""
    argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    return argv[0].endswith(b"/chromium") and not any(a.startswith(b"--type=") for a in argv)


@pytest.mark.slow
def test_no_chromium_process_outlives_the_session(base_url):
    before = _chromium_descendants()
    with BrowserSession() as browser, browser.scenario("one") as sc:
        sc.goto(base_url + "/webgl")
        during = _chromium_descendants() - before
    assert during, "the scan must see the session's own Chromium while it runs"
    deadline = time.monotonic() + 5
    while any(_alive(pid) for pid in during) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in during if _alive(pid)]
    assert _chromium_descendants() - before == set()


@pytest.mark.slow
def test_a_browser_that_dies_midway_raises_browser_unavailable(base_url):
    before = _chromium_descendants()
    with BrowserSession() as browser:
        with (
            pytest.raises(BrowserUnavailable, match=r"browser process exited \(loading http"),
            browser.scenario("dying", Instrumentation(row_selector="tr.row")) as sc,
        ):
            assert sc.goto(base_url + "/rows") == 200
            pids = _chromium_descendants() - before
            (main,) = [pid for pid in pids if _is_browser_main(pid)]
            os.kill(main, signal.SIGKILL)
            sc.goto(base_url + "/rows")
        assert sc.observation is None  # nothing half-measured is passed on
        assert browser.lost
        with pytest.raises(BrowserUnavailable, match=r"exited \(scenario 'next'\)"):
            browser.scenario("next")
    assert browser_available() is None  # the next session starts a new browser
