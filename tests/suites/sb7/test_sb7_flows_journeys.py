"""The flow scenarios in a real Chromium against a booted golden (both services synced
from the real Meridian v3 mock): the honest console completes every journey and its rows
earn 1.0; the same backend under a page with one defect (``app.js`` edited in the
browser, `sb7_flows_host.Defective`) loses exactly the part that defect breaks."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sb7_flows_host import Defective, Host, booted
from sb7_flows_views import FLOWS
from sb7_observations import perfect, row

from benchwright.model import CheckResult
from benchwright.probes.browser import BrowserSession, browser_available
from benchwright.suites.sb7.browser.flows.feed import observe_feed
from benchwright.suites.sb7.browser.flows.paint import observe_paint
from benchwright.suites.sb7.browser.flows.reject import observe_reject
from benchwright.suites.sb7.browser.flows.sync import observe_sync
from benchwright.suites.sb7.browser.flows.workflow import observe_workflow
from benchwright.suites.sb7.browser.record import Sb7BrowserRecord

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser_available() is not None, reason="no Chromium here"),
]
OBSERVE = {"paint": observe_paint, "sync": observe_sync, "workflow": observe_workflow,
           "reject": observe_reject, "feed": observe_feed}  # fmt: skip
ROW = {"paint": "e_optimistic_paint", "sync": "j_sync_journey",
       "workflow": "j_workflow_journey", "reject": "j_workflow_reject",
       "feed": "j_notifications_feed"}  # fmt: skip


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Host]:
    with booted(tmp_path_factory.mktemp("sb7-flows")) as running:
        yield running


@pytest.fixture
def session(tmp_path: Path) -> Iterator[BrowserSession]:
    """A browser per test: a session runs each scenario name once."""
    with BrowserSession(artifacts=tmp_path / "browser") as started:
        yield started


def _graded(
    session: BrowserSession, host: Host, name: str, shots: Path,
    edit: Callable[[str], str] | None = None,
) -> tuple[Any, CheckResult]:  # fmt: skip
    """Run scenario ``name`` (under a page with ``edit`` applied, when given) and grade its
    row on a record where every other journey is perfect."""
    lane: Any = session if edit is None else Defective(session, edit)
    seen = OBSERVE[name](lane, host, shots / name)
    record = Sb7BrowserRecord(unavailable=None, scenarios={**FLOWS, name: seen})
    return seen, row(perfect().with_phase("browser", record), ROW[name])


CAUSAL: dict[str, Callable[[Any], bool]] = {
    "paint": lambda v: (
        v.painted_while_held
        and v.saving_seen
        and v.saved
        and v.paint_ms is not None
        and not v.preexisting
    ),
    "sync": lambda v: (
        v.in_flight_ms is not None
        and v.completed
        and v.notice is None
        and v.refetched
        and v.rerendered
    ),
    "feed": lambda v: v.live_before and v.degraded_seen and v.live_after and not v.reloaded,
}
"""What a journey whose row also reads a latency must show besides it (no timing is
asserted here: the rows' latency rungs are proven on hand-made views)."""


@pytest.mark.parametrize("name", ["workflow", "reject"])
def test_the_golden_console_completes_the_drafts_journeys(
    session: BrowserSession, host: Host, name: str, tmp_path: Path
) -> None:
    seen, found = _graded(session, host, name, tmp_path)
    assert found.score == 1.0, found.detail
    assert not seen.scenario.page_errors


@pytest.mark.parametrize("name", sorted(CAUSAL))
def test_the_golden_console_completes_the_timed_journeys(
    session: BrowserSession, host: Host, name: str, tmp_path: Path
) -> None:
    seen, found = _graded(session, host, name, tmp_path)
    assert CAUSAL[name](seen), found.detail
    assert not seen.scenario.page_errors


def test_a_note_cell_that_waits_for_the_network_earns_nothing(
    session: BrowserSession, host: Host, tmp_path: Path
) -> None:
    def wait(js: str) -> str:  # the editor stays until the write answers
        return js.replace("finish(note); // painted now", "done = true; // waits:")

    seen, found = _graded(session, host, "paint", tmp_path, wait)
    assert seen.held_pending and not seen.painted_while_held
    assert found.score == 0.0 and "waited for the network" in found.detail


def test_a_sync_button_that_never_shows_busy_loses_its_quarter(
    session: BrowserSession, host: Host, tmp_path: Path
) -> None:
    def never_busy(js: str) -> str:
        return js.replace('button.dataset.state = "syncing";', "").replace(
            'button.setAttribute("aria-busy", "true");', "").replace(
            "button.disabled = true;", "")  # fmt: skip

    seen, found = _graded(session, host, "sync", tmp_path, never_busy)
    assert seen.completed and seen.in_flight_ms is None and seen.rerendered
    assert found.score <= 0.75 and "in flight" in found.detail


def test_an_approve_button_that_never_enables_completes_three_steps_of_seven(
    session: BrowserSession, host: Host, tmp_path: Path
) -> None:
    def stuck(js: str) -> str:
        return js.replace('button: "#approve-btn", from: "submitted"',
                          'button: "#approve-btn", from: "never"')  # fmt: skip

    seen, found = _graded(session, host, "workflow", tmp_path, stuck)
    assert seen.submitted and not seen.approved
    assert found.score == pytest.approx(3 / 7, abs=1e-6)


def test_a_reject_button_that_never_enables_never_rejects(
    session: BrowserSession, host: Host, tmp_path: Path
) -> None:
    def stuck(js: str) -> str:
        return js.replace('button: "#reject-btn", from: "submitted"',
                          'button: "#reject-btn", from: "never"')  # fmt: skip

    _, found = _graded(session, host, "reject", tmp_path, stuck)
    assert found.score == 0.0 and "rejection never completed" in found.detail


def test_a_feed_that_never_shows_degraded_loses_its_quarter(
    session: BrowserSession, host: Host, tmp_path: Path
) -> None:
    def always_live(js: str) -> str:
        return js.replace('list.dataset.state = "degraded";', 'list.dataset.state = "live";')

    seen, found = _graded(session, host, "feed", tmp_path, always_live)
    assert not seen.degraded_seen and seen.live_after and not seen.reloaded
    assert found.score <= 0.75 and "degraded" in found.detail
