"""Opening the app's page in a scenario. A ``/`` that answers with no page (no answer, a
status outside 2xx, a declared type that is not HTML) ends the scenario at once: every
wait after it would only run out its bound on a page that cannot come (issue #13)."""

from __future__ import annotations

from typing import TYPE_CHECKING

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
