"""One scenario: a fresh browser context and page, instrumented, driven, then observed.

Every wait is bounded. A wait that runs out is an observation (False, or None),
not an exception: the app was slow or absent. Only a browser that is gone raises.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from playwright.sync_api import Error, Route
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from benchwright.probes.browser._errors import BrowserUnavailable, first_line
from benchwright.probes.browser._observe import (
    ConsoleMessage,
    PageError,
    RequestAction,
    ScenarioObservation,
    ScenarioTimings,
    Screenshot,
    png_size,
    webgl_contexts,
)
from benchwright.probes.browser._options import Hold, Instrumentation
from benchwright.probes.browser._page_script import page_script
from benchwright.probes.browser._session import safe_name

if TYPE_CHECKING:
    from benchwright.probes.browser._session import Lane

DEFAULT_WAIT_S = 10.0
EXIT_SETTLE_S = 0.5
"""How long a page closed under the probe waits for its browser to show it exited."""
"""Bound on any single Playwright call that takes no explicit timeout."""
_CONSOLE_TYPES = {"error", "assert"}
PAGE_TYPES = ("text/html", "application/xhtml+xml")
"""Declared media types a browser renders as a page to drive."""
_SNAPSHOT = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  return JSON.stringify({
    page: window.__benchwright__ ? window.__benchwright__.snapshot() : {},
    nav: nav ? {dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd} : {},
  });
}"""


