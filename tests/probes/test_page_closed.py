"""A page closed under the probe while its browser is dying is reported as the browser
exiting, not as a closed page.

The lag this covers (a SIGKILLed Chromium closes its pipes, and the driver the page, a
moment before ``/proc`` shows the process exited) cannot be staged on demand with a real
browser: on an idle host the two are all but simultaneous. So the lane and the page are
stand-ins here; `tests/probes/test_browser.py` kills a real browser mid-scenario."""

from __future__ import annotations

import pytest

from benchwright.probes.browser import BrowserUnavailable
from benchwright.probes.browser._scenario import Scenario


class _DyingLane:
    """A lane whose browser shows it exited only from its ``checks``-th check on."""

    def __init__(self, checks: int) -> None:
        self.checks = checks

    def ensure_alive(self, doing: str) -> None:
        self.checks -= 1
        if self.checks < 0:
            raise BrowserUnavailable(f"the browser process exited ({doing})")


class _ClosedPage:
    def is_closed(self) -> bool:
        return True


def _scenario(lane: _DyingLane) -> Scenario:
    scenario = object.__new__(Scenario)  # only the state `_raise_if_lost` reads
    scenario.session, scenario.page, scenario._crashed = lane, _ClosedPage(), False
    return scenario


def test_a_page_closed_just_before_the_browser_shows_it_exited_is_the_browser_exiting():
    with pytest.raises(BrowserUnavailable, match=r"browser process exited \(loading\)"):
        _scenario(_DyingLane(checks=3))._raise_if_lost("loading")


def test_a_page_closed_under_a_live_browser_is_a_closed_page():
    with pytest.raises(BrowserUnavailable, match=r"page was closed under the probe \(loading\)"):
        _scenario(_DyingLane(checks=10**9))._raise_if_lost("loading")
