"""The hard block and tier P on canned observations."""

import pytest
from canned_http import jr, refused
from vendorsync_canned import (
    boot,
    grade_one,
    latency,
    perfect,
    report,
    swap,
    with_ledger,
)

from benchwright.model import Status
from benchwright.scoring import Rung
from benchwright.suites.vendorsync.checks import CheckSettings

HARD_AND_P = ("request_efficiency", "second_sync_cost", "client_create_replay",
              "client_idempotency_key", "update_propagation", "restart_persistence",
              "p_list_latency", "p_sync_wall")  # fmt: skip


@pytest.mark.parametrize("check", HARD_AND_P)
def test_a_perfect_app_earns_every_hard_and_p_row(check):
    row = grade_one(perfect(), check)
    assert (row.status, row.score) == (Status.PASS, 1.0), row


def test_request_efficiency_is_7_over_the_requests_made():
    assert (
        grade_one(with_ledger(perfect(), "sync1", list_requests=14), "request_efficiency").score
        == 0.5
    )
    assert (
        grade_one(with_ledger(perfect(), "sync1", list_requests=0), "request_efficiency").score == 0
    )


def test_request_efficiency_scores_a_short_incomplete_walk_by_completeness():
    short = with_ledger(perfect(), "sync1", list_requests=2)
    half = swap(short, "sync1", call=jr({"fetched": 100, "inserted": 100, "total": 100}))
    row = grade_one(half, "request_efficiency")
    assert row.score == pytest.approx(100 / 247) and "complete" in row.detail


@pytest.mark.parametrize(
    "made, conditional, fresh, score",
    [(3, 3, 3, 1.0), (3, 3, 1, 0.7), (7, 6, 3, 0.4), (3, 0, 0, 0.0), (3, 2, 0, 0.0),
     (0, 0, 0, 0.0)],
)  # fmt: skip
def test_second_sync_cost_rungs(made, conditional, fresh, score):
    obs = with_ledger(perfect(), "sync2", list_requests=made, conditional_requests=conditional,
                      not_modified=fresh)  # fmt: skip
    assert grade_one(obs, "second_sync_cost").score == score


def test_second_sync_cost_is_0_without_a_second_sync():
    assert grade_one(with_ledger(perfect(), "sync2", gone=True), "second_sync_cost").score == 0


def test_client_create_replay_wants_one_id_twice():
    seen = report()
    seen["creates"] = [{"ok": {"type": "str", "value": "pay_new_0000"}},
                       {"ok": {"type": "str", "value": "pay_new_0001"}}]  # fmt: skip
    assert grade_one(swap(perfect(), "client", report=seen), "client_create_replay").score == 0
    seen["creates"] = [{"ok": {"type": "str", "value": "pay_new_0000"}},
                       {"error": "HTTPError: HTTP Error 409: Conflict"}]  # fmt: skip
    row = grade_one(swap(perfect(), "client", report=seen), "client_create_replay")
    assert row.score == 0 and "409" in row.detail
    seen["creates"] = [{"ok": {"type": "str", "value": ""}}] * 2
    assert grade_one(swap(perfect(), "client", report=seen), "client_create_replay").score == 0


def test_client_idempotency_key_wants_every_create_keyed():
    unkeyed = with_ledger(perfect(), "client", creates=2, keyed_creates=1)
    assert grade_one(unkeyed, "client_idempotency_key").score == 0
    none = with_ledger(perfect(), "client", creates=0, keyed_creates=0)
    assert grade_one(none, "client_idempotency_key").score == 0


def test_update_propagation_is_the_fraction_shown():
    obs = perfect()
    changed = obs["update"].changed
    seen = dict(changed) | dict.fromkeys(list(changed)[:5], "settled")
    assert grade_one(swap(obs, "update", seen=seen), "update_propagation").score == 0.8
    failed = swap(obs, "update", sync=refused("/api/sync"))
    assert grade_one(failed, "update_propagation").score == 0
    assert grade_one(swap(obs, "update", changed={}), "update_propagation").score == 0


def test_restart_persistence_is_the_fraction_kept():
    obs = perfect()
    assert grade_one(
        swap(obs, "restart", rows_after=200), "restart_persistence"
    ).score == pytest.approx(200 / 247)
    assert grade_one(swap(obs, "restart", rows_before=0), "restart_persistence").score == 0
    dead = swap(obs, "restart", boot=boot(healthy=False), rows_after=None)
    assert grade_one(dead, "restart_persistence").score == 0


def test_p_list_latency_ladder_and_unmeasured():
    obs = perfect()
    assert grade_one(swap(obs, "perf", payments=latency(150)), "p_list_latency").score == 0.75
    assert grade_one(swap(obs, "perf", payments=latency(900)), "p_list_latency").score == 0
    few = latency(5, n=5)
    unmeasured = swap(obs, "perf", payments=type(few)(few.path, few.samples, few.success_ms, None))
    assert grade_one(unmeasured, "p_list_latency").score == 0


def test_p_sync_wall_ladder_and_a_failed_sync():
    obs = perfect()
    slow = swap(obs, "sync1", call=jr({"total": 247}, elapsed=100.0))
    assert grade_one(slow, "p_sync_wall").score == 0.5
    assert grade_one(swap(obs, "sync1", call=refused("/api/sync")), "p_sync_wall").score == 0


def test_k_p_and_thresholds_override_the_ladders():
    tight = CheckSettings(k_p=100.0)
    assert grade_one(perfect(), "p_list_latency", tight).score < 1
    ladders = dict(CheckSettings().ladders) | {"p_sync_wall": (Rung(1000, 1.0), Rung(2000, 0.5))}
    assert grade_one(perfect(), "p_sync_wall", CheckSettings(ladders=ladders)).score == 0
