"""HARD checks and the diagnostics on canned observations."""

import pytest
from vspro_canned import (
    STORE,
    grade_one,
    health_body,
    jr,
    list_line,
    marker,
    perfect,
    swap,
    trace_lines,
)

from benchwright.model import Status
from benchwright.services.meridian import ConflictTrace, TrapResults
from benchwright.suites.vspro.checks.diagnostics import upsert_kind
from benchwright.suites.vspro.checks.efficiency import efficiency

HARD = (
    "h_conflict_dance",
    "h_durability",
    "h_sync_discipline",
    "h_webhook_ledger",
    "request_efficiency",
)
DIAGNOSTICS = (
    "input_validation",
    "local_pagination",
    "resync_idempotent",
    "restart_persistence",
    "update_propagation",
    "concurrent_sync_safe",
    "store_atomic_upsert",
)


@pytest.mark.parametrize("check", HARD + DIAGNOSTICS)
def test_perfect_app_scores_one(check):
    row = grade_one(perfect(), check)
    assert (row.status, row.score) == (Status.PASS, 1.0), row.detail


def test_conflict_dance_weights():
    obs = perfect()
    blind = swap(obs, "conflict", trace=ConflictTrace(4, 1, 3, 1, True))
    assert grade_one(blind, "h_conflict_dance").score == 0.75
    stale = swap(obs, "conflict", trace=ConflictTrace(4, 0, 3, 1, False))
    assert grade_one(stale, "h_conflict_dance").score == pytest.approx(0.65)
    storm = swap(obs, "conflict", trace=ConflictTrace(6, 0, 3, 3, True))
    assert grade_one(storm, "h_conflict_dance").score == pytest.approx(0.85)
    fake_ok = swap(obs, "conflict", second=jr({"note": "x"}, 200))
    row = grade_one(fake_ok, "h_conflict_dance")
    assert row.score == 0.75 and "persistent 412 -> 409, row unchanged" in row.detail
    clobbered = swap(obs, "conflict", row_after=jr({"note": obs["conflict"].second_note}))
    assert grade_one(clobbered, "h_conflict_dance").score == 0.75


def test_conflict_dance_without_any_patch_is_zero():
    obs = swap(perfect(), "conflict", trace=ConflictTrace(0, 0, 0, 0, False), second=None)
    assert grade_one(obs, "h_conflict_dance").score == 0.0


def test_durability_lost_row_is_a_cliff():
    obs = swap(perfect(), "restart", rows_after=1552)
    row = grade_one(obs, "h_durability")
    assert row.score == 0.0 and "lost rows: 1553 -> 1552 (cliff)" in row.detail
    assert grade_one(obs, "restart_persistence").score == pytest.approx(1552 / 1553, abs=1e-5)


def test_durability_components():
    race = swap(perfect(), "concurrency", health_count=1600)
    assert grade_one(race, "h_durability").score == pytest.approx(1 - 47 / 1553, abs=1e-5)
    replace = swap(perfect(), "static", store_source="INSERT OR REPLACE INTO payments VALUES (?)")
    row = grade_one(replace, "h_durability")
    assert row.score == 0.5 and "replace_or_ignore" in row.detail
    gate = grade_one(swap(perfect(), "restart", rows_before=0), "h_durability")
    assert gate.detail.startswith("0: gate: no rows before the kill")
    dead = grade_one(swap(perfect(), "restart", rows_after=None), "h_durability")
    assert "never healthy after the SIGKILL" in dead.detail and dead.score == 0.0


def test_upsert_kinds():
    assert upsert_kind(STORE) == "on_conflict_update"
    assert upsert_kind("REPLACE INTO payments VALUES (?)") == "replace_or_ignore"
    racy = "SELECT 1 FROM payments WHERE id = ?\nINSERT INTO payments VALUES (?)"
    assert upsert_kind(racy) == "select_then_insert"
    assert upsert_kind("INSERT INTO payments VALUES (?)") == "none"
    assert upsert_kind(None) == "no store.py"


def test_sync_discipline_unconditional_rewalk_caps_near_zero():
    lines = (
        *trace_lines()[:-17],
        *(list_line(201 + i) for i in range(16)),
        marker(300, "sync2done"),
    )
    row = grade_one(swap(perfect(), "trace", lines=lines), "h_sync_discipline")
    assert row.score == 0.0 and "cheap 0 [0/16 conditional, 0 304s]" in row.detail


def test_sync_discipline_half_conditional():
    lines = (
        *trace_lines()[:-17],
        *(list_line(201 + i, 200, inm='"e"') for i in range(16)),
        marker(300, "sync2done"),
    )
    assert grade_one(swap(perfect(), "trace", lines=lines), "h_sync_discipline").score == 0.5


def test_sync_discipline_idempotence_and_propagation():
    inserting = swap(perfect(), "sync2", call=jr({"inserted": 3, "total": 1553}))
    assert grade_one(inserting, "h_sync_discipline").score == 0.5
    assert grade_one(inserting, "resync_idempotent").score == 0.5
    obs = perfect()
    seen = dict(obs["mutation"].seen) | {"pay_0100": "settled"}
    stale = swap(obs, "mutation", seen=seen)
    assert grade_one(stale, "h_sync_discipline").score == pytest.approx(11 / 12, abs=1e-5)
    assert grade_one(stale, "update_propagation").detail.startswith("0.9167: 11/12")


def test_sync_discipline_gate():
    no_window = tuple(x for x in trace_lines() if x.get("__phase__") != "sync2")
    row = grade_one(swap(perfect(), "trace", lines=no_window), "h_sync_discipline")
    assert row.detail.startswith("0: gate")