class Scenario:
    """Made by ``Lane.scenario`` (or ``BrowserSession.scenario``); a context manager.

    ``observation`` holds the ``ScenarioObservation`` once the block has ended.
    ``page`` is the Playwright page, to drive what the probe does not wrap; ``session`` is
    the lane it runs on.
    """

    def __init__(
        self,
        session: Lane,
        name: str,
        instrument: Instrumentation,
        artifacts: Path,
        read_timeout_s: float = 5.0,
    ) -> None:
        self.session = session
        self.read_timeout_s = read_timeout_s
        self.name = name
        self.instrument = instrument
        self.artifacts = artifacts
        self.observation: ScenarioObservation | None = None
        self._console: list[ConsoleMessage] = []
        self._page_errors: list[PageError] = []
        self._requests: list[RequestAction] = []
        self._aborted: set[str] = set()
        self._shots: list[Screenshot] = []
        self._crashed = False
        self._url: str | None = None
        self._status: int | None = None
        self._nav_error: str | None = None
        self._nav_s: float | None = None
        self._answer: Any = None
        self.no_page: str | None = None
        """Why the last ``goto``'s own answer is no page to drive (see ``goto``), or None."""
        self._started = time.perf_counter()
        with self._guard("opening a context"):
            self.context = self._open_context()
            self.page = self.context.new_page()
        self._context_s = time.perf_counter() - self._started
        self.page.on("console", self._on_console)
        self.page.on("pageerror", self._on_page_error)
        self.page.on("crash", self._on_crash)
        self.page.on("response", self._on_response)

    def _open_context(self) -> Any:
        width, height = self.instrument.viewport
        context = self.session.browser.new_context(
            viewport={"width": width, "height": height},
            device_scale_factor=1,
            service_workers="block",  # so every request passes the routes below
        )
        context.set_default_timeout(DEFAULT_WAIT_S * 1000)
        context.set_default_navigation_timeout(DEFAULT_WAIT_S * 1000)
        context.add_init_script(
            script=page_script(
                row_selector=self.instrument.row_selector,
                disable_webgl=self.instrument.disable_webgl,
            )
        )
        # The last route added is tried first: aborts win over holds; holds stack.
        for hold in self.instrument.holds:
            context.route(hold.match, self._holder(hold))
        for match in self.instrument.aborts:
            context.route(match, self._abort)
        return context

    # -- events -----------------------------------------------------------------------------

    def _on_console(self, message: Any) -> None:
        if message.type not in _CONSOLE_TYPES:
            return
        url = (message.location or {}).get("url") or None
        why = None
        if url and url in self._aborted:
            why = "aborted by the probe"
        elif url and any(p.search(url.split("?", 1)[0]) for p in self.instrument.noise):
            why = "noise"  # favicon and touch icons by default; see Instrumentation.noise
        self._console.append(ConsoleMessage(message.type, message.text, url, why))

    def _on_page_error(self, error: Any) -> None:
        self._page_errors.append(
            PageError(error.name or "Error", error.message, getattr(error, "stack", None))
        )

    def _on_crash(self, _page: Any) -> None:
        self._crashed = True

    def _on_response(self, response: Any) -> None:
        """Keep the top document's latest answer: a ``goto`` that raised or ran out of
        time returns none, yet the answer may have come (redirects: the last hop wins)."""
        if response.request.is_navigation_request() and response.frame.parent_frame is None:
            self._answer = response

    def _holder(self, hold: Hold) -> Callable[[Route], None]:
        def handle(route: Route) -> None:
            started = time.perf_counter()
            try:
                self.page.wait_for_timeout(hold.ms)  # yields to Playwright; never time.sleep
            except Error:
                return  # the scenario closed while the request was held
            request = route.request
            held = (time.perf_counter() - started) * 1000
            self._requests.append(RequestAction(request.url, request.method, "held", held))
            with suppress(Error):
                route.fallback()

        return handle

    def _abort(self, route: Route) -> None:
        request = route.request
        self._aborted.add(request.url)
        self._requests.append(RequestAction(request.url, request.method, "aborted"))
        with suppress(Error):
            route.abort(self.instrument.abort_error)

    # -- driving ----------------------------------------------------------------------------

    def goto(self, url: str, *, timeout_s: float = DEFAULT_WAIT_S) -> int | None:
        """Navigate and wait for the load event; the main document's status, or None.

        Sets ``no_page`` from the navigation's own answer, never from a timing: no answer
        at all (the navigation failed), a status outside 2xx, or a declared Content-Type
        that is not HTML. A navigation that ran out of time with no answer yet is
        undecided (None): it may still commit, slowly."""
        self._url, self._status, self._nav_error, self._answer = url, None, None, None
        timed_out = False
        started = time.perf_counter()
        with self._guard(f"loading {url}"):
            try:
                response = self.page.goto(url, wait_until="load", timeout=timeout_s * 1000)
                self._status = response.status if response is not None else None
                self._answer = response or self._answer
            except PlaywrightTimeout:
                self._nav_error = f"load event not reached within {timeout_s:g} s"
                timed_out = True
            except Error as exc:
                self._raise_if_lost(f"loading {url}")
                self._nav_error = first_line(exc)
        self._nav_s = time.perf_counter() - started
        self.no_page = self._judge_answer(urlsplit(url).path or "/", timed_out)
        return self._status

    def wait_for_first_row(self, *, timeout_s: float = DEFAULT_WAIT_S) -> float | None:
        """The first visible row's page-clock time (ms), waiting up to ``timeout_s``."""
        if not self.instrument.row_selector:
            raise ValueError("wait_for_first_row needs Instrumentation(row_selector=...)")
        probe = "() => window.__benchwright__ && window.__benchwright__.snapshot().firstRowMs"
        value = self._wait(probe, timeout_s, "waiting for the first row")
        return None if value is None else float(value)

    def wait_for_function(self, expression: str, *, timeout_s: float = DEFAULT_WAIT_S) -> Any:
        """Poll a JS function until it returns something truthy; its value, or None."""
        return self._wait(expression, timeout_s, "waiting on the page")

    def wait_for_selector(
        self, selector: str, *, state: str = "visible", timeout_s: float = DEFAULT_WAIT_S
    ) -> bool:
        """Whether ``selector`` reached ``state`` (visible, attached, hidden) in time."""
        with self._guard(f"waiting for {selector!r}"):
            try:
                self.page.wait_for_selector(selector, state=state, timeout=timeout_s * 1000)
                return True
            except PlaywrightTimeout:
                return False
            except Error:
                self._raise_if_lost(f"waiting for {selector!r}")
                return False

    def screenshot(
        self,
        name: str,
        *,
        selector: str | None = None,
        full_page: bool = True,
        timeout_s: float = DEFAULT_WAIT_S,
    ) -> Screenshot | None:
        """A PNG of the page (whole scroll height unless ``full_page=False``) or of one
        element; None when it could not be taken (no such element, a hung page)."""
        self.artifacts.mkdir(parents=True, exist_ok=True)
        path = self.artifacts / f"{safe_name(name)}.png"
        with self._guard(f"taking screenshot {name!r}"):
            try:
                if selector is None:
                    self.page.screenshot(path=path, full_page=full_page, timeout=timeout_s * 1000)
                else:
                    self.page.locator(selector).first.screenshot(
                        path=path, timeout=timeout_s * 1000
                    )
            except Error:
                self._raise_if_lost(f"taking screenshot {name!r}")
                return None
        width, height = png_size(path)
        shot = Screenshot(path, width, height, selector)
        self._shots.append(shot)
        return shot

    def _judge_answer(self, path: str, timed_out: bool) -> str | None:
        """``no_page`` for the navigation that just ended (see ``goto``)."""
        answer = self._answer
        if answer is None:
            if timed_out or self._nav_error is None:
                return None
            return f"`{path}` did not answer ({self._nav_error}): no page to drive"
        declared = answer.headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if 200 <= answer.status < 300 and declared in (*PAGE_TYPES, ""):
            return None  # an undeclared type is sniffed by the browser: it may be a page
        said = declared or "without a Content-Type"
        return f"`{path}` answered {answer.status} {said}: no page to drive"

    # -- observing --------------------------------------------------------------------------

    def observe(self, *, timeout_s: float | None = None) -> ScenarioObservation:
        """Everything recorded so far, read back from the page within ``timeout_s``
        (default ``read_timeout_s``); a hung or crashed page leaves the page-side fields empty."""
        bound = self.read_timeout_s if timeout_s is None else timeout_s
        read = json.loads(self._wait(_SNAPSHOT, bound, "reading the page") or "{}")
        snap, nav = read.get("page", {}), read.get("nav", {})
        console = tuple(self._console)
        return ScenarioObservation(
            name=self.name,
            url=self._url,
            status=self._status,
            navigation_error=self._nav_error,
            first_row_ms=snap.get("firstRowMs"),
            console_errors=tuple(m for m in console if m.filtered is None),
            console_filtered=tuple(m for m in console if m.filtered is not None),
            page_errors=tuple(self._page_errors),
            webgl_contexts=webgl_contexts(snap.get("contexts", [])),
            webgl_refused=int(snap.get("refused", 0)),
            requests=tuple(self._requests),
            screenshots=tuple(self._shots),
            timings=ScenarioTimings(
                context_s=self._context_s,
                navigation_s=self._nav_s,
                total_s=time.perf_counter() - self._started,
                dom_content_loaded_ms=nav.get("dcl") or None,
                load_ms=nav.get("load") or None,
            ),
            page_crashed=self._crashed,
        )

    def close(self) -> None:
        with suppress(Error):  # the browser went away; the session reports that
            self.context.close()

    def __enter__(self) -> Scenario:
        return self

    def __exit__(self, exc_type: object, *rest: object) -> None:
        try:
            if exc_type is None:
                self.observation = self.observe()
        finally:
            self.close()

    # -- plumbing ---------------------------------------------------------------------------

    def _wait(self, expression: str, timeout_s: float, doing: str) -> Any:
        """``wait_for_function``'s truthy value, or None at the bound (also for a hung page)."""
        if self._crashed:
            return None
        with self._guard(doing):
            try:
                handle = self.page.wait_for_function(expression, timeout=timeout_s * 1000)
            except PlaywrightTimeout:
                return None
            except Error:
                self._raise_if_lost(doing)
                return None
            try:
                return handle.json_value()
            finally:
                handle.dispose()

    def _raise_if_lost(self, doing: str) -> None:
        """After a Playwright error: raise when the browser, or the page under us, is gone.

        A page closed under us is first given `EXIT_SETTLE_S` to show whether the whole
        browser went: a killed Chromium closes its pipes (the driver closes the page) a
        moment before ``/proc`` shows it exited, and on a busy host that moment was long
        enough to call a dead browser a closed page."""
        self.session.ensure_alive(doing)
        if self.page.is_closed() and not self._crashed:
            deadline = time.monotonic() + EXIT_SETTLE_S
            while time.monotonic() < deadline:
                self.session.ensure_alive(doing)
                time.sleep(0.02)
            raise BrowserUnavailable(f"the page was closed under the probe ({doing})")

    @contextmanager
    def _guard(self, doing: str) -> Iterator[None]:
        """Turn an error from a browser that is gone into ``BrowserUnavailable``."""
        self.session.ensure_alive(doing)
        try:
            yield
        except BrowserUnavailable:
            raise
        except Error as exc:
            self.session.ensure_alive(doing)
            raise BrowserUnavailable(f"{doing} failed: {first_line(exc)}") from exc
