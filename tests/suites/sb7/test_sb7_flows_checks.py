"""The journey rows (j_sync_journey, j_workflow_journey, j_workflow_reject,
j_notifications_feed) and e_optimistic_paint on hand-made flow views: a journey that
completes earns 1.0, each missing part costs exactly what §12 prices it at, and a probe
that could not measure is UNAVAILABLE, never an app zero."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sb7_flows_views import FEED, FLOWS, SYNC, flow_with
from sb7_observations import perfect, row
from sb7_perf_records import BUSY, CALM

from benchwright.model import Status
from benchwright.scoring.contention import HOST_CONTENDED
from benchwright.suites.sb7.browser.flows.views import NO_ANSWER
from benchwright.suites.sb7.browser.record import Sb7BrowserRecord
from benchwright.suites.sb7.checks._timing import judge_timing
from benchwright.suites.sb7.observations import Observations

ROWS = {"j_sync_journey": "sync", "j_workflow_journey": "flow", "j_workflow_reject": "flow",
        "j_notifications_feed": "feed", "e_optimistic_paint": "flow"}  # fmt: skip
"""Row -> the scenario it reads."""


def _obs(**views: object) -> Observations:
    record = Sb7BrowserRecord(unavailable=None, scenarios={**FLOWS, **views})
    return perfect().with_phase("browser", record)


@pytest.mark.parametrize("check_id", sorted(ROWS))
def test_a_completed_journey_earns_one(check_id: str) -> None:
    found = row(_obs(), check_id)
    assert (found.status, found.score) == (Status.PASS, 1.0), found.detail


@pytest.mark.parametrize(
    ("changes", "score", "named"),
    [
        ({"button_found": False, "clicked": False}, 0.0, "sync button never found"),
        ({"in_flight_ms": None}, 0.75, "in flight"),
        ({"in_flight_ms": 1500.0}, 0.75, "in flight"),
        ({"notice": "Sync failed: vendor down"}, 0.75, "completed"),
        ({"api_sync_status": 502}, 0.75, "completed"),
        ({"api_sync_status": None, "completed": False}, 0.75, "POST /api/sync never sent"),
        (
            {"api_sync_status": NO_ANSWER, "completed": False},
            0.75,
            "POST /api/sync sent, never answered",
        ),
        ({"rerendered": False}, 0.75, "refreshed"),
        ({"rerendered": False, "hash_after": "b"}, 1.0, ""),
        ({"in_flight_ms": None, "completed": False, "refetched": False}, 0.25, "completed"),
    ],
)
def test_the_sync_journey_costs_a_quarter_per_missing_part(
    changes: dict, score: float, named: str
) -> None:
    found = row(_obs(sync=replace(SYNC, **changes)), "j_sync_journey")
    assert found.score == score
    assert named in found.detail


@pytest.mark.parametrize(
    ("changes", "score", "named"),
    [
        (
            {
                "approved": False,
                "list_ok": False,
                "notification_seen": False,
                "payment_in_table": False,
            },
            3 / 7,
            "approved",
        ),
        ({"payment_in_table": False}, 6 / 7, "payment_in_table"),
        ({"notification_seen": False, "notified": ("draft.submitted",)}, 6 / 7, "notification"),
        ({"list_ok": False}, 6 / 7, "list_ok"),
        ({"token_accepted": False}, 0.0, "gate closed"),
        ({"draft_id": None}, 0.0, "no draft was created"),
        ({"surface": ("#role-token", "#draft-form")}, 0.0, "absent required surface"),
    ],
)
def test_the_approval_journey_is_gate_times_steps_over_seven(
    changes: dict, score: float, named: str
) -> None:
    found = row(_obs(flow=flow_with("approval", **changes)), "j_workflow_journey")
    assert found.score == pytest.approx(score, abs=1e-6)
    assert named in found.detail


@pytest.mark.parametrize(
    ("changes", "score"),
    [
        ({"notification_seen": False}, 2 / 3),
        ({"list_state": "submitted"}, 2 / 3),
        ({"reached_rejected": False, "list_state": "submitted"}, 1 / 3),
        (
            {
                "clicked": False,
                "reached_rejected": False,
                "list_state": None,
                "notification_seen": False,
            },
            0.0,
        ),
    ],
)
def test_the_rejection_costs_a_third_per_missing_part(changes: dict, score: float) -> None:
    found = row(_obs(flow=flow_with("rejection", **changes)), "j_workflow_reject")
    assert found.score == pytest.approx(score, abs=1e-6)


@pytest.mark.parametrize(
    ("changes", "score", "named"),
    [
        ({"degraded_seen": False, "degraded_after_s": None}, 0.75, "degraded"),
        ({"recovered_s": 7.5}, 0.75, "within 5 s"),
        ({"live_after": False, "recovered_s": None}, 0.5, "never live again"),
        ({"reloaded": True}, 0.75, "no reload"),
        ({"feed_found": False}, 0.0, "no #notifications"),
    ],
)
def test_the_feed_costs_a_quarter_per_missing_part(changes: dict, score: float, named: str) -> None:
    found = row(_obs(feed=replace(FEED, **changes)), "j_notifications_feed")
    assert found.score == score
    assert named in found.detail


@pytest.mark.parametrize(
    ("changes", "score"),
    [
        ({"paint_ms": 180.0}, 0.5 + 0.25 * 0.6 + 0.25),
        ({"paint_ms": 500.0}, 0.5 + 0.25 * 0.3 + 0.25),
        ({"paint_ms": 900.0}, 0.75),
        ({"preexisting": True}, 0.75),
        ({"saved": False, "saved_state": "error"}, 0.75),
        ({"painted_while_held": False}, 0.0),
        ({"held_pending": False, "painted_while_held": False}, 0.0),
        ({"editor_opened": False, "painted_while_held": False}, 0.0),
        ({"cell_found": False, "editor_opened": False, "painted_while_held": False}, 0.0),
    ],
)
def test_optimistic_paint_prices_the_gate_latency_and_save(changes: dict, score: float) -> None:
    found = row(_obs(flow=flow_with("paint", **changes)), "e_optimistic_paint")
    assert found.score == pytest.approx(score, abs=1e-6)


def test_a_network_bound_cell_says_it_waited() -> None:
    found = row(_obs(flow=flow_with("paint", painted_while_held=False)), "e_optimistic_paint")
    assert "waited for the network" in found.detail


@pytest.mark.parametrize(("check_id", "name"), sorted(ROWS.items()))
def test_a_failed_scenario_is_unavailable_not_a_zero(check_id: str, name: str) -> None:
    scenarios = {k: v for k, v in FLOWS.items() if k != name}
    record = Sb7BrowserRecord(unavailable=None, scenarios=scenarios,
                              scenario_errors={name: "TimeoutError: boom"})  # fmt: skip
    found = row(perfect().with_phase("browser", record), check_id)
    assert found.status is Status.UNAVAILABLE
    assert "boom" in found.detail


@pytest.mark.parametrize("check_id", sorted(ROWS))
def test_no_browser_is_unavailable(check_id: str) -> None:
    record = Sb7BrowserRecord(unavailable="Chromium is missing")
    found = row(perfect().with_phase("browser", record), check_id)
    assert found.status is Status.UNAVAILABLE


@pytest.mark.parametrize(("check_id", "name"), sorted(ROWS.items()))
def test_no_page_at_root_is_the_apps_zero(check_id: str, name: str) -> None:
    record = Sb7BrowserRecord(unavailable=None, scenarios={},
                              no_page={name: "`/` answered 404 application/json"})  # fmt: skip
    found = row(perfect().with_phase("browser", record), check_id)
    assert (found.status, found.score) == (Status.FAIL, 0.0)


def test_a_late_busy_state_alone_is_judged_by_the_sync_scenarios_host() -> None:
    """Late busy paint and nothing else wrong: a busy host refuses the row, a calm one keeps
    0.75; with another part failing too the row stands as measured whatever the host."""

    def judged(host: object, **changes: object) -> object:
        obs = _obs(sync=replace(SYNC, **changes))
        record = replace(obs["browser"], scenario_host={"sync": host})
        found = row(obs, "j_sync_journey")
        return judge_timing([found], obs.with_phase("browser", record))[0]

    refused = judged(BUSY, in_flight_ms=3347.0)
    assert refused.status is Status.UNAVAILABLE and refused.detail.startswith(HOST_CONTENDED)
    assert judged(CALM, in_flight_ms=3347.0).score == 0.75
    assert judged(BUSY, in_flight_ms=3347.0, rerendered=False).score == 0.5
