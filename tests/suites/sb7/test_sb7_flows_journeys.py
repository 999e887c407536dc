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
from benchwright.suites.sb7.browser.flows.flow import observe_flow
from benchwright.suites.sb7.browser.flows.sync import observe_sync
from benchwright.suites.sb7.browser.record import Sb7BrowserRecord

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser_available() is not None, reason="no Chromium here"),
]
OBSERVE = {"sync": observe_sync, "flow": observe_flow, "feed": observe_feed}


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
    session: BrowserSession, host: Host, name: str, shots: Path, *rows: str,
    edit: Callable[[str], str] | None = None,
) -> tuple[Any, dict[str, CheckResult]]:  # fmt: skip
    """Run scenario ``name`` (under a page with ``edit`` applied, when given) and grade
    ``rows`` on a record where every other scenario is perfect."""
    lane: Any = session if edit is None else Defective(session, edit)
    seen = OBSERVE[name](lane, host, shots / name)
    obs = perfect().with_phase(
        "browser", Sb7BrowserRecord(unavailable=None, scenarios={**FLOWS, name: seen})
    )
    return seen, {check_id: row(obs, check_id) for check_id in rows}


def test_the_golden_console_completes_the_flow(
    session: BrowserSession, host: Host, tmp_path: Path
) -> None:
    """The drafts journeys at 1.0; the paint's causal parts (its latency rung is a timing,
    proven on hand-made views, never asserted here)."""
    seen, rows = _graded(session, host, "flow", tmp_path, "j_workflow_journey",
                         "j_workflow_reject")  # fmt: skip
    assert {k: r.score for k, r in rows.items()} == dict.fromkeys(rows, 1.0), rows
    p = seen.paint
    assert p.painted_while_held and p.saving_seen and p.saved and not p.preexisting
    assert p.paint_ms is not None
    assert not seen.scenario.console_errors and not seen.scenario.page_errors


def test_the_golden_console_completes_the_sync_and_the_feed(
    session: BrowserSession, host: Host, tmp_path: Path
) -> None:
    sync, _ = _graded(session, host, "sync", tmp_path)
    assert sync.in_flight_ms is not None and sync.completed and sync.notice is None
    assert sync.refetched and sync.rerendered and not sync.scenario.console_errors
    feed, _ = _graded(session, host, "feed", tmp_path)
    assert feed.live_before and feed.degraded_seen and feed.live_after and not feed.reloaded


def _broken_flow(js: str) -> str:
    """Three defects at once, one per row: the note cell waits for the network (its
    editor stays until the write answers), and Approve and Reject never enable."""
    return (js.replace("finish(note); // painted now", "done = true; // waits:")
            .replace('button: "#approve-btn", from: "submitted"',
                     'button: "#approve-btn", from: "never"')
            .replace('button: "#reject-btn", from: "submitted"',
                     'button: "#reject-btn", from: "never"'))  # fmt: skip


def test_each_flow_defect_costs_its_own_row(
    session: BrowserSession, host: Host, tmp_path: Path
) -> None:
    seen, rows = _graded(session, host, "flow", tmp_path, "e_optimistic_paint",
                         "j_workflow_journey", "j_workflow_reject", edit=_broken_flow)  # fmt: skip
    assert seen.paint.held_pending and not seen.paint.painted_while_held
    assert "waited for the network" in rows["e_optimistic_paint"].detail
    assert rows["e_optimistic_paint"].score == 0.0
    assert seen.approval.submitted and not seen.approval.approved
    assert rows["j_workflow_journey"].score == pytest.approx(3 / 7, abs=1e-6)
    assert rows["j_workflow_reject"].score == 0.0
    assert "rejection never completed" in rows["j_workflow_reject"].detail


def test_a_sync_button_that_never_shows_busy_loses_its_quarter(
    session: BrowserSession, host: Host, tmp_path: Path
) -> None:
    def never_busy(js: str) -> str:
        return js.replace('button.dataset.state = "syncing";', "").replace(
            'button.setAttribute("aria-busy", "true");', "").replace(
            "button.disabled = true;", "")  # fmt: skip

    seen, rows = _graded(session, host, "sync", tmp_path, "j_sync_journey", edit=never_busy)
    assert seen.completed and seen.in_flight_ms is None and seen.rerendered
    assert rows["j_sync_journey"].score <= 0.75 and "in flight" in rows["j_sync_journey"].detail


def test_a_feed_that_never_shows_degraded_loses_its_quarter(
    session: BrowserSession, host: Host, tmp_path: Path
) -> None:
    def always_live(js: str) -> str:
        return js.replace('list.dataset.state = "degraded";', 'list.dataset.state = "live";')

    seen, rows = _graded(session, host, "feed", tmp_path, "j_notifications_feed",
                         edit=always_live)  # fmt: skip
    assert not seen.degraded_seen and seen.live_after and not seen.reloaded
    found = rows["j_notifications_feed"]
    assert found.score <= 0.75 and "degraded" in found.detail