def test_webhook_ledger_components():
    obs = perfect()
    w = obs["webhook"]
    off = swap(
        obs, "webhook", health=health_body(1553, received=12, applied=8, ignored=3, rejected=1)
    )
    assert grade_one(off, "h_webhook_ledger").score == 0.5
    forged = dict(w.script) | {"results": [{"kind": "forged", "status": 200}]}
    assert grade_one(swap(obs, "webhook", script=forged), "h_webhook_ledger").score == 0.0
    rows = dict(w.rows) | {"pay_0020": {"version": 2, "note": "wh-b-1"}}
    stale = grade_one(swap(obs, "webhook", rows=rows), "h_webhook_ledger")
    assert stale.score == 0.0 and "wrong: pay_0020" in stale.detail


def _delivery(event_id, kind, pid, status, duty):
    return {"event_id": event_id, "kind": kind, "payment_id": pid, "status": status, "duty": duty}


def test_webhook_ledger_names_the_duty_a_wrong_row_or_a_refused_event_breaks():
    obs = perfect()
    w = obs["webhook"]
    results = [
        _delivery("evt_0004", "forged", "pay_0030", 401, "§8.3 forged"),
        _delivery("evt_0006", "apply", "pay_0040", 200, "§8.4 apply"),
        _delivery("evt_0006", "repeat-newer", "pay_0040", 200, "§8.4 duplicate id, newer"),
        _delivery("evt_0009", "apply-raw", "pay_0060", 401, "§8.3 raw bytes"),
    ]
    script = dict(w.script) | {"results": results}
    rows = dict(w.rows) | {"pay_0040": {"version": 3, "note": "wh-d-x"}}
    row = grade_one(swap(obs, "webhook", script=script, rows=rows), "h_webhook_ledger")
    assert row.score == 0.0
    assert "pay_0040 holds v3 'wh-d-x', want v2 'wh-d-1'" in row.detail
    assert "evt_0009 (apply-raw) answered 401" in row.detail
    assert "duties: §8.3 raw bytes [evt_0009] | §8.4 duplicate id, newer [evt_0006]" in row.detail
    assert "§8.4 apply" not in row.detail  # a plain apply is not the duty a repeat breaks
    fine = grade_one(swap(obs, "webhook", script=script | {"results": results[:3]}),
                     "h_webhook_ledger")  # fmt: skip
    assert fine.score == 1.0 and "duties" not in fine.detail


def test_webhook_ledger_gate_is_registration():
    obs = swap(perfect(), "webhook", script=None, refused="no webhook is registered")
    assert grade_one(obs, "h_webhook_ledger").detail == "0: gate: no webhook is registered"
    unreg = swap(perfect(), "webhook", health=health_body(1553, registered=False))
    assert grade_one(unreg, "h_webhook_ledger").score == 0.0


@pytest.mark.parametrize(
    ("requests", "complete", "traps_ok", "score"),
    [
        (13, 1.0, True, 1.0),
        (12, 1.0, True, 1.0),
        (12, 0.9, True, 0.9),
        (13, 1.0, False, 0.5),
        (15, 1.0, True, 0.75),
        (20, 1.0, True, 0.5),
        (26, 1.0, True, 0.5),
        (15, 0.5, True, 0.375),
        (0, 1.0, True, 0.0),
    ],
)
def test_efficiency_rungs(requests, complete, traps_ok, score):
    assert efficiency(requests, 13, complete, traps_ok) == pytest.approx(score)


def test_request_efficiency_failed_trap_caps_at_half():
    obs = swap(perfect(), "traps", results=TrapResults(1.0, 1.0, 0.5, {"stall": 1}, ()))
    row = grade_one(obs, "request_efficiency")
    assert row.score == 0.5 and "cap 0.5" in row.detail
    extra = (*trace_lines(sync1=15),)
    assert grade_one(swap(perfect(), "trace", lines=extra), "request_efficiency").score == 0.75


def test_request_efficiency_incomplete_first_sync():
    obs = swap(perfect(), "sync1", call=jr({"fetched": 388, "total": 388}))
    row = grade_one(obs, "request_efficiency")
    assert row.score == 0.5 and "completeness 0.5 of 776" in row.detail


def test_diagnostics_near_misses():
    obs = perfect()
    assert grade_one(
        swap(obs, "concurrency", health_count=1500), "concurrent_sync_safe"
    ).score == pytest.approx(1 - 53 / 1553, abs=1e-5)
    assert (
        grade_one(swap(obs, "concurrency", health_count=None), "concurrent_sync_safe").score == 0.0
    )
    assert (
        grade_one(
            swap(obs, "sync2", call=jr({"inserted": 0, "total": 1500})), "resync_idempotent"
        ).score
        == 0.0
    )
    assert (
        grade_one(
            swap(obs, "static", store_source="REPLACE INTO payments (?)"), "store_atomic_upsert"
        ).score
        == 0.5
    )
    racy = swap(obs, "static", store_source="SELECT 1 FROM payments WHERE id=?; INSERT INTO x")
    assert grade_one(racy, "store_atomic_upsert").score == 0.3


def test_input_validation_and_local_pagination_near_misses():
    from vspro_canned import ROWS, page

    from benchwright.probes.http import MatrixObservation

    obs = perfect()
    results = list(obs["validation"].matrix.results)
    results[0] = (results[0][0], jr(page([])).response)  # limit=-1 answered 200
    row = grade_one(
        swap(obs, "validation", matrix=MatrixObservation(tuple(results))), "input_validation"
    )
    assert row.detail == "0.8571: 6/7; wrong: limit=-1 -> 400"
    uncapped = swap(obs, "reads", capped=jr(page(ROWS[:500], limit=500)))
    row = grade_one(uncapped, "local_pagination")
    assert row.detail == "0.6667: 2/3; failed: limit=500 capped to 200 and echoed"
