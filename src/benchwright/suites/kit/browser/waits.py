"""The browser probes' own waits: bounds on the *probe*, never a verdict on the app.

A wait that gives up is a finding only when the row is about that latency (first data,
paint, tooltip: their ladders say how long is too long). Every other wait -- a control
becoming clickable, an editor opening, an error banner or a recovered table appearing --
only has to end before the scenario's bound. They are generous, because a loaded host
stretches them, and they end as soon as the condition holds, so an app that is quick
pays nothing for them. What they took is reported beside the row that read it.
"""

from __future__ import annotations

from typing import Any

CLICK_S = 10.0
"""Playwright's actionability wait for one click or double-click."""
APPEAR_S = 20.0
"""A table, a recovered table, an empty state or a banner to appear."""
EDITOR_S = 3.0
"""An inline editor to take focus after a click (a double-click is tried after it)."""
WRITE_S = 5.0
"""A committed edit's write to leave the page (a loaded host delays the app's own POST;
when it leaves is not what the optimistic-paint row grades)."""


def click(locator: Any) -> bool:
    """Click ``locator`` within `CLICK_S`; False when it could not be clicked (disabled,
    covered, gone): an observation, never an error (a dead browser raises at the next
    call)."""
    from playwright.sync_api import Error  # on demand: the kit imports without Playwright

    try:
        locator.click(timeout=CLICK_S * 1000)
        return True
    except Error:
        return False
