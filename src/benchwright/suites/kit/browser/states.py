"""The state scenarios of a payments console, whatever the suite: ``error`` (the backend
blocked in the browser) and ``empty`` (a never-synced db), and the views they leave."""

from __future__ import annotations

import re
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchwright.probes.browser import (
    DATA_REQUESTS,
    Instrumentation,
    ScenarioHost,
    ScenarioObservation,
)
from benchwright.suites.kit.browser import dom as _dom
from benchwright.suites.kit.browser.nav import open_or_read, read_state, recovers
from benchwright.suites.kit.browser.waits import APPEAR_S

ROW = "tbody tr"
IDLE_S = 8.0
EMPTY_POLL_S = APPEAR_S
_RETRY = re.compile(r"retry|try again|reload|refresh", re.I)
HAS_ERROR = "() => (" + _dom.ERRORS + ")().length > 0"
ACTIONABLE = re.compile(r"try again|retry|check|running|refresh|reload", re.I)
"""Error phrasing that tells the user what to do (a suite's methodology may widen it)."""


@dataclass(frozen=True)
class ErrorView:
    """``error``: every /api, /data, /graphql and *.json request aborted."""

    scenario: ScenarioObservation
    error_visible: bool
    error_text: str | None
    actionable_text: str | None
    body_text_length: int
    retry_recovered: bool | None
    """None when no retry control was found to exercise."""
    shown_after_s: float | None = None
    """Seconds from navigation until an error text was visible (None: never)."""
    retry_s: float | None = None
    """Seconds the exercised retry took to recover or to be given up on (None: none)."""
    no_page: str | None = None
    """What ``/`` answered when it was no page (read at once, no waits, no retry)."""


@dataclass(frozen=True)
class EmptyView:
    """``empty``: a second app instance on a brand-new database, never synced."""

    scenario: ScenarioObservation
    rows: int
    empty_text: str | None
    body_text_length: int
    cta_visible: bool
    no_page: str | None = None
    """What ``/`` answered when it was no page (read at once, no waits)."""


def observe_error(
    session: ScenarioHost, ctx: Any, shots: Path, actionable: re.Pattern[str] = ACTIONABLE
) -> ErrorView:
    """Load ``/`` with every data request refused; scan for a visible error, then unblock
    the network and exercise a visible retry control, if there is one. ``actionable``: the
    phrasing the first actionable text must match."""
    offline = Instrumentation(
        row_selector=ROW, aborts=(DATA_REQUESTS,), abort_error="connectionrefused"
    )
    with session.scenario("error", offline, artifacts=shots) as sc:
        started = time.monotonic()
        no_page = open_or_read(sc, ctx.base_url + "/")
        if no_page is None:
            _settle_for_error(sc)
        texts = sc.page.evaluate(_dom.ERRORS)
        shown_s = round(time.monotonic() - started, 2) if texts else None
        body = sc.page.evaluate("() => document.body ? document.body.innerText.trim().length : 0")
        sc.screenshot("error")
        retried = time.monotonic()
        recovered = _retry(sc) if texts and no_page is None else None
        retry_s = None if recovered is None else round(time.monotonic() - retried, 2)
    found = next((t for t in texts if actionable.search(t)), None)
    return ErrorView(
        scenario=sc.observation,  # type: ignore[arg-type]
        error_visible=bool(texts),
        error_text=texts[0] if texts else None,
        actionable_text=found,
        body_text_length=int(body),
        retry_recovered=recovered,
        shown_after_s=shown_s,
        retry_s=retry_s,
        no_page=no_page,
    )


def _settle_for_error(sc) -> None:
    """Wait for the page's own error UI: network idle (bounded), 1 s, a late banner."""
    from playwright.sync_api import Error  # on demand: the kit imports without Playwright
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    # a page that keeps polling never idles; the 1 s below still applies
    with suppress(PlaywrightTimeout, Error):
        sc.page.wait_for_load_state("networkidle", timeout=IDLE_S * 1000)
    sc.page.wait_for_timeout(1000)
    with suppress(PlaywrightTimeout):  # a loaded host may paint the banner late
        sc.page.wait_for_function(HAS_ERROR, timeout=APPEAR_S * 1000, polling=100)


def _retry(sc) -> bool | None:
    button = sc.page.get_by_role("button", name=_RETRY)
    target = next((button.nth(i) for i in range(button.count()) if button.nth(i).is_visible()),
                  None)  # fmt: skip
    if target is None:
        return None
    return recovers(sc, target)


def observe_empty(session: ScenarioHost, ctx: Any, shots: Path) -> EmptyView:
    """``ctx`` is a second instance on a brand-new database: poll up to 8 s for rendered
    rows or visible empty-state text."""
    with session.scenario("empty", Instrumentation(row_selector=ROW), artifacts=shots) as sc:
        read, no_page = read_state(sc, ctx.base_url + "/", _dom.EMPTY, _dom.EMPTY_NOW, "empty",
                                   timeout_s=EMPTY_POLL_S)  # fmt: skip
    return EmptyView(
        scenario=sc.observation,  # type: ignore[arg-type]
        rows=int(read["rows"]),
        empty_text=read["empty_text"],
        body_text_length=int(read["body_text_length"]),
        cta_visible=bool(read["cta_visible"]),
        no_page=no_page,
    )
