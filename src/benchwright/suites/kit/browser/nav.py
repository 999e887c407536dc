"""Opening the app's page in a scenario, and reading what it shows. A ``/`` that answers
with no page (no answer, a status outside 2xx, a declared type that is not HTML) ends the
scenario at once: every wait after it would only run out its bound on a page that cannot
come (issue #13)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from benchwright.suites.kit.browser.waits import APPEAR_S, click

SETTLE_MS = 300
"""After a state or a first row appeared: what comes with the same answers may paint a
moment later."""
PHONE = (375, 812)
"""A phone's viewport (spec: nothing scrolls sideways at 375 pixels)."""

if TYPE_CHECKING:
    from benchwright.probes.browser import Scenario


class NoPage(Exception):
    """The navigation's own answer was no page. The phase records it (``no_page``) and the
    scenario's rows fail with it as their detail; it is the app's doing, never UNAVAILABLE."""


def open_page(sc: Scenario, url: str) -> int | None:
    """``sc.goto(url)``, its status; raises ``NoPage`` with what ``url`` answered when the
    answer is no page. A slow page is never one: only the answer decides (``Scenario.goto``)."""
    status = sc.goto(url)
    if sc.no_page is not None:
        raise NoPage(sc.no_page)
    return status


def open_or_read(sc: Scenario, url: str) -> str | None:
    """``sc.goto(url)``; what ``url`` answered when it is no page, else None. For the
    scenarios whose rows grade whatever the browser renders (``error``, ``empty``: the
    methodology's ladders give text on a page without the state 0.3, as the public probe
    would give a JSON 404 that Chromium shows as text): they read the DOM at once instead
    of waiting, and their rows name the answer."""
    sc.goto(url)
    return sc.no_page


def read_state(
    sc: Scenario, url: str, ready: str, read: str, shot: str, *, timeout_s: float = APPEAR_S,
    settle_ms: float = SETTLE_MS,
) -> tuple[Any, str | None]:  # fmt: skip
    """Open ``url`` (`open_or_read`); unless it is no page, wait (bounded) for ``ready``
    (a page function) and let the page settle; then ``(read's value, no_page)``, with a
    screenshot ``shot`` of what was read. For a state the page must show (error, empty):
    a page that never shows it is read all the same, and its rows say so."""
    no_page = open_or_read(sc, url)
    if no_page is None:
        sc.wait_for_function(ready, timeout_s=timeout_s)
        sc.page.wait_for_timeout(settle_ms)
    found = sc.page.evaluate(read)
    sc.screenshot(shot)
    return found, no_page


def reload_at(
    sc: Scenario, url: str, read: str, shot: str, *, size: tuple[int, int] = PHONE,
    wait_row: bool = True, settle_ms: float = SETTLE_MS,
) -> Any:  # fmt: skip
    """Load ``url`` again as a fresh document at viewport ``size`` (a phone by default),
    wait (bounded) for its first row unless ``wait_row`` is False, settle, and return
    ``read``'s value, with a screenshot ``shot`` of the viewport."""
    sc.page.set_viewport_size({"width": size[0], "height": size[1]})
    open_page(sc, url)
    if wait_row:
        sc.wait_for_first_row(timeout_s=APPEAR_S)
    sc.page.wait_for_timeout(settle_ms)
    found = sc.page.evaluate(read)
    sc.screenshot(shot, full_page=False)
    return found


def recovers(sc: Scenario, target: Any) -> bool:
    """Let every request through again, click ``target`` (a retry control) and wait
    (bounded) for a data row: whether the page recovered. The rows decide, not the click:
    a page that also retries by itself may recover between the unblocking and the click
    and take its retry control away (a loaded host widens that window); the click then
    finds nothing to press, yet the page did what the retry is for."""
    sc.context.unroute_all(behavior="ignoreErrors")
    click(target)
    return sc.wait_for_first_row(timeout_s=APPEAR_S) is not None
